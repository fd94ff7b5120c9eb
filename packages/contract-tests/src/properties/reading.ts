/** What every read answers: the contract, and a filter's rows. */
import fc from 'fast-check';
import { defaultLimit, operationById, plans } from '@investor-graph/contract';
import { dataOperations, fillPath, planRule } from '../core/context.ts';
import { answerShown } from '../shown/failure-text.ts';
import { type Property, DAY, assert, expectStatus, cap, planServes, isoDay, walk, requestFor } from './support.ts';

export const conforms: Property = {
  id: 'conforms',
  title: 'every operation answers with a documented status, content type and body',
  spec: ['4. Endpoints', '2. Response envelope'],
  assumed: ['status-codes', 'limit'],
  skip: () => null,
  cost: (ctx) => ({ calls: 2, rows: ctx.client.rowCost(Math.min(cap(ctx), 50)) + ctx.client.rowCost(1) }),
  // A row a page, or the default page; a list's first member read beside it.
  caseCost: (ctx, { op, limit }) => ({
    calls: op.operationId === 'getList' ? 2 : 1,
    rows:
      ctx.client.rowCost(limit ?? Math.min(defaultLimit, cap(ctx))) +
      (op.operationId === 'getList' ? ctx.client.rowCost(1) : 0),
  }),
  arbitrary: (ctx) =>
    fc.record({
      op: fc.constantFrom(...dataOperations),
      pick: fc.nat(),
      limit: fc.option(
        fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: Math.min(cap(ctx), 50) }) },
        ),
        { nil: null },
      ),
      sinceDays: fc.integer({ min: 0, max: 60 }),
    }),
  // Every operation once, a row a page, then a long list without limit (the default page size).
  examples: () => [
    ...dataOperations.map((op) => ({ op, pick: 0, limit: 1, sinceDays: 1 })),
    { op: operationById('listInvestments'), pick: 0, limit: null, sinceDays: 1 },
  ],
  async check(ctx, { op, pick, limit, sinceDays }) {
    const path = requestFor(ctx, op, pick, limit, Date.parse(ctx.asOf) - sinceDays * DAY);
    if (!path) return;
    const answer = await ctx.client.call(path, {
      rows: op.query.includes('limit') ? (limit ?? Math.min(cap(ctx), defaultLimit)) : 1,
    });
    assert(answer.status < 500, path, 'a documented answer, not a server error', answerShown(answer));
    // A top-level list of the spec's table is there for every key whose plan serves it.
    const served = planServes(ctx, op);
    if (!op.path.includes('{') && served)
      expectStatus(answer, 200, `${path}, an endpoint of the spec's table under /api/v1`);
    // A list's members exist, and it counts them (DECISIONS.md#list-shapes): its first member is read.
    if (op.operationId === 'getList' && answer.status === 200) {
      const list = answer.body.data;
      assert(
        list.member_count === list.members.length,
        path,
        `member_count equal to the members listed (${list.members.length})`,
        `member_count ${list.member_count}`,
      );
      const first = list.members[0];
      if (first) {
        const member = await ctx.client.call(
          `/api/v1/${first.kind === 'firm' ? 'firms' : 'companies'}/${encodeURIComponent(first.slug)}`,
          { rows: 1 },
        );
        expectStatus(member, 200, `${path}: its member ${first.kind} ${first.slug}`);
      }
    }
    // Without limit a page is the default size, or the plan's page size if lower (DECISIONS.md#limit).
    if (
      limit === null &&
      op.query.includes('limit') &&
      answer.status === 200 &&
      typeof answer.body?.next_cursor === 'string'
    ) {
      const want = Math.min(defaultLimit, cap(ctx));
      assert(
        answer.body.data.length === want,
        `${path} without limit, with more to come`,
        `a page of the default size, ${want} rows`,
        `${answer.body.data.length} rows`,
      );
    }
  },
};

export const filters: Property = {
  id: 'filters',
  title: 'rounds from announced_since=D are on or after D, and a trial sees none inside the round lag',
  spec: ['4. Known parameters', '8. Limits'],
  assumed: [],
  skip: () => null,
  cost: (ctx) => ({ calls: 3, rows: 2 * ctx.client.rowCost(20) + ctx.client.rowCost(5) }),
  arbitrary: () =>
    fc.record({
      daysBack: fc.integer({ min: -30, max: 3 * 365 }),
      limit: fc.integer({ min: 1, max: 20 }),
      pick: fc.nat(),
    }),
  // The as-of day itself, either side of the trial's round lag, and a day still to come.
  examples: () =>
    [0, plans.trial.round_lag_days, plans.trial.round_lag_days + 1, -1].map((daysBack) => ({
      daysBack,
      limit: 20,
      pick: 0,
    })),
  async check(ctx, { daysBack, limit, pick }) {
    const since = isoDay(Date.parse(ctx.asOf) - daysBack * DAY);
    const { rows } = await walk(ctx, `/api/v1/rounds?announced_since=${since}`, limit, 2);
    const early = rows.find((r) => r.announced_on < since);
    assert(
      !early,
      `/api/v1/rounds?announced_since=${since}`,
      `rounds announced on or after ${since}`,
      `a round announced ${early?.announced_on}`,
    );
    const lag = planRule(ctx).round_lag_days;
    const company = fillPath('/api/v1/companies/{slug}/rounds', ctx.samples, pick);
    const theirs = company ? await ctx.client.call(`${company}?limit=5`, { rows: 5 }) : null;
    if (lag > 0) {
      const edge = isoDay(Date.parse(ctx.asOf) - lag * DAY);
      for (const r of [...rows, ...(theirs?.status === 200 ? theirs.body.data : [])])
        assert(
          r.announced_on <= edge,
          `rounds for a ${ctx.config.plan} key`,
          `none announced after ${edge} (the ${lag}-day lag)`,
          `a round of ${r.announced_on}`,
        );
    }
  },
};
