// @module-tag servers
/**
 * The mock's metrics and probes on a real server, scraped over HTTP and read by a parser that is
 * not ours (scrape.test-support.ts): the counts equal what the test did, labels stay bounded, and
 * the probes answer a caller the control plane's guard refuses (a kubelet's Host).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { request as httpRequest } from 'node:http';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock } from '../node.ts';
import { parseScrape, sampleValue } from './scrape.test-support.ts';

const team = newKeyText('team');
const payg = newKeyText('payg');
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    metricsPort: 0,
    metricsHost: '127.0.0.1',
    keys: [
      { plan: 'team', key: team },
      { plan: 'payg', key: payg, prepaidRows: 0 },
    ],
  });
});
afterAll(() => mock.close());

const call = (path: string, key: string) =>
  fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
const scrape = async () => {
  const response = await fetch(`${mock.url}/__control/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseScrape(await response.text());
};

/** A GET with a Host of our choosing, as a kubelet sends it (the pod's address), which fetch would not let us set. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('N calls of listFirms with a team key are N calls under those labels, their rows in rows_served', async () => {
  let rows = 0;
  for (let i = 0; i < 3; i++) {
    const response = await call('/api/v1/firms?limit=2', team);
    expect(response.status).toBe(200);
    rows += ((await response.json()) as { data: unknown[] }).data.length;
  }
  const families = await scrape();
  const labels = { operation: 'listFirms', method: 'GET', status_class: '2xx', plan: 'team', problem: 'none' };
  expect(sampleValue(families, 'investor_graph_mock_calls_total', labels)).toBe(3);
  expect(sampleValue(families, 'investor_graph_mock_rows_served_total', { operation: 'listFirms', plan: 'team' })).toBe(
    rows,
  );
  // The only operation called yet: the parser keeps a histogram's buckets, not its labels.
  const histogram = families.get('investor_graph_mock_call_duration_seconds')!;
  expect(histogram.type).toBe('HISTOGRAM');
  expect(histogram.metrics.map((m) => m.buckets?.['+Inf'])).toEqual(['3']);
});

test('429s and 402s are counted by plan, as many as the client received', async () => {
  // A team key holds 5 calls a second: 12 at once meet the rate.
  const statuses = await Promise.all(Array.from({ length: 12 }, () => call('/api/v1/firms?limit=1', team))).then((r) =>
    r.map((x) => x.status),
  );
  const limited = statuses.filter((s) => s === 429).length;
  expect(limited).toBeGreaterThan(0);
  const refused = await call('/api/v1/firms?limit=1', payg);
  expect(refused.status).toBe(402);
  const families = await scrape();
  expect(sampleValue(families, 'investor_graph_mock_refusals_total', { plan: 'team', status: '429' })).toBe(limited);
  expect(sampleValue(families, 'investor_graph_mock_refusals_total', { plan: 'payg', status: '402' })).toBe(1);
  const problem = ((await refused.json()) as { code: string }).code;
  expect(sampleValue(families, 'investor_graph_mock_calls_total', { plan: 'payg', problem })).toBe(1);
});

test('the gauges read the engine: keys by plan, the journal, incidents, the state store, event-loop lag', async () => {
  const started = await fetch(`${mock.url}/__control/incidents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'outage', match: { operation: 'getFirm' }, calls: 5 }),
  });
  expect(started.status).toBe(201);
  const families = await scrape();
  expect(sampleValue(families, 'investor_graph_mock_keys', { plan: 'team' })).toBe(1);
  expect(sampleValue(families, 'investor_graph_mock_incidents_active')).toBe(1);
  const journal = (await (await fetch(`${mock.url}/__control/journal?limit=1000`)).json()) as { entries: unknown[] };
  expect(sampleValue(families, 'investor_graph_mock_journal_entries')).toBe(journal.entries.length);
  expect(sampleValue(families, 'investor_graph_mock_state_store_up', { store: 'memory' })).toBe(1);
  expect(families.has('nodejs_eventloop_lag_seconds')).toBe(true);
  await fetch(`${mock.url}/__control/incidents`, { method: 'DELETE' });
});

test('no label value is a key, a path or a request id: every one is from a bounded set', async () => {
  await call('/api/v1/firms/frm_does_not_exist?limit=1', team);
  await call(`/api/v1/firms?cursor=${team}`, team);
  const text = await (await fetch(`${mock.url}/__control/metrics`)).text();
  expect(text).not.toContain(team.slice(-8));
  expect(text).not.toContain('frm_does_not_exist');
  expect(text).not.toMatch(/req_[A-Za-z0-9]{8}/);
  const families = parseScrape(text);
  const operations = new Set(families.get('investor_graph_mock_calls_total')!.metrics.map((m) => m.labels!.operation));
  for (const op of operations) expect(op).toMatch(/^(none|[a-z][A-Za-z]+)$/);
});

test('a scrape with a bad value, a sample cut short or a broken label fails the reading', () => {
  expect(() => sampleValue(parseScrape('# TYPE a counter\na{x="1"} not_a_number\n'), 'a')).toThrow(/not a number/);
  expect(() => sampleValue(parseScrape('# TYPE a counter\na{x="1"}\n'), 'a')).toThrow(/not a number/);
  expect(() => parseScrape('a{x=1} 3\n')).toThrow(/invalid line/);
  // And a check on a count that is not what the test did fails.
  const families = parseScrape('# TYPE investor_graph_mock_calls_total counter\ninvestor_graph_mock_calls_total 2\n');
  expect(() => expect(sampleValue(families, 'investor_graph_mock_calls_total')).toBe(3)).toThrow();
});

test('/metrics is guarded as the control plane; healthz and readyz are not, for a kubelet naming the pod', async () => {
  const foreignHost = '10.1.2.3:4010';
  expect((await getWithHost(`${mock.url}/__control/metrics`, foreignHost)).status).toBe(403);
  const alive = await getWithHost(`${mock.url}/__control/healthz`, foreignHost);
  expect(alive).toEqual({ status: 200, body: '{"status":"alive"}' });
  const ready = await getWithHost(`${mock.url}/__control/readyz`, foreignHost);
  expect(ready).toEqual({ status: 200, body: '{"status":"ready"}' });
  // A probe changes nothing: a POST is a control call like any other, guarded.
  const posted = await fetch(`${mock.url}/__control/readyz`, {
    method: 'POST',
    headers: { origin: 'http://evil.test' },
  });
  expect(posted.status).toBe(403);
});

test('--metrics-port serves the same metrics on a port of its own, and nothing of the control API', async () => {
  const own = parseScrape(await (await fetch(`${mock.metricsUrl}/metrics`)).text());
  expect(own.has('investor_graph_mock_calls_total')).toBe(true);
  expect((await fetch(`${mock.metricsUrl}/__control/state`)).status).toBe(404);
  expect((await fetch(`${mock.metricsUrl}/readyz`)).status).toBe(200);
});
