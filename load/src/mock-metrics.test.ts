import { expect, test } from 'vitest';
import { ClientTally, countersOf, countsBetween, metricsUrlProblem, mockWindowOf, shownUrl } from './mock-metrics.ts';
import { mockSection } from './report-mock.ts';

/** A scrape as prom-client writes the mock's counters (packages/mock/src/operate/metrics.ts). */
function scrapeText(calls: [string, string, string, number][], refused: [string, string, number][] = []): string {
  const line = (name: string, labels: Record<string, string>, value: number) =>
    `${name}{${Object.entries(labels)
      .map(([k, v]) => `${k}="${v}"`)
      .join(',')}} ${value}`;
  return [
    '# HELP investor_graph_mock_calls_total Calls of the data API answered.',
    '# TYPE investor_graph_mock_calls_total counter',
    ...calls.map(([operation, status_class, plan, n]) =>
      line(
        'investor_graph_mock_calls_total',
        { operation, method: 'GET', status_class, plan, problem: status_class === '4xx' ? 'rate_limited' : 'none' },
        n,
      ),
    ),
    '# TYPE investor_graph_mock_refusals_total counter',
    ...refused.map(([plan, status, n]) => line('investor_graph_mock_refusals_total', { plan, status }, n)),
    '# TYPE investor_graph_mock_rows_served_total counter',
    ...calls
      .filter(([, cls]) => cls === '2xx')
      .map(([operation, , plan, n]) => line('investor_graph_mock_rows_served_total', { operation, plan }, n * 10)),
    '# TYPE investor_graph_mock_rows_charged_total counter',
    '# TYPE nodejs_eventloop_lag_seconds gauge',
    'nodejs_eventloop_lag_seconds 0.002',
    '',
  ].join('\n');
}
const counters = (text: string) => {
  const read = countersOf(text);
  if (typeof read === 'string') throw new Error(read);
  return read;
};

test("the window's counts are each counter after less before, a label set first seen after counted whole", () => {
  const before = counters(scrapeText([['listFirms', '2xx', 'team', 5]]));
  const after = counters(
    scrapeText(
      [
        ['listFirms', '2xx', 'team', 12],
        ['listFirms', '4xx', 'team', 3],
        ['getAccount', '2xx', 'team', 1],
      ],
      [['team', '429', 3]],
    ),
  );
  expect(countsBetween(before, after)).toEqual({
    calls: [
      { operation: 'getAccount', status_class: '2xx', count: 1 },
      { operation: 'listFirms', status_class: '2xx', count: 7 },
      { operation: 'listFirms', status_class: '4xx', count: 3 },
    ],
    refusals: [{ plan: 'team', status: '429', count: 3 }],
    rows: [
      { plan: 'team', operation: 'getAccount', served: 10, charged: 0 },
      { plan: 'team', operation: 'listFirms', served: 70, charged: 0 },
    ],
    totals: { calls: 11, rows_served: 80, rows_charged: 0, refused_429: 3, refused_402: 0 },
  });
});

test('a counter lower after than before (the mock restarted) gives no counts, and says why', () => {
  const before = counters(scrapeText([['listFirms', '2xx', 'team', 50]]));
  const after = counters(scrapeText([['listFirms', '2xx', 'team', 4]]));
  expect(countsBetween(before, after)).toMatch(/restarted during the run/);
  const gone = counters(scrapeText([['getAccount', '2xx', 'team', 60]]));
  expect(countsBetween(before, gone)).toMatch(/restarted during the run/);
});

test("a scrape that is not the mock's metrics is refused, saying why", () => {
  expect(countersOf('nodejs_eventloop_lag_seconds 0.002\n')).toMatch(/no investor_graph_mock_calls_total/);
  expect(
    countersOf('# TYPE investor_graph_mock_calls_total counter\ninvestor_graph_mock_calls_total{plan="x"} many\n'),
  ).toMatch(/not a number/);
});

test('the URL shown has no user, password, query or fragment; a URL that is not http(s) is a usage error', () => {
  expect(shownUrl('http://me:secret@127.0.0.1:9464/metrics?token=abc#x')).toBe('http://127.0.0.1:9464/metrics');
  expect(metricsUrlProblem('127.0.0.1:4010/__control/metrics')).toMatch(/must be an http\(s\) URL|not a URL/);
  expect(metricsUrlProblem('localhost')).toMatch(/not a URL/);
  expect(metricsUrlProblem('http://127.0.0.1:4010/__control/metrics')).toBeNull();
});

test("k6's side counts the data API's requests by status class and leaves its control calls apart", () => {
  const tally = new ClientTally();
  const req = (url: string, status: string) => ({ metric: 'http_reqs', time: 0, value: 1, tags: { url, status } });
  tally.add(req('http://127.0.0.1:4010/__control/keys', '201'));
  tally.add(req('http://127.0.0.1:4010/api/v1/firms?limit=1', '200'));
  tally.add(req('http://127.0.0.1:4010/api/v1/firms?limit=1', '429'));
  tally.add(req('http://127.0.0.1:4010/api/v1/firms?__control/x', '0'));
  tally.add({ metric: 'http_req_duration', time: 0, value: 3, tags: { url: 'http://h/api/v1/firms', status: '200' } });
  expect(tally.result()).toEqual({
    requests: 3,
    control: 1,
    by_status_class: { '2xx': 1, '4xx': 1, '0xx': 1 },
    received_429: 1,
  });
});

test("an earlier run's window left in the folder is not this run's: its window does not hold the samples", () => {
  const text = JSON.stringify({ source: 'http://h/metrics', from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:01:00Z' });
  expect(mockWindowOf(text, Date.parse('2026-01-01T00:00:05Z'), Date.parse('2026-01-01T00:00:50Z'))).toBeDefined();
  expect(mockWindowOf(text, Date.parse('2026-01-02T00:00:05Z'), Date.parse('2026-01-02T00:00:50Z'))).toBeUndefined();
  expect(mockWindowOf('{', 0, 1)).toBeUndefined();
  expect(mockWindowOf(undefined, 0, 1)).toBeUndefined();
});

test("the report's section escapes what the server sent and says when there are no counts", () => {
  const window = { source: 'http://h/metrics', from: 'a', to: 'b' };
  const failed = String(mockSection({ ...window, error: 'cannot scrape http://h/metrics (ECONNREFUSED)' }));
  expect(failed).toContain('No server-side counts:</strong> cannot scrape http://h/metrics (ECONNREFUSED)');
  const server = countsBetween(new Map(), counters(scrapeText([['<script>', '2xx', 'team', 1]])));
  if (typeof server === 'string') throw new Error(server);
  const shown = String(mockSection({ ...window, server }));
  expect(shown).not.toContain('<script>');
  expect(shown).toContain('&lt;script&gt;');
});
