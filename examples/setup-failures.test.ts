// @module-tag servers
/**
 * Issue #68: a set-up that keeps a run from starting (the service unreachable, the key refused, a
 * tool missing) is exit 3 from every command that meets it, said in one line, and still writes the
 * run's JUnit with one failed case naming the step and the reason, so that a CI page shows why. The
 * clone's commands as child processes, against a real mock on loopback and a port nothing listens on.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exitCode } from '@investor-graph/cli';
import { mockJournal, startMock, type RunningMock } from '@investor-graph/mock/node';
import { root } from './readme.ts';
import { haveGo } from './support.ts';
import { junitProblems } from './ci/junit-shape.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-setup-failures-'));
const key = 'igk_business_setup_failures_key_0001';
const refused = 'igk_business_no_one_has_this_key_000';
/** The environment without the kit's variables, and without NODE_PATH (pnpm's bins point it at the clone). */
const clean = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !k.startsWith('INVESTOR_GRAPH_') && !['NODE_PATH', 'API_KEY', 'BASE_URL', 'RESULTS_DIR'].includes(k),
  ),
);
const env = { ...clean, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) };

let mock: RunningMock;
/** An address nothing listens on: a port taken and let go. */
let unreachable: string;
beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [{ plan: 'business', key }] });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  unreachable = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await new Promise((resolve) => server.close(resolve));
});
afterAll(async () => {
  await mock?.close();
  spawnSync('rm', ['-rf', temp]);
});

let runs = 0;
/**
 * Runs a clone's command from the clone (where its tools are installed), with a results folder of
 * its own; asynchronously, so that the mock in this process goes on answering.
 */
async function run(command: string, args: (dir: string) => string[], extra: NodeJS.ProcessEnv = {}) {
  const dir = join(temp, `run-${++runs}`);
  const started = performance.now();
  const child = spawn(join(root, 'node_modules/.bin', command), args(dir), {
    cwd: root,
    env: { ...env, RESULTS_DIR: dir, ...extra },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, out: stdout + stderr, stderr, dir, seconds: (performance.now() - started) / 1000 };
}
type Ran = Awaited<ReturnType<typeof run>>;

/** The one failed case of a set-up's JUnit: its name and its failure's message. */
function failedCase(file: string): { name: string; message: string } {
  expect(existsSync(file), `${file} was written`).toBe(true);
  const xml = readFileSync(file, 'utf8');
  expect(junitProblems(xml), file).toEqual([]);
  expect(xml).toMatch(/<testsuites[^>]* tests="1" failures="1"/);
  const [, name, message] = /<testcase [^>]*name="([^"]*)"[^>]*>\s*<failure message="([^"]*)"/.exec(xml) ?? [];
  return { name: name!, message: message! };
}

/** What each command says of a set-up failure: 3, one line on stderr saying `reason`, and a JUnit naming it. */
function expectSetupFailure(ran: Ran, junit: string, step: RegExp, reason: RegExp): void {
  expect(ran.status, ran.out).toBe(exitCode.setup);
  const lines = ran.stderr.trim().split('\n');
  expect(lines, ran.out).toEqual([expect.stringMatching(reason)]);
  const failed = failedCase(join(ran.dir, junit));
  expect(failed.name).toMatch(step);
  expect(failed.message).toMatch(reason);
  expect(ran.out).not.toContain(refused);
}

describe('investor-graph-check-api', () => {
  const check = (url: string, extra: NodeJS.ProcessEnv, args: string[] = []) =>
    run('investor-graph-check-api', () => [url, ...args], { SMOKE_DURATION: '3s', ...extra });

  test('an unreachable service: 3 before any step, with the JUnit, report and page saying so', async () => {
    const ran = await check(unreachable, { INVESTOR_GRAPH_KEY: key });
    expectSetupFailure(ran, 'contract-tests.xml', /the service answers/, /cannot reach http:\/\/127\.0\.0\.1:\d+/);
    expect(ran.out).not.toMatch(/1\/3 lint/);
    const report = JSON.parse(readFileSync(join(ran.dir, 'contract-tests.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'setup-failed', exit_code: 3, setup: { step: 'service' } });
    expect(readFileSync(join(ran.dir, 'contract-tests.html'), 'utf8')).toContain('cannot reach');
  });

  test('a key the service refuses: 3 before any step, with a JUnit naming the key', async () => {
    const ran = await check(mock.url, { INVESTOR_GRAPH_KEY: refused });
    expectSetupFailure(ran, 'contract-tests.xml', /accepts the key/, /did not accept the key/);
    expect(ran.out).not.toMatch(/1\/3 lint/);
  });

  test('a k6 that is not there: 3 before any step spends a call, with a JUnit naming k6', async () => {
    const journal = mockJournal(mock.url);
    const before = (await journal.journal()).length;
    const ran = await check(mock.url, { INVESTOR_GRAPH_KEY: key }, ['--k6', join(temp, 'no-such-k6')]);
    expectSetupFailure(ran, 'contract-tests.xml', /the tools/, /no-such-k6/);
    expect(ran.out).not.toMatch(/1\/3 lint/);
    // Nothing but the one call that checked the key reached the service.
    expect((await journal.journal()).length - before).toBeLessThanOrEqual(1);
  });
});

describe('investor-graph-contract-tests', () => {
  const tests = (url: string, extra: NodeJS.ProcessEnv) =>
    run(
      'investor-graph-contract-tests',
      (dir) => [
        '--base-url',
        url,
        '--plan',
        'business',
        '--junit',
        join(dir, 'junit.xml'),
        '--report',
        join(dir, 'report.json'),
        '--html',
        join(dir, 'report.html'),
      ],
      extra,
    );

  test('an unreachable service: 3, with the JUnit, report and page saying so', async () => {
    const ran = await tests(unreachable, { INVESTOR_GRAPH_KEY: key });
    expectSetupFailure(ran, 'junit.xml', /the service answers/, /cannot connect to http:\/\/127\.0\.0\.1:\d+/);
    expect(JSON.parse(readFileSync(join(ran.dir, 'report.json'), 'utf8'))).toMatchObject({
      status: 'setup-failed',
      setup: { step: 'service', reason: expect.stringContaining('cannot connect') },
    });
    expect(readFileSync(join(ran.dir, 'report.html'), 'utf8')).toContain('cannot connect');
  });

  test('a key the service refuses: 3, with a JUnit naming the key', async () => {
    expectSetupFailure(
      await tests(mock.url, { INVESTOR_GRAPH_KEY: refused }),
      'junit.xml',
      /accepts the key/,
      /the service refused the key/,
    );
  });

  test('an OASDIFF_BIN that is not there: 3 before any call, with a JUnit naming it', async () => {
    expectSetupFailure(
      await tests(mock.url, { INVESTOR_GRAPH_KEY: key, OASDIFF_BIN: join(temp, 'no-such-oasdiff') }),
      'junit.xml',
      /the tools/,
      /OASDIFF_BIN names .*no-such-oasdiff/,
    );
  });
});

describe('investor-graph-contract-tests diff', () => {
  const diff = (url: string, extra: NodeJS.ProcessEnv = {}) =>
    run(
      'investor-graph-contract-tests',
      (dir) => ['diff', '--base-url', url, '--junit', join(dir, 'diff.xml'), '--report', join(dir, 'diff.json')],
      extra,
    );

  test('an unreachable service: 3, with a JUnit naming it', async () => {
    const ran = await diff(unreachable);
    expectSetupFailure(ran, 'diff.xml', /the service answers/, /cannot read http:\/\/127\.0\.0\.1:\d+/);
    expect(JSON.parse(readFileSync(join(ran.dir, 'diff.json'), 'utf8'))).toMatchObject({
      exit_code: 3,
      setup: { step: 'service' },
    });
  });

  test('an OASDIFF_BIN that is not there: 3, with a JUnit naming it', async () => {
    expectSetupFailure(
      await diff(mock.url, { OASDIFF_BIN: join(temp, 'no-such-oasdiff') }),
      'diff.xml',
      /the tools/,
      /OASDIFF_BIN names .*no-such-oasdiff/,
    );
  });
});

describe.skipIf(!haveGo && !process.env.K6_BIN)('investor-graph-load run', () => {
  const load = (url: string, extra: NodeJS.ProcessEnv, args: string[] = []) =>
    run('investor-graph-load', (dir) => ['run', 'team', '--results', dir, ...args, '--', '-e', `BASE_URL=${url}`], {
      DURATION: '3s',
      ...extra,
    });

  test('an unreachable service: 3 before any scenario, with the JUnit and the page saying so', async () => {
    const ran = await load(unreachable, { API_KEY: key });
    expectSetupFailure(ran, 'team.junit.xml', /the service answers/, /cannot reach http:\/\/127\.0\.0\.1:\d+/);
    expect(readdirSync(ran.dir)).toEqual(expect.arrayContaining(['team.report.html']));
  });

  test('a key the service refuses: 3 in under 10 s, before any scenario, with the JUnit naming the key', async () => {
    const ran = await load(mock.url, { API_KEY: refused });
    expectSetupFailure(ran, 'team.junit.xml', /accepts the key/, /refused API_KEY/);
    expect(ran.seconds).toBeLessThan(10);
    expect(ran.out).not.toContain('TypeError');
  });

  test('a k6 that is not there: 3, with the JUnit naming it', async () => {
    expectSetupFailure(
      await load(mock.url, { API_KEY: key }, ['--k6', join(temp, 'no-such-k6')]),
      'team.junit.xml',
      /the tools/,
      /no-such-k6/,
    );
  });
});

describe('investor-graph-dataset sync', () => {
  const sync = (url: string, extra: NodeJS.ProcessEnv) =>
    run('investor-graph-dataset', (dir) => ['sync', '--base-url', url, '--out', join(dir, 'copy'), '--yes'], extra);

  test('an unreachable service and a refused key: 3, in one line', async () => {
    for (const ran of [
      await sync(unreachable, { INVESTOR_GRAPH_KEY: key, CI: 'true' }),
      await sync(mock.url, { INVESTOR_GRAPH_KEY: refused, CI: 'true' }),
    ]) {
      expect(ran.status, ran.out).toBe(exitCode.setup);
      expect(ran.stderr.trim().split('\n'), ran.out).toHaveLength(1);
      expect(ran.out).not.toContain(refused);
    }
  });
});
