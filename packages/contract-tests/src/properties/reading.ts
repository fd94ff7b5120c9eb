/** What every read answers: the contract, the envelope, pages and their cursors, filters. */
import fc from 'fast-check';
import { defaultLimit, operationById, plans } from '@investor-graph/contract';
import { dataOperations, fillPath, listOperations, planRule } from '../context.ts';
import { cutBody } from '../cut-body.ts';
import { answerShown } from '../failure-text.ts';
import { type Property, DAY, assert, expectStatus, cap, planServes, isoDay, walk, keyOf, identity, requestFor } from './support.ts';

export const conforms: Property = {
  id: 'conforms',
  title: 'every operation answers with a documented status, content type and body',
  spec: ['4. Endpoints', '2. Response envelope'],
  assumed: ['status-codes', 'limit'],
  skip: () => null,
  cost: (ctx) => ({ calls: 2, rows: ctx.client.rowCost(Math.min(cap(ctx), 50)) + ctx.client.rowCost(1) }),
  arbitrary: (ctx) =>
    fc.record({
      op: fc.constantFrom(...dataOperations),
      pick: fc.nat(),
      limit: fc.option(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: Math.min(cap(ctx), 50) }) }), { nil: null }),
      sinceDays: fc.integer({ min: 0, max: 60 }),
    }),
  // Every operation once, a row a page, then a long list without limit (the default page size).
  examples: () => [...dataOperations.map((op) => ({ op, pick: 0, limit: 1, sinceDays: 1 })), { op: operationById('listInvestments'), pick: 0, limit: null, sinceDays: 1 }],
  async check(ctx, { op, pick, limit, sinceDays }) {
    const path = requestFor(ctx, op, pick, limit, Date.parse(ctx.asOf) - sinceDays * DAY);
    if (!path) return;
    const answer = await ctx.client.call(path, { rows: op.query.includes('limit') ? (limit ?? Math.min(cap(ctx), defaultLimit)) : 1 });
    assert(answer.status < 500, path, 'a documented answer, not a server error', answerShown(answer));
    // A top-level list of the spec's table is there for every key whose plan serves it.
    const served = planServes(ctx, op);
    if (!op.path.includes('{') && served) expectStatus(answer, 200, `${path}, an endpoint of the spec's table under /api/v1`);
    // A list's members exist, and it counts them (DECISIONS.md#list-shapes): its first member is read.
    if (op.operationId === 'getList' && answer.status === 200) {
      const list = answer.body.data;
      assert(list.member_count === list.members.length, path, `member_count equal to the members listed (${list.members.length})`, `member_count ${list.member_count}`);
      const first = list.members[0];
      if (first) {
        const member = await ctx.client.call(`/api/v1/${first.kind === 'firm' ? 'firms' : 'companies'}/${encodeURIComponent(first.slug)}`, { rows: 1 });
        expectStatus(member, 200, `${path}: its member ${first.kind} ${first.slug}`);
      }
    }
    // Without limit a page is the default size, or the plan's page size if lower (DECISIONS.md#limit).
    if (limit === null && op.query.includes('limit') && answer.status === 200 && typeof answer.body?.next_cursor === 'string') {
      const want = Math.min(defaultLimit, cap(ctx));
      assert(answer.body.data.length === want, `${path} without limit, with more to come`, `a page of the default size, ${want} rows`, `${answer.body.data.length} rows`);
    }
  },
};

/** Monthly periods run from the first of a month, UTC, to the first of the next; the trial's is its 7 days; pay as you go has none. */
function periodAsDecided(period: string | null, usage: { period_start: string | null; period_end: string | null }): void {
  const { period_start: start, period_end: end } = usage;
  if (period === null) return assert(start === null && end === null, 'usage of a plan without a call quota', 'no period (period_start and period_end null)', `a period ${start} to ${end}`);
  assert(typeof start === 'string' && typeof end === 'string', `usage of a plan whose calls run by ${period}`, 'a period_start and period_end', `a period ${start} to ${end}`);
  if (period === 'P7D') return assert(Date.parse(end) - Date.parse(start) === 7 * DAY, "the trial's usage", 'a period of its 7 days', `a period ${start} to ${end}`);
  const first = new Date(Date.parse(start));
  const next = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1);
  assert(first.getUTCDate() === 1 && Date.parse(start) % DAY === 0 && Date.parse(end) === next, 'a monthly usage period', 'one from the first of a month (UTC) to the first of the next', `${start} to ${end}`);
}

export const envelope: Property = {
  id: 'envelope',
  title: 'as_of, plan and usage agree with the key and with each other across calls',
  spec: ['2. Response envelope', '8. Limits'],
  assumed: ['plan-and-usage-in-the-envelope', 'pay-as-you-go-billing'],
  skip: () => null,
  cost: (ctx) => ({ calls: 3, rows: 3 * ctx.client.rowCost(5) }),
  arbitrary: () => fc.array(fc.record({ op: fc.constantFrom(...listOperations.filter((o) => o.operationId !== 'listChanges')), pick: fc.nat(), limit: fc.integer({ min: 1, max: 5 }) }), { minLength: 2, maxLength: 3 }),
  async check(ctx, calls: { op: (typeof listOperations)[number]; pick: number; limit: number }[]) {
    const rule = planRule(ctx);
    let before: any = null;
    for (const { op, pick, limit } of calls) {
      const path = requestFor(ctx, op, pick, limit, 0);
      if (!path) continue;
      const answer = await ctx.client.call(path, { rows: limit });
      if (answer.status !== 200) continue;
      const { plan, usage, as_of: asOf, data } = answer.body;
      assert(plan.id === ctx.config.plan, `${path} with a ${ctx.config.plan} key`, `plan.id ${ctx.config.plan}`, `plan.id ${plan.id}`);
      for (const field of ['rows_per_page', 'rate_per_second', 'round_lag_days', 'changes_feed', 'exports'] as const) {
        assert(plan[field] === rule[field], path, `plan.${field} ${rule[field]}, as the plan table says`, `${plan[field]}`);
      }
      assert(usage.calls_limit === rule.calls_limit, path, `usage.calls_limit ${rule.calls_limit}, as the plan table says`, `${usage.calls_limit}`);
      periodAsDecided(rule.calls_period, usage);
      if (usage.calls_limit !== null) assert(usage.calls_remaining === usage.calls_limit - usage.calls_used, path, `calls_remaining ${usage.calls_limit - usage.calls_used} (calls_limit ${usage.calls_limit} less calls_used ${usage.calls_used})`, `${usage.calls_remaining}`);
      if (ctx.config.plan === 'payg') {
        const served = Array.isArray(data) ? data.length : 1;
        assert(usage.rows_charged === Math.max(served, rule.min_rows_per_call ?? 0), `${path}, serving ${served} rows`, `rows_charged ${Math.max(served, rule.min_rows_per_call ?? 0)} (the rows served, at least ${rule.min_rows_per_call ?? 0})`, `${usage.rows_charged}`);
      }
      if (before) {
        assert(Date.parse(asOf) >= Date.parse(before.as_of), path, `an as_of no earlier than the call before's, ${before.as_of}`, `${asOf}`);
        // One accepted call later: this key is the suite's own, so nothing else counts on it.
        if (usage.calls_limit !== null) assert(usage.calls_used === before.usage.calls_used + 1, path, `calls_used ${before.usage.calls_used + 1}, one more than the call before's`, `${usage.calls_used}`);
        if (ctx.config.plan === 'payg') assert(usage.balance_rows === before.usage.balance_rows - usage.rows_charged, path, `balance_rows ${before.usage.balance_rows - usage.rows_charged} (${before.usage.balance_rows} less the ${usage.rows_charged} charged)`, `${usage.balance_rows}`);
      }
      before = answer.body;
    }
  },
};

export const pagination: Property = {
  id: 'pagination',
  title: 'walking a list with any limit gives no duplicate and no gap, no page over the limit, and next_cursor null exactly at the end',
  spec: ['4. Endpoints'],
  // Only the cursor parameter's name is the kit's: no gap, no duplicate and the cap are the spec's.
  assumed: ['cursor'],
  skip: () => null,
  cost: (ctx) => ({ calls: 5, rows: 4 * ctx.client.rowCost(7) + ctx.client.rowCost(28) }),
  arbitrary: () => fc.record({ op: fc.constantFrom(...listOperations.filter((o) => o.operationId !== 'listChanges')), pick: fc.nat(), limit: fc.integer({ min: 1, max: 7 }) }),
  // Pages of one row, and of the most the arbitrary asks, on a top list and a nested one.
  examples: () => [
    { op: operationById('listInvestments'), pick: 0, limit: 1 },
    { op: operationById('listFirms'), pick: 0, limit: 7 },
    { op: operationById('listFirmPortfolio'), pick: 0, limit: 1 },
  ],
  async check(ctx, { op, pick, limit }) {
    const path = requestFor(ctx, op, pick, null, 0);
    if (!path) return;
    const pages = 4;
    const reference = await ctx.client.call(`${path}?limit=${pages * limit}`, { rows: pages * limit });
    if (reference.status !== 200) return;
    const expected: any[] = reference.body.data;
    const { rows, ended, answers } = await walk(ctx, path, limit, pages);
    answers.forEach((a, i) => assert(a.body.data.length <= limit, `page ${i + 1} of ${path}`, `at most limit=${limit} rows`, `${a.body.data.length} rows`));
    const ids = rows.map(identity);
    assert(new Set(ids).size === ids.length, `walking ${path} with limit=${limit}`, 'each row once', `${cutBody(ids.find((id, i) => ids.indexOf(id) !== i) ?? '', 200)} twice`);
    // Every list is in ascending order of its key (DECISIONS.md#filters-and-sort-order).
    const keys = rows.map(keyOf);
    const back = keys.findIndex((k, i) => i > 0 && k !== null && keys[i - 1] !== null && !(keys[i - 1]! < k));
    assert(back < 0, `walking ${path} with limit=${limit}`, "rows in ascending order of the list's key", `key ${keys[back]} after ${keys[back - 1]}`);
    const want = expected.slice(0, rows.length).map(identity);
    const differs = ids.findIndex((id, i) => id !== want[i]);
    assert(differs < 0, `walking ${path} with limit=${limit}`, `the first ${ids.length} rows of one page of ${pages * limit}, in order`, `${cutBody(ids[differs] ?? '', 200)} at row ${differs + 1}, where the page has ${want[differs] === undefined ? 'no row' : cutBody(want[differs]!, 200)}`);
    if (reference.body.next_cursor === null) {
      // The whole list fits in the reference page: the walk must end exactly where it does.
      if (rows.length === expected.length) assert(ended, `walking ${path} with limit=${limit}, all ${expected.length} rows seen`, 'next_cursor null', 'a next_cursor');
      if (ended) assert(rows.length === expected.length, `walking ${path} with limit=${limit}`, `next_cursor null after all ${expected.length} rows`, `next_cursor null after ${rows.length}`);
    } else {
      assert(!ended && rows.length === pages * limit, `walking ${path}, a list of more than ${pages * limit} rows, with limit=${limit}`, `${pages} full pages with a next_cursor`, `a walk that ${ended ? 'ended' : 'stalled'} after ${rows.length} rows`);
    }
  },
};

export const cursorTamper: Property = {
  id: 'cursor-tamper',
  title: 'a tampered, truncated, foreign or made-up cursor is rejected with a 400 problem',
  spec: ['4. Endpoints'],
  assumed: ['cursor', 'status-codes'],
  skip: () => null,
  cost: (ctx) => ({ calls: 3, rows: 2 * ctx.client.rowCost(1) }),
  arbitrary: () =>
    fc.oneof(
      fc.record({ kind: fc.constant('flip'), at: fc.nat(), by: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('truncate'), at: fc.nat() }),
      fc.record({ kind: fc.constant('append'), tail: fc.string({ minLength: 1, maxLength: 8 }) }),
      fc.record({ kind: fc.constant('foreign') }),
      fc.record({ kind: fc.constant('made-up'), text: fc.string({ minLength: 1, maxLength: 120 }) }),
      fc.record({ kind: fc.constant('other-filters'), days: fc.integer({ min: 1, max: 3000 }) }),
    ),
  // One of each way a cursor goes wrong.
  examples: () => [{ kind: 'flip', at: 0, by: 1 }, { kind: 'truncate', at: 0 }, { kind: 'append', tail: 'x' }, { kind: 'foreign' }, { kind: 'made-up', text: 'abc.def' }, { kind: 'other-filters', days: 1 }],
  async check(ctx, change: { kind: string; at?: number; by?: number; tail?: string; text?: string; days?: number }) {
    if (change.kind === 'other-filters') {
      // A cursor is bound to the filters it was issued for: sent with others, it is refused.
      const issued = await ctx.client.call('/api/v1/rounds?announced_since=2000-01-01&limit=1', { rows: 1 });
      expectStatus(issued, 200, 'the first page of rounds announced since 2000-01-01');
      if (!issued.body.next_cursor) return;
      const other = isoDay(Date.parse('2000-01-01T00:00:00Z') + change.days! * DAY);
      const answer = await ctx.client.call(`/api/v1/rounds?announced_since=${other}&limit=1&cursor=${encodeURIComponent(issued.body.next_cursor)}`, { rows: 1 });
      expectStatus(answer, 400, `a cursor issued for announced_since=2000-01-01, sent with announced_since=${other}`);
      return;
    }
    const first = await ctx.client.call('/api/v1/firms?limit=1', { rows: 1 });
    expectStatus(first, 200, 'the first page of firms');
    const cursor: string | null = first.body.next_cursor;
    if (!cursor) return;
    let bad: string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    if (change.kind === 'flip') {
      const at = change.at! % cursor.length;
      const c = cursor[at]!;
      const i = alphabet.indexOf(c);
      bad = cursor.slice(0, at) + (i < 0 ? 'A' : alphabet[(i + change.by!) % alphabet.length]) + cursor.slice(at + 1);
    } else if (change.kind === 'truncate') bad = cursor.slice(0, change.at! % cursor.length);
    else if (change.kind === 'append') bad = cursor + change.tail!;
    else if (change.kind === 'foreign') {
      const other = await ctx.client.call('/api/v1/companies?limit=1', { rows: 1 });
      bad = other.body?.next_cursor ?? 'x';
    } else bad = change.text!;
    if (bad === cursor) return;
    const answer = await ctx.client.call(`/api/v1/firms?limit=1&cursor=${encodeURIComponent(bad)}`, { rows: 1 });
    expectStatus(answer, 400, `a ${change.kind} cursor`);
  },
};

export const filters: Property = {
  id: 'filters',
  title: "rounds from announced_since=D are on or after D, and a trial sees none inside the round lag",
  spec: ['4. Known parameters', '8. Limits'],
  assumed: [],
  skip: () => null,
  cost: (ctx) => ({ calls: 3, rows: 2 * ctx.client.rowCost(20) + ctx.client.rowCost(5) }),
  arbitrary: (ctx) => fc.record({ daysBack: fc.integer({ min: -30, max: 3 * 365 }), limit: fc.integer({ min: 1, max: 20 }), pick: fc.nat() }),
  // The as-of day itself, either side of the trial's round lag, and a day still to come.
  examples: () => [0, plans.trial.round_lag_days, plans.trial.round_lag_days + 1, -1].map((daysBack) => ({ daysBack, limit: 20, pick: 0 })),
  async check(ctx, { daysBack, limit, pick }) {
    const since = isoDay(Date.parse(ctx.asOf) - daysBack * DAY);
    const { rows } = await walk(ctx, `/api/v1/rounds?announced_since=${since}`, limit, 2);
    const early = rows.find((r) => r.announced_on < since);
    assert(!early, `/api/v1/rounds?announced_since=${since}`, `rounds announced on or after ${since}`, `a round announced ${early?.announced_on}`);
    const lag = planRule(ctx).round_lag_days;
    const company = fillPath('/api/v1/companies/{slug}/rounds', ctx.samples, pick);
    const theirs = company ? await ctx.client.call(`${company}?limit=5`, { rows: 5 }) : null;
    if (lag > 0) {
      const edge = isoDay(Date.parse(ctx.asOf) - lag * DAY);
      for (const r of [...rows, ...(theirs?.status === 200 ? theirs.body.data : [])]) assert(r.announced_on <= edge, `rounds for a ${ctx.config.plan} key`, `none announced after ${edge} (the ${lag}-day lag)`, `a round of ${r.announced_on}`);
    }
  },
};
