// @module-tag servers
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { k6Binary } from './src/k6.test-support.ts';
import { planIds, plans } from '@investor-graph/contract';
import { canRun } from '@investor-graph/cli';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { resultFiles } from './lib/plan-options.js';

const here = import.meta.dirname;
const haveGo = canRun('go', ['version']);

/** Runs a k6 script for real; resolves with its exit code and the summary folder. */
function k6(
  bin: string,
  script: string,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<{ code: number | null; out: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ig-k6-'));
  const args = [
    'run',
    '--no-usage-report',
    '-q',
    ...extra,
    ...Object.entries({ RESULTS_DIR: dir, ...env }).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    join(here, script),
  ];
  return new Promise((resolve) => {
    const child = spawn(bin, args, { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out, dir }));
  });
}

/** Runs a k6 script as a k6 user would: plain `k6 run` in a folder of theirs, no RESULTS_DIR given. */
function k6Plain(
  bin: string,
  script: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; out: string }> {
  const args = [
    'run',
    '--no-usage-report',
    '-q',
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    join(here, script),
  ];
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd, env: { ...process.env, PWD: cwd, K6_NO_USAGE_REPORT: 'true' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

const summary = (dir: string, plan: string) => JSON.parse(readFileSync(join(dir, `${plan}.summary.json`), 'utf8'));

describe.skipIf(!haveGo)('k6 scripts against the mock (they need Go: k6 is built from the Go module proxy)', () => {
  let bin: string;
  let mock: RunningMock;

  beforeAll(async () => {
    bin = k6Binary();
    mock = await startMock({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => mock?.close());

  for (const plan of planIds) {
    test(`the ${plan} script holds its thresholds against the mock at ${plans[plan].rate_per_second} \
req/s`, async () => {
      const run = await k6(bin, `${plan}.js`, { BASE_URL: mock.url, DURATION: '4s' });
      expect(run.code, run.out).toBe(0);
      const data = summary(run.dir, plan);
      expect(data.metrics.rate_limited.values.count, 'the over-rate scenario met 429s').toBeGreaterThan(0);
      expect(readFileSync(join(run.dir, `${plan}.junit.xml`), 'utf8')).toContain('failures="0"');
      // k6's end-of-test summary as k6 users know it (checks, every metric with its figures),
      // then the kit's threshold list.
      expect(run.out).toMatch(/✓ status 200/);
      expect(run.out).toMatch(/✓ http_req_duration\{scenario:at_rate\} \.+: avg=[\d.]+(µs|ms|s) min=.* p\(95\)=/);
      expect(run.out).toMatch(/ {5}http_reqs \.+: \d+ [\d.]+\/s/);
      expect(run.out).toMatch(/ {5}data_received \.+: [\d.]+ (B|kB|MB) /);
      expect(run.out).toContain(`k6 ${plan}: `);
      expect(run.out).toMatch(/ok {3}unexpected_429\{scenario:at_rate\} count==0/);
    });
  }

  test(`API_KEY alone, as the README documents it, runs every scenario in turn and holds every threshold against a \
correct server (regression)`, async () => {
    const res = await fetch(`${mock.url}/__control/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'team' }),
    });
    const { key } = (await res.json()) as { key: string };
    const run = await k6(bin, 'team.js', { BASE_URL: mock.url, DURATION: '2s', API_KEY: key });
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain(
      '[investor-graph k6] one key for 4 scenarios: they run one after another (at_rate, changes_poll, ' +
        'cursor_walk, above_rate)',
    );
    const data = summary(run.dir, 'team');
    expect(data.metrics['unexpected_429{scenario:at_rate}'].values.count).toBe(0);
    expect(
      data.metrics.rate_limited.values.count,
      'the over-rate scenario, last, still meets its 429s',
    ).toBeGreaterThan(0);
  });

  test(`the cursor walk syncs a whole resource at the plan's page size and says how many rows a second that \
took`, async () => {
    const run = await k6(bin, 'enterprise.js', {
      BASE_URL: mock.url,
      SCENARIOS: 'cursor_walk',
      WALK_RESOURCE: 'firms',
      WALK_MAX_DURATION: '20s',
    });
    expect(run.code, run.out).toBe(0);
    const data = summary(run.dir, 'enterprise');
    const firms = mock.engine.store.count('firm');
    expect(data.metrics.walk_rows.values.count).toBe(firms);
    expect(data.metrics.walk_pages.values.count).toBe(Math.ceil(firms / plans.enterprise.rows_per_page));
    expect(run.out).toMatch(new RegExp(`walk: ${firms} rows in \\d+ pages, [\\d.]+ s, \\d+ rows/s`));
  });

  test('a walk of a resource the API does not have fails the run and names it', async () => {
    const run = await k6(bin, 'enterprise.js', {
      BASE_URL: mock.url,
      SCENARIOS: 'cursor_walk',
      WALK_RESOURCE: 'people',
    });
    expect(run.code).toBe(99);
    expect(run.out).toContain('WALK_RESOURCE=people');
    expect(run.out).toContain('answered 404');
  });

  test(`plain k6 run without its results folder stops at once, non-zero, its first line saying so, and writes nothing \
half`, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ig-k6-plain-'));
    const run = await k6Plain(bin, 'team.js', { BASE_URL: mock.url, DURATION: '2s' }, cwd);
    expect(run.code, run.out).toBe(108);
    expect(run.out.split('\n')[0]).toMatch(
      /\[investor-graph k6\] the results folder load-results does not exist .*mkdir -p load-results/,
    );
    expect(run.out).not.toMatch(/could not save|Could not save/);
    expect(existsSync(join(cwd, 'load-results'))).toBe(false);
  });

  test(`plain k6 run with no service says so first, stops non-zero, and its JUnit fails the run and judges no \
threshold`, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ig-k6-plain-'));
    mkdirSync(join(cwd, 'load-results'));
    const run = await k6Plain(bin, 'team.js', { BASE_URL: 'http://127.0.0.1:9', DURATION: '2s' }, cwd);
    expect(run.code, run.out).toBe(108);
    const ours = run.out
      .split('\n')
      .filter((line) => line.includes('[investor-graph k6]') || line.startsWith('k6 team'));
    expect(ours[0]).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9 .*start the service/);
    expect(run.out).not.toMatch(/\bok {2}\w/);
    const xml = readFileSync(join(cwd, 'load-results', 'team.junit.xml'), 'utf8');
    expect(xml).toMatch(/<testcase [^>]*name="the run reached its scenarios"><failure/);
    expect(xml).not.toMatch(/<testcase [^>]*name="[^"]*count&gt;=0"/);
    expect((xml.match(/<skipped /g) ?? []).length).toBeGreaterThan(0);
    expect(xml).toMatch(/failures="1"/);
  });

  test(`plain k6 run with a key the service refuses stops before its scenarios in seconds, naming the key's variable \
(issue #68: it ran about four times DURATION and threw in 'changes in order')`, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ig-k6-plain-'));
    mkdirSync(join(cwd, 'load-results'));
    const started = performance.now();
    const run = await k6Plain(
      bin,
      'team.js',
      { BASE_URL: mock.url, DURATION: '5s', API_KEY: 'igk_team_no_one_has_this_key_00001' },
      cwd,
    );
    expect(run.code, run.out).toBe(108);
    expect((performance.now() - started) / 1000).toBeLessThan(10);
    const ours = run.out.split('\n').filter((line) => line.includes('[investor-graph k6]'));
    expect(ours.find((line) => /level=error/.test(line))).toMatch(/the service refused API_KEY \(401 \w+\)/);
    expect(run.out).not.toContain('TypeError');
    expect(run.out).not.toContain('igk_team_no_one_has_this_key_00001');
    const xml = readFileSync(join(cwd, 'load-results', 'team.junit.xml'), 'utf8');
    expect(xml).toMatch(/<testcase [^>]*name="the run reached its scenarios"><failure/);
  });

  test('a BASE_URL ending in /api/v1 stops before its scenarios, saying the scripts add it', async () => {
    const run = await k6(bin, 'team.js', { BASE_URL: `${mock.url}/api/v1`, DURATION: '1s' });
    expect(run.code, run.out).toBe(108);
    expect(run.out).toContain(`ends in /api/v1, which the scripts add to every path: -e BASE_URL=${mock.url}`);
  });

  test(`SCENARIOS=at_rate runs only the at-rate scenario and its thresholds, so one key is enough for a smoke \
run`, async () => {
    const res = await fetch(`${mock.url}/__control/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'business' }),
    });
    const { key } = (await res.json()) as { key: string };
    const run = await k6(bin, 'business.js', {
      BASE_URL: mock.url,
      DURATION: '3s',
      SCENARIOS: 'at_rate',
      API_KEY: key,
    });
    // No file the script writes holds the key, in any form (regression: setup_data went into the summary).
    for (const file of ['business.summary.json', 'business.junit.xml']) {
      const text = readFileSync(join(run.dir, file), 'utf8');
      for (const form of [key, encodeURIComponent(key), Buffer.from(key).toString('base64')])
        expect(text, file).not.toContain(form);
      expect(text).not.toContain('setup_data');
    }
    expect(run.out).not.toContain(key);
    expect(run.code, run.out).toBe(0);
    const data = summary(run.dir, 'business');
    expect(Object.keys(data.metrics).filter((m) => m.includes('{scenario:'))).toEqual(
      expect.arrayContaining(['unexpected_429{scenario:at_rate}']),
    );
    expect(Object.keys(data.metrics).filter((m) => /above_rate|cursor_walk|changes_poll/.test(m))).toEqual([]);
    expect(data.metrics['http_reqs{scenario:at_rate}'].values.count).toBeGreaterThanOrEqual(
      plans.business.rate_per_second * 2,
    );
  });

  test('SCENARIOS naming a scenario the plan lacks stops before any request, naming the ones it has', async () => {
    const run = await k6(bin, 'trial.js', { BASE_URL: mock.url, DURATION: '1s', SCENARIOS: 'at_rate,changes_poll' });
    expect(run.code).not.toBe(0);
    expect(run.out).toContain('the trial scenarios are at_rate, above_rate, cursor_walk');
  });

  test('a server that never rate-limits and repeats rows fails the run (k6 exit 99) with JUnit failures', async () => {
    const row = { id: 'inv_aaaaaaaaaaaa' };
    const broken = createServer((req, res) => {
      const body = req.url?.startsWith('/__control')
        ? { key: 'igk_team_x' }
        : { data: [row, row], next_cursor: null, as_of: 'x', plan: { id: 'team' }, usage: {} };
      res.writeHead(req.url?.startsWith('/__control') ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    try {
      const run = await k6(bin, 'team.js', {
        BASE_URL: `http://127.0.0.1:${(broken.address() as { port: number }).port}`,
        DURATION: '3s',
      });
      expect(run.code).toBe(99);
      const junit = readFileSync(join(run.dir, 'team.junit.xml'), 'utf8');
      expect(junit).toMatch(/rate_limited\{scenario:above_rate\} count&gt;0"><failure/);
      expect(junit).toMatch(/checks\{scenario:cursor_walk\} rate==1"><failure/);
    } finally {
      broken.close();
    }
  });

  test('two k6 processes split by execution segments hold the plan rate together', async () => {
    const keys = await Promise.all(
      ['key', 'burst', 'walk'].map(async () => {
        const res = await fetch(`${mock.url}/__control/keys`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"plan":"business"}',
        });
        return (await res.json()).key as string;
      }),
    );
    const env = {
      BASE_URL: mock.url,
      DURATION: '6s',
      API_KEY: keys[0]!,
      API_KEY_BURST: keys[1]!,
      API_KEY_WALK: keys[2]!,
    };
    const sequence = ['--execution-segment-sequence', '0,1/2,1'];
    const [a, b] = await Promise.all([
      k6(bin, 'business.js', env, ['--execution-segment', '0:1/2', ...sequence]),
      k6(bin, 'business.js', env, ['--execution-segment', '1/2:1', ...sequence]),
    ]);
    expect(a.code, a.out).toBe(0);
    expect(b.code, b.out).toBe(0);
    const count = (dir: string, segment: string) =>
      JSON.parse(readFileSync(join(dir, resultFiles('business', segment).summary), 'utf8')).metrics[
        'http_reqs{scenario:at_rate}'
      ].values.count as number;
    const combined = count(a.dir, '0:1/2') + count(b.dir, '1/2:1');
    const expected = plans.business.rate_per_second * 6;
    expect(count(a.dir, '0:1/2')).toBeGreaterThan(0);
    expect(count(b.dir, '1/2:1')).toBeGreaterThan(0);
    expect(combined).toBeGreaterThanOrEqual(Math.floor(expected * 0.9));
    expect(combined).toBeLessThanOrEqual(Math.ceil(expected * 1.05));
  });
});
