import { expect, test } from 'vitest';
import { UsageJudge, WalkJudge, type Judged } from './judges.ts';

/** A call of the run's key, alone, answered as `status` with `body` and a RateLimit quota item of `left` calls. */
function call(path: string, status: number, body: unknown, left?: number, more: Partial<Judged> = {}): Judged {
  const headers = new Headers(left === undefined ? {} : { ratelimit: `"default";r=4;t=1, "quota";r=${left};t=86400` });
  const operationId = path.startsWith('/api/v1/account')
    ? 'getAccount'
    : path.startsWith('/api/v1/changes')
      ? 'listChanges'
      : 'listFirms';
  return {
    method: 'GET',
    url: new URL(path, 'http://service.invalid'),
    operationId,
    own: true,
    overlapped: false,
    status,
    headers,
    body,
    ...more,
  };
}
const page = (used: number, extra: object = {}) => ({
  data: [{ slug: 'a' }],
  next_cursor: null,
  as_of: 'x',
  usage: { calls_used: used, calls_limit: 100, period_start: '2026-11-01T00:00:00Z', ...extra },
});

test('usage-counters: calls_used and the quota move by one a call counted, an error and the account by none', () => {
  const judge = new UsageJudge();
  const held = [
    call('/api/v1/firms', 200, page(1), 99),
    call('/api/v1/firms/nope', 404, { code: 'not_found' }),
    call('/api/v1/firms', 304, '', 98),
    call('/api/v1/account', 200, {
      data: { usage: { calls_used: 2, calls_limit: 100, period_start: '2026-11-01T00:00:00Z' } },
    }),
    call('/api/v1/firms', 200, page(3), 97),
    // A HEAD of the account, its quota shown: counted as its GET, so not at all (no operation of its own).
    call('/api/v1/account', 304, '', 97, { method: 'HEAD', operationId: undefined }),
    call('/api/v1/account', 200, '', 97, { method: 'HEAD', operationId: undefined }),
    call('/api/v1/firms', 200, page(4), 96),
  ].flatMap((c) => judge.observe(c));
  expect(held).toEqual([]);
  // The same calls from a service whose counters stand still.
  const frozen = new UsageJudge();
  const found = [call('/api/v1/firms', 200, page(1), 99), call('/api/v1/firms', 200, page(1), 99)].flatMap((c) =>
    frozen.observe(c),
  );
  expect(found).toEqual([
    'calls_used 1, where 1 and the 1 call counted since make 2',
    "the RateLimit quota's 99 calls left, where 99 less the 1 counted since make 98",
  ]);
});

test("usage-counters: a pay-as-you-go balance falls by each call's charge; overlaps or another key reset it", () => {
  const payg = (balance: number, charged: number) => ({
    data: [],
    next_cursor: null,
    usage: { calls_used: 0, calls_limit: null, rows_charged: charged, balance_rows: balance },
  });
  const judge = new UsageJudge();
  expect(
    [call('/api/v1/firms', 200, payg(990, 10)), call('/api/v1/firms', 200, payg(979, 11))].flatMap((c) =>
      judge.observe(c),
    ),
  ).toEqual([]);
  expect(judge.observe(call('/api/v1/firms', 200, payg(979, 10)))).toEqual([
    'balance_rows 979, where 979 less the 10 rows charged since make 969',
  ]);
  // Overlapping calls: nothing is judged, and the next call starts the figures afresh.
  expect(judge.observe(call('/api/v1/firms', 200, payg(500, 10), undefined, { overlapped: true }))).toEqual([]);
  expect(judge.observe(call('/api/v1/firms', 200, payg(400, 10)))).toEqual([]);
  expect(judge.observe(call('/api/v1/firms', 200, payg(10, 10), undefined, { own: false }))).toEqual([]);
});

test('walk-order: pages in ascending key order, each after the last; no cursor handed back; none to no rows', () => {
  const judge = new WalkJudge();
  const firms = (cursor: string | null, slugs: string[], next: string | null) =>
    call(`/api/v1/firms?limit=2${cursor ? `&cursor=${cursor}` : ''}`, 200, {
      data: slugs.map((slug) => ({ slug })),
      next_cursor: next,
      as_of: 't',
    });
  expect(
    [firms(null, ['a', 'b'], 'c1'), firms('c1', ['c', 'd'], 'c2'), firms('c2', ['e'], null)].flatMap((c) =>
      judge.observe(c),
    ),
  ).toEqual([]);
  expect(judge.observe(firms('c2', ['e'], 'c2'))).toEqual([
    'the page hands back the cursor it was asked with: a walk never ends',
  ]);
  expect(judge.observe(firms(null, ['b', 'a'], null))).toEqual(['row a after b: not in ascending order of its key']);
  const last = new WalkJudge();
  expect([firms(null, ['a', 'b'], 'c1'), firms('c1', [], null)].flatMap((c) => last.observe(c))).toEqual([
    'a page reached by the cursor the page before handed out holds no row: that page was the ' +
      'last, and its next_cursor should have been null',
  ]);
  const back = new WalkJudge();
  expect([firms(null, ['c', 'd'], 'c1'), firms('c1', ['a', 'b'], null)].flatMap((c) => back.observe(c))).toEqual([
    'the page starts at a, not after d, the last row of the page before',
  ]);
  // The feed is in order of its sequence numbers.
  const feed = new WalkJudge();
  const changes = (cursor: string | null, seq: number[], next: string | null) =>
    call(`/api/v1/changes?since=x${cursor ? `&cursor=${cursor}` : ''}`, 200, {
      data: seq.map((sequence) => ({ sequence })),
      next_cursor: next,
      as_of: 't',
    });
  expect([changes(null, [1, 2], 's1'), changes('s1', [3], null)].flatMap((c) => feed.observe(c))).toEqual([]);
});
