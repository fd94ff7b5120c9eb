// @module-tag servers
/**
 * The benchmark's smoke form, as CI runs it: short runs on small datasets, to show that the script
 * still starts every server, drives them, and writes every figure. The figures are not judged here.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';

// Under a minute on a quiet machine; the bound leaves room for a busy one (its dump window is a minute).
test('pnpm bench -- --smoke drives the mock, prism and bare node and writes every figure', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ig-bench-smoke-'));
  const out = join(dir, 'bench.json');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, 'bench.ts'), '--smoke', '--duration', '1', '--out', out],
      { stdio: 'ignore' },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 290_000);
    child.once('exit', (c) => (clearTimeout(timer), resolve(c)));
  });
  expect(code).toBe(0);
  const results = JSON.parse(await readFile(out, 'utf8'));
  await rm(dir, { recursive: true, force: true });
  expect(results.smoke).toBe(true);
  for (const target of ['mock', 'prism', 'bare']) {
    for (const request of ['record', 'page', 'error']) {
      const figure = results.throughput[target][request];
      expect(figure.rps.median, `${target} ${request}`).toBeGreaterThan(0);
      expect(figure.errors, `${target} ${request}`).toBe(0);
      // Each server's CPU a call, read from /proc around its runs (Linux; elsewhere null).
      if (process.platform === 'linux') expect(figure.cpuUs, `${target} ${request}`).toBeGreaterThan(0);
    }
  }
  // The mock answered the record and the page (2xx) and the keyless call with its error.
  expect(results.throughput.mock.record.non2xx).toBe(0);
  expect(results.throughput.mock.page.non2xx).toBe(0);
  expect(results.throughput.mock.error.non2xx).toBeGreaterThan(0);
  expect(results.bytes.page).toBeGreaterThan(results.bytes.record);
  // The scale section: two generated datasets opened from their databases, pages, first
  // calls and mixed requests answered.
  expect(results.scale.map((s: { scale: number }) => s.scale)).toEqual([2_000, 20_000]);
  expect(results.scale[1].rows).toBeGreaterThan(results.scale[0].rows);
  for (const s of results.scale) {
    expect([s.first.non2xx, s.deep.non2xx, s.mixed.non2xx, s.mixed.errors]).toEqual([0, 0, 0, 0]);
    for (const rss of ['rss_start_mb', 'rss_after_first_calls_mb', 'rss_after_mixed_mb', 'rss_peak_mb'])
      expect(s[rss], rss).toBeGreaterThan(0);
    // Every reading operation: a first call answered 200, then its share of the mixed load, every answer 2xx and put
    // down to it (20 each: 10 connections each cycle through all of them twice, from places of their own).
    const operations = Object.entries<{
      first: { ms: number; status: number };
      loaded: { requests: number; non2xx: number; p99: number };
    }>(s.operations);
    expect(operations.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        '/account',
        '/exports',
        '/changes',
        '/rounds?announced_since= past every round',
        '/firms/{slug}/portfolio',
        '/statistics/most-active-investors, trial key',
      ]),
    );
    expect(operations.length).toBeGreaterThanOrEqual(30);
    for (const [name, o] of operations) {
      expect(o.first.status, name).toBe(200);
      expect(o.first.ms, name).toBeGreaterThan(0);
      expect([o.loaded.requests, o.loaded.non2xx], name).toEqual([20, 0]);
      expect(o.loaded.p99, name).toBeGreaterThan(0);
    }
    expect(s.mixed.requests).toBe(20 * operations.length);
    // Each statistic as served, on both keys, is the rollup the reference computes from the database's rows.
    expect(Object.keys(s.same_bytes)).toHaveLength(4);
    for (const [name, keys] of Object.entries(s.same_bytes))
      expect(keys, name).toEqual({ enterprise: 'same bytes', trial: 'same bytes' });
  }
  expect(results.startup.default_ms).toBeGreaterThan(0);
  expect(results.contract_suite.exit_code).toBe(0);
  // The dumps section: a dump was built while ordinary requests were answered, all of them 2xx.
  expect(results.dumps.build_ms?.median).toBeGreaterThan(0);
  expect(results.dumps.during.rps.median).toBeGreaterThan(0);
  expect(Number.isFinite(results.dumps.p99_ratio)).toBe(true);
  expect(results.dumps.during.p99.median).toBeGreaterThanOrEqual(0);
  // The --state section: every configuration measured, the large database really large.
  for (const config of ['memory', 'database', 'database_large', 'database_full_sync'])
    expect(results.state.rps[config].median, config).toBeGreaterThan(0);
  expect(results.state.keys.large).toBeGreaterThan(results.state.keys.small * 100);
  // On Redis (one replica, and three behind haproxy) where redis-server and haproxy are installed;
  // said why not where they are not.
  if (results.state.redis_skipped === null)
    for (const config of ['redis', 'redis_three_replicas', 'memory_three_replicas'])
      expect(results.state.rps[config].median, config).toBeGreaterThan(0);
  else expect(results.state.redis_skipped).toMatch(/not installed/);
  // Every target judged: five of throughput (two against prism, three against bare node), seven of scale, start-up,
  // dumps, two of the state database, one of Redis and two of the merge.
  expect(Object.keys(results.targets)).toHaveLength(19);
  // The merge of a split load run: two generated parts merged, and read alone beside it.
  expect(results.merge.parts).toBe(2);
  expect(results.merge.merge.ms.median).toBeGreaterThan(0);
  expect(results.merge.merge.rss_mb.median).toBeGreaterThan(0);
  expect(results.merge.peer.ms.median).toBeGreaterThan(0);
  expect(Object.keys(results.targets).filter((t) => /at every scale/.test(t))).toHaveLength(7);
}, 300_000);
