// @module-tag servers
// The server's side of a k6 run (investor-graph-load run --mock-metrics), with real k6 against a real
// mock: the counts the report gives for the run's window are what the mock's journal holds for that
// window and what /account says each key used, and k6's own request count is the mock's call count.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canRun, freePort } from '@investor-graph/cli';
import { holdsAnyKey } from '@investor-graph/cli/redact';
import { mockJournal, startMock, type RunningMock } from '@investor-graph/mock/node';
import { k6Binary, runCli as cli } from './src/k6.test-support.ts';
import type { MockWindow } from './src/mock-metrics.ts';

const haveGo = canRun('go', ['version']);
// Pay as you go: the one plan that charges rows, so rows charged are more than zero.
const plan = 'payg';

/** Counts added up by a key of each entry, the keys in order, zeros left out. */
function tally<T>(items: T[], key: (item: T) => string, value: (item: T) => number = () => 1): [string, number][] {
  const out = new Map<string, number>();
  for (const item of items) out.set(key(item), (out.get(key(item)) ?? 0) + value(item));
  return [...out].filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : 1));
}

describe.skipIf(!haveGo)(
  "the mock's own counts of a k6 run (k6 built from the Go module proxy; skipped without Go)",
  () => {
    let k6: string;
    let mock: RunningMock;

    beforeAll(async () => {
      k6 = k6Binary();
      mock = await startMock({ port: 0, host: '127.0.0.1', journal: 10_000 });
    });
    afterAll(() => mock?.close());

    const makeKey = async (): Promise<string> => {
      const res = await fetch(`${mock.url}/__control/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plan, prepaid_rows: 10_000_000 }),
      });
      return ((await res.json()) as { key: string }).key;
    };
    /** The key's account (`data`; the envelope's `usage` is of this free call). */
    const account = async (key: string) => {
      const res = await fetch(`${mock.url}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
      type Account = { usage: { calls_used: number; balance_rows: number }; balance: { prepaid_rows: number } };
      return ((await res.json()) as { data: Account }).data;
    };
    const run = (results: string, metrics: string, env: Record<string, string>, k6Args: string[]) =>
      cli(['run', plan, '--results', results, '--k6', k6, '--mock-metrics', metrics, '--', ...k6Args], {
        BASE_URL: mock.url,
        ...env,
      });

    test(`the report's counts for the run's window equal the journal's for that window and each key's /account usage, \
and k6's request count is the mock's call count`, async () => {
      const keys = { API_KEY: await makeKey(), API_KEY_BURST: await makeKey(), API_KEY_WALK: await makeKey() };
      // Calls before the window, of the same plan and operation: a counter not diffed, or a window
      // opened too early, counts them too.
      const other = await makeKey();
      for (let i = 0; i < 4; i++)
        await fetch(`${mock.url}/api/v1/firms?limit=3`, { headers: { authorization: `Bearer ${other}` } });
      await fetch(`${mock.url}/api/v1/firms`, { headers: { authorization: 'Bearer igk_payg_nosuchkey' } });
      const before = await Promise.all(Object.values(keys).map(account));

      const results = mkdtempSync(join(tmpdir(), 'ig-mock-metrics-'));
      const ran = await run(results, `${mock.url}/__control/metrics`, keys, ['-e', 'DURATION=2s']);
      // The verdict is k6's (a starved machine may miss a latency threshold): the counts are what is held here.
      expect([0, 1], ran.out).toContain(ran.code);
      const window = JSON.parse(readFileSync(join(results, `${plan}.mock.json`), 'utf8')) as MockWindow;
      expect(window.error, ran.out).toBeUndefined();
      const server = window.server!;
      const [from, to] = [Date.parse(window.from), Date.parse(window.to)];
      const after = await Promise.all(Object.values(keys).map(account));
      const journal = (await mockJournal(mock.url).journal()).filter(
        (e) => from <= Date.parse(e.at) && Date.parse(e.at) <= to,
      );

      // The journal's calls in the window, by operation and status class, plan and status, plan and operation.
      const classOf = (status: number) => `${Math.floor(status / 100)}xx`;
      expect(server.calls.map((c) => [`${c.operation} ${c.status_class}`, c.count])).toEqual(
        tally(journal, (e) => `${e.operation ?? 'none'} ${classOf(e.status)}`),
      );
      expect(server.refusals.map((r) => [`${r.plan} ${r.status}`, r.count])).toEqual(
        tally(
          journal.filter((e) => e.status === 429 || e.status === 402),
          (e) => `${e.plan ?? 'none'} ${e.status}`,
        ),
      );
      const rowsKey = (e: (typeof journal)[number]) => `${e.plan ?? 'none'} ${e.operation ?? 'none'}`;
      expect(server.rows.filter((r) => r.served).map((r) => [`${r.plan} ${r.operation}`, r.served])).toEqual(
        tally(journal, rowsKey, (e) => e.rows_served),
      );
      expect(server.rows.filter((r) => r.charged).map((r) => [`${r.plan} ${r.operation}`, r.charged])).toEqual(
        tally(journal, rowsKey, (e) => e.rows_charged),
      );
      expect(server.totals.calls).toBe(journal.length);
      expect(server.totals.refused_429, 'the over-rate key met 429s').toBeGreaterThan(0);
      expect(server.totals.rows_charged).toBeGreaterThan(0);

      // Each key's /account: the rows its prepaid balance lost (those charged), the calls it used.
      const spent = (pick: (a: (typeof after)[number]) => number) =>
        after.reduce((sum, a, i) => sum + pick(a) - pick(before[i]!), 0);
      expect(-spent((a) => a.usage.balance_rows)).toBe(server.totals.rows_charged);
      expect(-spent((a) => a.balance.prepaid_rows)).toBe(server.totals.rows_charged);
      expect(spent((a) => a.usage.calls_used)).toBe(journal.reduce((sum, e) => sum + e.calls_counted, 0));

      // k6's own side: every request it sent to the data API, and each 429 it received.
      const summary = JSON.parse(readFileSync(join(results, `${plan}.summary.json`), 'utf8'));
      const client = window.client!;
      expect(client.requests + client.control).toBe(summary.metrics.http_reqs.values.count);
      expect(client.requests).toBe(server.totals.calls);
      expect(client.received_429).toBe(server.totals.refused_429);
      expect(client.by_status_class).toEqual(Object.fromEntries(tally(journal, (e) => classOf(e.status))));

      const report = readFileSync(join(results, `${plan}.report.html`), 'utf8');
      expect(report).toContain("The mock's own counts");
      expect(report).toContain(`<td>calls of the data API</td><td>${client.requests.toLocaleString('en-US')}</td>`);
      expect(ran.out).toContain(`the mock's own counts for the run's window: ${server.totals.calls} calls`);
      const known = [...Object.values(keys), other];
      for (const file of [`${plan}.report.html`, `${plan}.mock.json`])
        expect(holdsAnyKey(readFileSync(join(results, file), 'utf8'), known), file).toBe(false);
    });

    test("a scrape that fails is said in the report and on stderr, and the run's exit code stays k6's", async () => {
      const results = mkdtempSync(join(tmpdir(), 'ig-mock-metrics-'));
      const nothing = `http://127.0.0.1:${await freePort()}/metrics`;
      const ran = await run(results, nothing, {}, ['-e', 'DURATION=1s', '-e', 'SCENARIOS=at_rate']);
      expect([0, 1], ran.out).toContain(ran.code);
      const window = JSON.parse(readFileSync(join(results, `${plan}.mock.json`), 'utf8')) as MockWindow;
      expect(window.server).toBeUndefined();
      expect(window.error).toMatch(
        /^the scrape before the run failed: cannot scrape http:\/\/127\.0\.0\.1:\d+\/metrics \(ECONNREFUSED\)$/,
      );
      expect(ran.out).toContain(`[investor-graph-load run] no counts of the mock's: ${window.error}`);
      const report = readFileSync(join(results, `${plan}.report.html`), 'utf8');
      expect(report).toContain('No server-side counts:');
      expect(report).toContain('ECONNREFUSED');
    });
  },
);
