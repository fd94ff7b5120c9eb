// @module-tag servers
/**
 * The validation proxy on loopback, in front of the mock: clean traffic passes untouched with no
 * violation, and each fault the mock can switch on that one exchange can show is reported in the
 * header, the per-exchange record (the log line) and the report.
 */
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { incidentCaseTitles, runConformance } from '../conformance/suite.ts';
import { createContractValidator } from '@investor-graph/contract';
import { faultNames, newKeyText, type FaultName } from '@investor-graph/engine';
import { createNodeServer, listen, startMock, type RunningMock } from '../node.ts';
import { createValidationProxy, excerptOf, type ExchangeRecord } from './proxy.ts';
import { ProxyReport } from './report.ts';

const validator = await createContractValidator();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

const key = newKeyText('team');
const trialKey = newKeyText('trial');

async function proxied(options: { faults?: FaultName[]; errors?: boolean; upstream?: string } = {}) {
  let mock: RunningMock | undefined;
  if (!options.upstream) {
    mock = await startMock({
      port: 0,
      keys: [
        { plan: 'team', key },
        { plan: 'trial', key: trialKey },
      ],
      ...(options.faults ? { faults: options.faults } : {}),
    });
    closers.push(() => mock!.close());
  }
  const records: ExchangeRecord[] = [];
  const report = new ProxyReport(options.upstream ?? mock!.url);
  const proxy = createValidationProxy({
    upstream: options.upstream ?? mock!.url,
    validator,
    timeoutMs: 5_000,
    ...(options.errors ? { errors: true } : {}),
    onExchange: (r) => (records.push(r), report.add(r)),
  });
  const server = createNodeServer(proxy);
  const url = await listen(server, 0, '127.0.0.1');
  closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))));
  const get = (path: string, k: string | null = key, init: RequestInit = {}) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: { ...(k ? { authorization: `Bearer ${k}` } : {}), ...(init.headers as Record<string, string>) },
    });
  return { url, records, report, get, mock };
}

/** Traffic that touches every rule a single exchange can show. */
async function traffic(
  get: (path: string, k?: string | null, init?: RequestInit) => Promise<Response>,
): Promise<Response[]> {
  const out: Response[] = [];
  const keep = async (r: Promise<Response>) => {
    const response = await r;
    await response.clone().arrayBuffer();
    out.push(response);
    return response;
  };
  const first = await (await keep(get('/api/v1/firms?limit=3'))).clone().json();
  await keep(get(`/api/v1/firms?limit=3&cursor=${encodeURIComponent(first.next_cursor)}`));
  await keep(get('/api/v1/rounds?announced_since=2026-01-01&limit=5'));
  await keep(get('/api/v1/rounds?limit=5', trialKey));
  await keep(get(`/api/v1/changes?since=2026-10-01T00:00:00Z&limit=20`));
  await keep(get('/api/v1/firms/no-such-firm'));
  await keep(get('/api/v1/firms?limit=0'));
  await keep(get('/api/v1/firms', null));
  await keep(get('/api/v1/exports'));
  await keep(get('/api/v1/account'));
  await keep(get('/api/v1/statistics/rounds-by-year'));
  // Three seconds' worth of a team key's rate at once: some meet 429.
  await Promise.all(Array.from({ length: 15 }, () => keep(get('/api/v1/companies?limit=1'))));
  return out;
}

describe('in front of a clean mock', () => {
  test('every exchange passes unchanged, with no violation anywhere', async () => {
    const { records, report, get } = await proxied();
    const responses = await traffic(get);
    expect(responses.some((r) => r.status === 429)).toBe(true);
    // Only the traffic's own bad request (limit=0) is reported, and on the request side.
    const reported = responses
      .map((r) => r.headers.get('sl-violations'))
      .filter((h): h is string => !!h)
      .flatMap((h) => JSON.parse(h) as { location: string[] }[]);
    expect(reported.map((v) => v.location[0])).toEqual(['request']);
    expect(records.flatMap((r) => r.violations.filter((v) => v.side === 'response'))).toEqual([]);
    expect(report.toJSON().by_rule).toEqual({ request: 1 });
    expect(report.responseViolations).toBe(0);
    expect(report.toJUnit()).not.toContain('<failure');
  });

  test('bodies, statuses and headers arrive as the service sent them', async () => {
    const { get, mock } = await proxied();
    const direct = await fetch(`${mock!.url}/api/v1/firms?limit=2`, { headers: { authorization: `Bearer ${key}` } });
    const through = await get('/api/v1/firms?limit=2');
    expect(through.status).toBe(direct.status);
    const [a, b] = [await direct.json(), await through.json()];
    expect(b.data).toEqual(a.data);
    expect(through.headers.get('etag')).toBe(direct.headers.get('etag'));
    expect(through.headers.get('ratelimit-policy')).toBe(direct.headers.get('ratelimit-policy'));
  });

  test('a request the contract rejects is reported on the request side, and passed on', async () => {
    const { records, get } = await proxied();
    const answer = await get('/api/v1/firms?limit=lots');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.headers.get('sl-violations')!)).toEqual([
      expect.objectContaining({ location: ['request'] }),
    ]);
    expect(records.at(-1)!.violations.every((v) => v.side === 'request')).toBe(true);
  });

  test('keys pass through untouched and appear in no record, report or excerpt', async () => {
    const { records, report, get, url } = await proxied();
    await get('/api/v1/firms?limit=1');
    const issued = await fetch(`${url}/api/v1/keys/trial`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com' }),
    });
    const { key: newKey } = await issued.json();
    expect(newKey).toMatch(/^igk_trial_/);
    const everything = JSON.stringify(records) + JSON.stringify(report.toJSON()) + report.toJUnit();
    for (const secret of [key, newKey]) expect(everything).not.toContain(secret);
    expect(excerptOf(JSON.stringify({ key: newKey, key_id: 'key_0' }))).not.toContain(newKey);
  });

  test('an unreachable upstream is a 502 problem, recorded', async () => {
    const { records, get } = await proxied({ upstream: 'http://127.0.0.1:9' });
    const answer = await get('/api/v1/firms');
    expect(answer.status).toBe(502);
    expect((await answer.json()).code).toBe('upstream_unreachable');
    expect(records[0]!.violations[0]!.rule).toBe('upstream');
  });
});

// The mock's whole conformance suite, through the proxy: every case must still pass, and the
// service side of everything it sent must be clean.
const conformanceReport = new ProxyReport('conformance');
runConformance({
  name: 'the conformance suite through the validation proxy',
  skip: {
    'the served contract names this server in servers':
      "the proxy passes the service's own document on, which names the service",
    // The proxy reports a 5xx of the service, and answers a cut connection 502 itself: the mock's incidents
    // are its own to test; what the proxy does with a failing service is in its own tests above.
    ...Object.fromEntries(
      Object.values(incidentCaseTitles).map((title) => [title, 'the proxy reports what an incident makes']),
    ),
  },
  setup: async ({ now }) => {
    const mock = await startMock({ port: 0, now, frozen: true });
    const proxy = createValidationProxy({ upstream: mock.url, validator, onExchange: (r) => conformanceReport.add(r) });
    const server = createNodeServer(proxy);
    const baseUrl = await listen(server, 0, '127.0.0.1');
    return {
      baseUrl,
      fetch: globalThis.fetch,
      close: async () => (server.closeAllConnections(), server.close(), await mock.close()),
    };
  },
});
test('the conformance suite through the proxy met no violation by the service', () => {
  expect(conformanceReport.exchanges).toBeGreaterThan(300);
  expect(
    conformanceReport.kept.flatMap((r) =>
      r.violations
        .filter((v) => v.side === 'response')
        .map((v) => `${r.method} ${r.path} ${r.status}: [${v.rule}] ${v.message}`),
    ),
  ).toEqual([]);
});

/** What reports each fault; faults that need two exchanges to show are the contract tests' work. */
const expected: Partial<Record<FaultName, string>> = {
  'drop-actions': 'actions',
  'drop-retry-after': 'retry-after',
  'leak-email': 'no-people',
  'ignore-limit': 'page-limit',
  'repeat-row': 'cursor-continuity',
  'wrong-status': 'contract',
  'server-error-on-bad-input': 'bad-input-no-5xx',
  'unordered-changes': 'changes-order',
  'ignore-announced-since': 'announced-since',
  'wrong-content-type': 'contract',
  'statistics-down': 'contract',
  'rate-limit-policy-wrong': 'rate-limit-headers',
  'drop-service-url': 'contract',
  'problem-without-code': 'problem',
  'unknown-change-kind': 'contract',
  'slug-with-capitals': 'contract',
  'quota-item-wrong': 'rate-limit-headers',
};
// A 200 where a 304 was due, a description that lacks an operation, a 405 for HEAD, usage that does
// not move, a plan's feature refused and a quota's 402 as a 429 are each a valid answer on its own:
// the contract tests' conditional, openapi, http-conventions, envelope, plan-features and
// trial-runs-out properties catch them; so are the faults of this kind added with the sentence-level
// rule matrix (a HEAD let through, a tag compared strictly, a free call counted, a query read before
// the key, a cursor's filters ignored, a limit refused, timestamps and feed rows that disagree with
// the record, an expired trial's status, a manifest's sha256). echo-key shows in one exchange, but
// the traffic's /account call comes past the team key's burst and meets a 429 (the key-not-echoed
// rule's own case is in @investor-graph/contract's rules.test.ts).
const unseen: FaultName[] = [
  'accept-bad-cursor',
  'bounds-ignored',
  'unstable-updated-at',
  'ignore-if-none-match',
  'stale-openapi',
  'refuse-head',
  'frozen-usage',
  'refuse-exports',
  'quota-as-429',
  'head-without-auth',
  'strict-if-none-match',
  'account-counted',
  'query-before-auth',
  'cursor-ignores-filters',
  'refuse-over-cap',
  'first-seen-follows-update',
  'stale-include-rows',
  'expired-trial-as-401',
  'manifest-wrong-sha',
  'echo-key',
  // Headers the contract leaves optional, figures that are valid on their own, and answers this
  // traffic does not ask for (an investor edge, a DELETE, a trial's feed, a revoked key, a long URL).
  'unknown-evidence-tier',
  'cors-closed',
  'shared-cache',
  'drop-request-id',
  'drop-www-authenticate',
  'delete-not-405',
  'plan-mislabelled',
  'as-of-goes-back',
  'trial-feed-open',
  'endless-cursor',
  'statistics-off-by-one',
  'unknown-statistic-400',
  'trial-lives-long',
  'long-url-as-400',
  'default-limit-10',
  'revoked-as-403',
  'quota-actions-trimmed',
  'unsorted-pages',
  'ignore-unknown-parameter',
  'first-of-repeated-parameter',
  'lenient-include',
  'trial-statuses-as-400',
  'head-counted-twice',
  'errors-counted',
  'feed-charge-misreported',
  'since-z-only',
  'trial-needs-card',
  'trial-key-cacheable',
  'short-trial-keys',
  'sources-without-url',
  'paid-feed-refused',
  'fractional-amounts',
  'fund-id-uppercase',
  'list-member-missing',
  'bad-dump-date-404',
  'bad-request-without-errors',
  'unknown-statistic-without-allowed',
  'weak-dump-etag',
  'cached-304',
  'download-counted-twice',
  'links-missing',
  'servers-elsewhere',
  'trial-call-unlimited',
  'insufficient-balance-charged',
  'lag-ignored',
  'route-moved',
  // A period that is a valid date-time, a hundred refused calls, answers before the proxy's (it
  // reads no request the server refused unread), a moved clock, an old key, a walk to a record
  // gone, a revoked key called twice, a trial key a month past its end.
  'periods-from-the-15th',
  'failed-auth-unlimited',
  'bare-limit-answers',
  'limiter-on-clock',
  'prepaid-rows-expire',
  'unpublished-still-listed',
  'revocation-forgotten',
  'ended-trials-kept',
  // Derived fields, a round lag's nested lists and walks, the feed and counters against other calls.
  'portfolio-counts-edges',
  'lagged-totals',
  'nested-lag-ignored',
  'lag-skips-edges',
  'trial-codes-swapped',
  'payg-minimum-ignored',
  'last-page-cursor',
  'cursor-unchanged',
  'feed-skips-company-updates',
  'stage-median-as-mean',
  'quota-left-stuck',
];

describe('in front of a broken mock', () => {
  test('every fault is either reported here or needs more than one exchange to show', () => {
    expect([...Object.keys(expected), ...unseen].sort()).toEqual([...faultNames].sort());
  });

  for (const [fault, rule] of Object.entries(expected) as [FaultName, string][]) {
    test(`${fault} is reported as ${rule} in the header, the log record and the report`, async () => {
      const { records, report, get } = await proxied({ faults: [fault] });
      const responses = await traffic(get);
      const headers = responses
        .map((r) => r.headers.get('sl-violations'))
        .filter((h): h is string => !!h)
        .flatMap((h) => JSON.parse(h) as { code: string }[]);
      expect(headers.map((v) => v.code)).toContain(rule);
      expect(records.flatMap((r) => r.violations.map((v) => v.rule))).toContain(rule);
      expect(report.toJSON().by_rule[rule]).toBeGreaterThan(0);
      expect(report.toJUnit()).toMatch(new RegExp(`rule ${rule}:[^>]*>\\s*<failure`));
    });
  }

  test('with --errors a broken answer becomes a 502 problem naming the rule', async () => {
    const { get } = await proxied({ faults: ['leak-email'], errors: true });
    const answer = await get('/api/v1/firms?limit=2');
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    const body = await answer.json();
    expect(body.code).toBe('contract_violation');
    expect(body.violations.map((v: { rule: string }) => v.rule)).toContain('no-people');
    // A clean answer still passes.
    expect((await get('/api/v1/firms/no-such-firm')).status).toBe(404);
  });
});

/** An upstream that answers every request with the raw bytes `answer` gives, then does what `after` says. */
async function rawUpstream(answer: (socket: Socket) => void): Promise<string> {
  const server = createTcpServer((socket) => socket.once('data', () => answer(socket)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('in front of a service whose answers break off', () => {
  const head = (extra: string) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}\r\n`;
  const cases: [string, (socket: Socket) => void, number, string][] = [
    [
      'a body cut short of its Content-Length',
      (s) => s.end(`${head('content-length: 100\r\n')}{"data":[`),
      502,
      'upstream_incomplete',
    ],
    [
      'a gzip body that is not gzip',
      (s) => s.end(`${head('content-encoding: gzip\r\ncontent-length: 12\r\n')}not gzip at all`),
      502,
      'upstream_incomplete',
    ],
    [
      'a connection reset mid-body',
      (s) => {
        s.write(`${head('transfer-encoding: chunked\r\n')}5\r\n{"dat\r\n`);
        setTimeout(() => s.resetAndDestroy(), 50);
      },
      502,
      'upstream_incomplete',
    ],
    [
      'a body that stalls past the timeout',
      (s) => s.write(`${head('content-length: 100\r\n')}{"data":[`),
      504,
      'upstream_timeout',
    ],
  ];
  for (const [name, answer, status, code] of cases) {
    test(
      `${name} is a ${status} ${code} to the client and ` + `a recorded violation, never a pass (regression)`,
      async () => {
        const upstream = await rawUpstream(answer);
        const records: ExchangeRecord[] = [];
        const report = new ProxyReport(upstream);
        const proxy = createValidationProxy({
          upstream,
          validator,
          timeoutMs: 500,
          onExchange: (r) => (records.push(r), report.add(r)),
        });
        const response = await proxy.fetch(
          new Request('http://proxy/api/v1/firms?limit=1', { headers: { authorization: `Bearer ${key}` } }),
        );
        expect(response.status).toBe(status);
        expect((await response.json()).code).toBe(code);
        expect(records).toHaveLength(1);
        expect(records[0]!.violations.map((v) => `${v.side}:${v.rule}`)).toEqual(['response:upstream']);
        expect(report.responseViolations, 'the proxy would exit non-zero').toBeGreaterThan(0);
      },
    );
  }

  test(
    'a whole answer whose JSON is truncated is passed ' + 'on with its violation in the header and the record',
    async () => {
      const upstream = await rawUpstream((s) => s.end(`${head('content-length: 9\r\n')}{"data":[`));
      const records: ExchangeRecord[] = [];
      const proxy = createValidationProxy({ upstream, validator, onExchange: (r) => records.push(r) });
      const response = await proxy.fetch(
        new Request('http://proxy/api/v1/firms?limit=1', { headers: { authorization: `Bearer ${key}` } }),
      );
      expect(response.headers.has('sl-violations')).toBe(true);
      expect(records[0]!.violations.filter((v) => v.side === 'response').length).toBeGreaterThan(0);
    },
  );

  test(
    'a body over the bound streams on whole, unchecked and ' + 'said to be (allowed by the user), without being held',
    async () => {
      const body = JSON.stringify({ data: Array.from({ length: 2_000 }, (_, i) => ({ i })) });
      const upstream = await rawUpstream((s) =>
        s.end(`${head(`content-length: ${Buffer.byteLength(body)}\r\n`)}${body}`),
      );
      const records: ExchangeRecord[] = [];
      const proxy = createValidationProxy({
        upstream,
        validator,
        maxValidatedBytes: 1_024,
        allowUnvalidated: true,
        onExchange: (r) => records.push(r),
      });
      const response = await proxy.fetch(
        new Request('http://proxy/api/v1/firms?limit=1', { headers: { authorization: `Bearer ${key}` } }),
      );
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(body);
      expect(records[0]!.notValidated).toBe('the body is over 1024 bytes: passed on unchecked');
      expect(records[0]!.violations).toEqual([]);
    },
  );
});
