/** HTTP caching as DECISIONS.md writes it: stable records, and conditional requests. */
import fc from 'fast-check';
import { operationById } from '@investor-graph/contract';
import { type Answer } from '../client/client.ts';
import { valueShown } from '../shown/failure-text.ts';
import { planRule } from '../core/context.ts';
import {
  type Property,
  DAY,
  assert,
  expectStatus,
  control,
  identity,
  identityShown,
  content,
  isoDay,
  requestFor,
  readOperations,
} from './support.ts';

export const stability: Property = {
  id: 'stability',
  title: 'two reads with no change between them agree, and updated_at moves only with content',
  spec: ['1. What the service does'],
  assumed: [],
  skip: () => null,
  cost: (ctx) => ({ calls: 2, rows: 2 * ctx.client.rowCost(10) }),
  arbitrary: () =>
    fc.record({
      op: fc.constantFrom(...readOperations),
      pick: fc.nat(),
      limit: fc.integer({ min: 1, max: 10 }),
      rebuild: fc.boolean(),
    }),
  // A record, a page of rounds (rebuilt hourly) and a page of firms; on the mock the first two
  // across an hour of rebuilds.
  examples: () => [
    { op: operationById('getCompany'), pick: 0, limit: 1, rebuild: true },
    { op: operationById('listRounds'), pick: 0, limit: 10, rebuild: true },
    { op: operationById('listFirms'), pick: 1, limit: 5, rebuild: false },
  ],
  async check(ctx, { op, pick, limit, rebuild }) {
    const path = requestFor(ctx, op, pick, limit, 0);
    if (!path) return;
    const rows = op.query.includes('limit') ? limit : 1;
    // The first read may be one the run holds: any earlier answer is a read to compare with.
    const a = await ctx.client.read(path, { rows });
    if (a.status !== 200) return;
    // On the mock, half the cases let an hour of rebuilds happen between the reads.
    if (rebuild && ctx.control) {
      await control(ctx, '/clock/advance', 'POST', { duration: 'PT1H' });
    }
    const b = await ctx.client.call(path, { rows });
    if (b.status !== 200) return;
    const before = new Map(
      (Array.isArray(a.body.data) ? a.body.data : [a.body.data]).map((r: any) => [identity(r), r]),
    );
    const after: any[] = Array.isArray(b.body.data) ? b.body.data : [b.body.data];
    if (a.body.as_of === b.body.as_of) {
      assert(
        JSON.stringify(a.body.data) === JSON.stringify(b.body.data),
        `${path} read twice with as_of ${a.body.as_of}`,
        'the same data both times',
        `${valueShown(b.body.data)} the second time, after ${valueShown(a.body.data)}`,
      );
    }
    // As the round lag passes a round, a lagged plan's view of its company and firms changes while
    // updated_at stays (DECISIONS.md#round-lag): their derived fields are compared only on one cutoff.
    const lag = planRule(ctx).round_lag_days;
    const cutoff = (answer: Answer) => isoDay(Date.parse(answer.body.as_of) - lag * DAY);
    const lagMoved = lag > 0 && cutoff(a) !== cutoff(b);
    const compared = (row: any) =>
      lagMoved
        ? content({ ...row, total_raised_usd: undefined, last_round: undefined, portfolio_count: undefined })
        : content(row);
    for (const row of after) {
      const old = before.get(identity(row)) as any;
      if (!old || typeof row.updated_at !== 'string') continue;
      if (lagMoved && compared(old) === compared(row)) continue;
      if (content(old) === content(row))
        assert(
          old.updated_at === row.updated_at,
          `${identityShown(row)}, its content unchanged`,
          `updated_at ${old.updated_at} still`,
          `${row.updated_at}`,
        );
      else
        assert(
          Date.parse(row.updated_at) > Date.parse(old.updated_at),
          `${identityShown(row)}, its content changed`,
          `an updated_at later than ${old.updated_at}`,
          `${row.updated_at}`,
        );
    }
  },
};

export const conditional: Property = {
  id: 'conditional',
  title:
    'a record or page asked again with its ETag in If-None-Match is a 304 with no body, ' +
    'counted as a call and charging no rows',
  spec: [],
  assumed: ['conditional-requests', 'plan-and-usage-in-the-envelope'],
  skip: () => null,
  cost: (ctx) => ({ calls: 4, rows: 2 * ctx.client.rowCost(10) }),
  arbitrary: () =>
    fc.record({
      op: fc.constantFrom(...readOperations),
      pick: fc.nat(),
      limit: fc.integer({ min: 1, max: 10 }),
      form: fc.constantFrom('as-given', 'strong-in-a-list', 'any'),
    }),
  // Each form a client may send the tag back in (RFC 9110 compares If-None-Match weakly).
  examples: () =>
    (['as-given', 'strong-in-a-list', 'any'] as const).map((form) => ({
      op: operationById('listFirms'),
      pick: 0,
      limit: 2,
      form,
    })),
  async check(ctx, { op, pick, limit, form }) {
    const path = requestFor(ctx, op, pick, limit, 0);
    if (!path) return;
    const rows = op.query.includes('limit') ? limit : 1;
    const first = await ctx.client.call(path, { rows });
    if (first.status !== 200) return;
    const etag = first.headers.get('etag');
    assert(
      etag !== null && /^W\/"[^"]+"$/.test(etag),
      path,
      'a weak ETag (W/"...": the usage in the body changes every call)',
      etag === null ? 'no ETag' : `ETag ${etag}`,
    );
    // The tag as given; its strong form after another tag in a list; or `*`, which any current answer matches.
    const sent = form === 'any' ? '*' : form === 'strong-in-a-list' ? `W/"not-this-one", ${etag.slice(2)}` : etag;
    const again = await ctx.client.call(path, { rows, headers: { 'if-none-match': sent } });
    // A rebuild between the two calls changes the data and its tag: a 200 with a new tag is right then.
    if (again.status === 200 && again.headers.get('etag') !== etag && again.body?.as_of !== first.body.as_of) return;
    expectStatus(again, 304, `${path} with If-None-Match: ${sent} (the answer's ETag is ${etag})`);
    assert(again.text === '', `${path}, answered 304`, 'no body', `a body of ${again.text.length} bytes`);
    assert(
      again.headers.get('etag') === etag,
      `${path}, answered 304`,
      `the ETag it confirms, ${etag}`,
      `ETag ${again.headers.get('etag')}`,
    );
    const other = await ctx.client.call(path, { rows, headers: { 'if-none-match': 'W/"not-this-one"' } });
    expectStatus(other, 200, `${path} with an If-None-Match that matches nothing`);
    const before = first.body.usage;
    const after = other.body.usage;
    // Three calls on this key, the 304 among them; it charged nothing.
    if (before.calls_limit !== null)
      assert(
        after.calls_used === before.calls_used + 2,
        `${path}, after a 304 and a 200`,
        `calls_used ${before.calls_used + 2} (the 304 is a call)`,
        `${after.calls_used}, from ${before.calls_used}`,
      );
    if (ctx.config.plan === 'payg')
      assert(
        after.balance_rows === before.balance_rows - after.rows_charged,
        `${path}, after a 304 and a 200 charging ${after.rows_charged}`,
        `balance_rows ${before.balance_rows - after.rows_charged} (a 304 charges no rows)`,
        `${after.balance_rows}, from ${before.balance_rows}`,
      );
  },
};
