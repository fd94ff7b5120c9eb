// @module-tag servers
/**
 * One exit-code table for every command (@investor-graph/cli's exit-codes.ts): the README shows it,
 * each command's --help ends with its rows, and the codes a user meets most are the ones it says.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { exitCode, exitCodes, exitCodesHelp, exitCodesMarkdown } from '@investor-graph/cli';
import { root } from './readme.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-exit-codes-'));
/** The clone's commands, as its install links them, on this Node. */
const env = { ...process.env, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) };
const run = (command: string, args: string[], extra: NodeJS.ProcessEnv = {}) => {
  const ran = spawnSync(join(root, 'node_modules/.bin', command), args, {
    encoding: 'utf8',
    env: { ...env, ...extra },
    timeout: 60_000,
  });
  return { status: ran.status, out: ran.stdout + ran.stderr, stderr: ran.stderr };
};

test("the README's table is the table", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /<!-- exit-codes:start -->\n([^]*?)\n<!-- exit-codes:end -->/.exec(readme)?.[1];
  expect(block, "README.md's exit-codes block, written from exitCodesMarkdown()").toBe(exitCodesMarkdown());
});

test('every command and subcommand ends its --help with its rows of the table', () => {
  for (const command of Object.keys(exitCodes)) {
    const [bin, sub] = command.split(' ') as [string, string | undefined];
    const help = run(bin, [...(sub ? [sub] : []), '--help']);
    expect(help.status, help.out).toBe(exitCode.held);
    // investor-graph-load's three subcommands share one --help, each block headed with its name.
    const heading = bin === 'investor-graph-load' ? `exit codes of ${sub}:` : undefined;
    const block = exitCodesHelp(command, heading);
    expect(help.out, command).toContain(block);
  }
});

test('a port another process holds is a set-up, not bad usage: one line and 3, from mock and proxy', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = String((taken.address() as { port: number }).port);
  try {
    const junit = join(temp, 'proxy.xml');
    for (const args of [
      ['--port', port],
      ['proxy', 'http://127.0.0.1:9', '--port', port, '--junit', junit, '--report', join(temp, 'proxy.json')],
    ]) {
      const ran = run('investor-graph-mock', args);
      expect(ran.status, ran.out).toBe(exitCode.setup);
      expect(ran.stderr.trim().split('\n'), ran.out).toEqual([expect.stringContaining(`port ${port}`)]);
    }
    // The proxy, which has reports, still writes them: one failed case saying why (issue #68).
    expect(readFileSync(junit, 'utf8')).toMatch(
      new RegExp(
        `name="set-up: its port is free"[^>]*>\\s*<failure message="port ${port} on 127\\.0\\.0\\.1 is in use"`,
      ),
    );
  } finally {
    taken.close();
  }
});

test('an --out the dataset cannot be written to is bad usage: one line and 2, no stack', () => {
  const file = join(temp, 'a-file');
  writeFileSync(file, 'in the way');
  for (const out of [join(file, 'dataset'), join(file, 'dataset.sqlite')]) {
    const ran = run('investor-graph-dataset', ['--scale', '100', '--out', out], { CI: '1' });
    expect(ran.status, ran.out).toBe(exitCode.usage);
    expect(ran.stderr.trim().split('\n'), ran.out).toEqual([expect.stringContaining(`--out ${out} cannot be written`)]);
  }
});

test('no k6 to run is a set-up: investor-graph-load k6 and run say so in one line and exit 3', () => {
  // No K6_BIN, an empty kit cache and no Go on PATH: nothing to run and nothing to build with.
  const noGo = env.PATH.split(delimiter).filter((dir) => !existsSync(join(dir, 'go')));
  const bare = { K6_BIN: '', KIT_CACHE: join(temp, 'cache'), PATH: noGo.join(delimiter) };
  for (const args of [['k6'], ['run', 'team']]) {
    const ran = run('investor-graph-load', args, bare);
    expect(ran.status, ran.out).toBe(exitCode.setup);
    expect(ran.stderr.trim().split('\n'), ran.out).toHaveLength(1);
  }
});

afterAll(() => spawnSync('rm', ['-rf', temp]));

test('a base URL ending in /api/v1 is bad usage that says the kit adds it: contract-tests and its diff', () => {
  for (const args of [
    ['--base-url', 'http://127.0.0.1:9/api/v1', '--plan', 'team'],
    ['diff', '--base-url', 'http://127.0.0.1:9/api/v1/'],
  ]) {
    const ran = run('investor-graph-contract-tests', args, { INVESTOR_GRAPH_KEY: 'igk_team_not_a_real_key_0000001' });
    expect(ran.status, ran.out).toBe(exitCode.usage);
    expect(ran.stderr.trim().split('\n'), ran.out).toEqual([
      expect.stringContaining('ends in /api/v1, which the kit adds to every path: give http://127.0.0.1:9'),
    ]);
  }
});

test("a plan that is none is bad usage naming the plans, with the nearest one (issue #68: 'run needs a plan')", () => {
  for (const [plan, says] of [
    ['gold', 'gold is no plan of the API: give one of trial, team, business, enterprise, payg'],
    ['teem', 'teem is no plan of the API: give one of trial, team, business, enterprise, payg (did you mean team?)'],
  ] as const) {
    const ran = run('investor-graph-load', ['run', plan]);
    expect(ran.status, ran.out).toBe(exitCode.usage);
    expect(ran.stderr.trim().split('\n'), ran.out).toEqual([expect.stringContaining(says)]);
    expect(ran.stderr).not.toContain('run needs a plan');
  }
});

test('--versoin gets "did you mean --version?" from every command, one line and 2', () => {
  for (const command of ['investor-graph-contract-tests', 'investor-graph-check-api', 'investor-graph-dataset']) {
    const ran = run(command, ['--versoin']);
    expect(ran.status, ran.out).toBe(exitCode.usage);
    expect(ran.stderr.trim().split('\n'), ran.out).toEqual([
      expect.stringContaining("Unknown option '--versoin'. Did you mean --version?"),
    ]);
  }
});

test('a base URL ending in /api/v1 is bad usage that says the kit adds it: check-api and the load run too', () => {
  const key = { INVESTOR_GRAPH_KEY: 'igk_team_not_a_real_key_0000001', API_KEY: 'igk_team_not_a_real_key_0000001' };
  for (const [command, args] of [
    ['investor-graph-check-api', ['http://127.0.0.1:9/api/v1']],
    [
      'investor-graph-load',
      ['run', 'team', '--k6', process.execPath, '--', '-e', 'BASE_URL=http://127.0.0.1:9/api/v1'],
    ],
  ] as const) {
    const ran = run(command, [...args], key);
    expect(ran.status, ran.out).toBe(exitCode.usage);
    expect(ran.stderr.trim().split('\n'), ran.out).toEqual([
      expect.stringContaining('ends in /api/v1, which the kit adds to every path: give http://127.0.0.1:9'),
    ]);
  }
});
