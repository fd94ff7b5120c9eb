// @module-tag servers
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { root } from '../readme.ts';
import { haveGo, runCommand } from '../support.ts';
import { junitProblems } from './junit-shape.ts';

/** The command as the clone's install links it (@investor-graph/contract-tests' bin). */
const command = join(root, 'packages/contract-tests/src/check-api-bin.ts');

/**
 * The environment without the kit's variables, and without NODE_PATH (pnpm's bins set it to the clone's packages, which
 * would answer for a project's missing ones).
 */
const clean = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('INVESTOR_GRAPH_') && k !== 'NODE_PATH'),
  );

/**
 * Runs investor-graph-check-api as CI would, from a project that has the kit's packages (this clone), with its reports
 * in a folder of its own.
 */
async function checkApi(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ig-check-api-'));
  const run = await runCommand(process.execPath, [command, ...args], {
    cwd: root,
    env: { ...clean(), RESULTS_DIR: join(dir, 'results'), SMOKE_DURATION: '3s', ...env },
  });
  return { ...run, dir: join(dir, 'results') };
}
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('the CI check (investor-graph-check-api)', () => {
  const key = 'igk_business_ci_example_key_000001';
  let mock: RunningMock;
  let broken: RunningMock;
  beforeAll(async () => {
    [mock, broken] = await Promise.all([
      startMock({ port: 0, keys: [{ plan: 'business', key }] }),
      startMock({ port: 0, keys: [{ plan: 'business', key }], faults: ['drop-actions'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), broken?.close()]);
  });

  test.skipIf(!haveGo)(
    `against the mock: lint, contract tests and the k6 smoke all hold, with three JUnit files and the key never \
printed`,
    async () => {
      const run = await checkApi([mock.url], { INVESTOR_GRAPH_KEY: key, BUDGET_CALLS: '40' });
      expect(run.code, run.out).toBe(0);
      expect(run.out).toContain('a business key');
      expect(run.out).toContain('all held: lint, contract tests, k6 smoke');
      // Each step says its outcome and how long it took, in order.
      expect(run.out).toMatch(
        /1\/3 lint: held in \d+\.\d s[^]*2\/3 contract tests: held in \d+\.\d s[^]*3\/3 k6 smoke: held in \d+\.\d s/,
      );
      expect(run.out).not.toContain(key);
      expect(read(run.dir, 'lint.xml')).not.toContain('<failure');
      // A lint that held is a passing case, not an empty report a dashboard shows as no test.
      expect(read(run.dir, 'lint.xml')).toMatch(/<testcase [^>]*name="the served contract passes/);
      expect(read(run.dir, 'contract-tests.xml')).toMatch(/<testsuites[^>]* failures="0"/);
      expect(read(run.dir, 'business.junit.xml')).toContain('failures="0"');
      expect(
        JSON.parse(read(run.dir, 'business.summary.json')).metrics['unexpected_429{scenario:at_rate}'].values.count,
      ).toBe(0);
      // CI servers that check JUnit against the schema reject or mangle a file that breaks it.
      for (const file of ['lint.xml', 'contract-tests.xml', 'business.junit.xml'])
        expect(junitProblems(read(run.dir, file)), file).toEqual([]);
      // The folder is uploaded as a build artifact: no file in it holds the key in any form.
      const forms = [key, encodeURIComponent(key), Buffer.from(key).toString('base64'), key.slice(4)];
      // The k6 step's samples are gzip: read them unzipped, or a key inside could never be seen.
      const text = (file: string) =>
        file.endsWith('.gz') ? gunzipSync(readFileSync(join(run.dir, file))).toString('utf8') : read(run.dir, file);
      expect(readdirSync(run.dir)).toEqual(
        expect.arrayContaining(['business.samples.json.gz', 'business.report.html']),
      );
      for (const file of readdirSync(run.dir))
        for (const form of forms) expect(text(file), `${file} holds the key`).not.toContain(form);
    },
  );

  test.skipIf(!haveGo)(
    'against a mock that drops actions: exit 1, the contract tests name the failure, and the other steps still report',
    async () => {
      const run = await checkApi([broken.url], { INVESTOR_GRAPH_KEY: key, BUDGET_CALLS: '40' });
      expect(run.code, run.out).toBe(1);
      expect(run.out).toContain('FAILED: contract-tests');
      expect(run.out).toMatch(/2\/3 contract tests: FAILED in \d+\.\d s/);
      expect(read(run.dir, 'contract-tests.xml')).toContain('<failure');
      expect(read(run.dir, 'contract-tests.xml')).toContain('actions');
      expect(existsSync(join(run.dir, 'lint.xml'))).toBe(true);
      expect(existsSync(join(run.dir, 'business.junit.xml'))).toBe(true);
      // With failures in it, the contract tests' JUnit still has the shape strict readers accept.
      expect(junitProblems(read(run.dir, 'contract-tests.xml'))).toEqual([]);
    },
  );

  test.skipIf(!haveGo)(
    'with only an e-mail address it gets a trial key and smoke-tests at the trial rate',
    async () => {
      const run = await checkApi([mock.url], { INVESTOR_GRAPH_EMAIL: 'ci-example@example.com', BUDGET_CALLS: '12' });
      expect(run.code, run.out).toBe(0);
      expect(run.out).toContain('a trial key');
      expect(existsSync(join(run.dir, 'trial.junit.xml'))).toBe(true);
    },
  );

  test('bad usage is exit 2 and a set-up that stops the check exit 3, each saying why, before any test', async () => {
    const noUrl = await checkApi([], { INVESTOR_GRAPH_KEY: key });
    expect(noUrl.code).toBe(2);
    expect(noUrl.out).toContain("give the API's base URL");
    const taken = await fetch(`${mock.url}/api/v1/keys/trial`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"taken@example.com"}',
    });
    expect(taken.status).toBe(201);
    const again = await checkApi([mock.url], { INVESTOR_GRAPH_EMAIL: 'taken@example.com' });
    expect(again.code, 'one live trial per address').toBe(3);
    expect(again.out).toMatch(/no trial key from .*: .*trial/);
    const noKey = await checkApi([mock.url], {});
    expect(noKey.code).toBe(2);
    expect(noKey.out).toContain('set INVESTOR_GRAPH_KEY');
    const wrongKey = await checkApi([mock.url], { INVESTOR_GRAPH_KEY: 'igk_team_not_a_key_anyone_has_00' });
    expect(wrongKey.code).toBe(3);
    expect(wrongKey.out).toContain('did not accept the key');
    expect(wrongKey.out).not.toContain('igk_team_not_a_key_anyone_has_00');
    // Run from a project without the tools it drives: one line naming what to install.
    const bare = mkdtempSync(join(tmpdir(), 'ig-check-api-bare-'));
    const noTools = await runCommand(process.execPath, [command, mock.url], {
      cwd: bare,
      env: { ...clean(), INVESTOR_GRAPH_KEY: key },
    });
    expect(noTools.code).toBe(3);
    expect(noTools.out).toContain(
      'npm i -D @stoplight/spectral-cli @investor-graph/spectral-ruleset @investor-graph/load',
    );
    expect(noTools.out.trim().split('\n')).toHaveLength(1);
    // A secret pasted with its line break: refused in one line that does not show it.
    const pasted = await checkApi([mock.url], { INVESTOR_GRAPH_KEY: `${key}\n` });
    expect(pasted.code).toBe(2);
    expect(pasted.out).toContain('INVESTOR_GRAPH_KEY holds a character no key has');
    expect(pasted.out).not.toContain(key);
  });

  test('empty variables, as a CI system writes unset ones, take the defaults', async () => {
    const empty = await checkApi([''], {
      BASE_URL: mock.url,
      INVESTOR_GRAPH_KEY: 'igk_team_not_a_key_anyone_has_00',
      BUDGET_CALLS: '',
      SMOKE_DURATION: '',
    });
    expect(empty.code, empty.out).toBe(3);
    // The URL came from BASE_URL and the empty numbers were not refused: the key was the one thing wrong.
    expect(empty.out).toContain(`${mock.url}/api/v1/account did not accept the key`);
  });
});

test("the validation proxy's JUnit, with a violation in it, has the shape strict readers accept", async () => {
  const key = 'igk_team_junit_shape_check_key_0001';
  const upstream = await startMock({ port: 0, keys: [{ plan: 'team', key }], faults: ['leak-email'] });
  const dir = mkdtempSync(join(tmpdir(), 'ig-proxy-junit-'));
  const proxy = spawn(
    join(root, 'node_modules/.bin/investor-graph-mock'),
    ['proxy', upstream.url, '-p', '0', '--junit', join(dir, 'proxy.xml'), '--report', join(dir, 'proxy.json')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    let out = '';
    proxy.stdout.on('data', (d) => (out += d));
    const url = await new Promise<string>((resolve, reject) => {
      proxy.stdout.on('data', () => {
        const m = /proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      proxy.once('exit', () => reject(new Error(`the proxy exited: ${out}`)));
    });
    expect((await fetch(`${url}/api/v1/firms?limit=2`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );
    const exited = new Promise((resolve) => proxy.once('exit', resolve));
    proxy.kill('SIGTERM');
    expect(await exited).toBe(1);
    const xml = read(dir, 'proxy.xml');
    expect(xml).toContain('<failure');
    expect(junitProblems(xml)).toEqual([]);
  } finally {
    proxy.kill('SIGKILL');
    await upstream.close();
  }
});
