/**
 * The envelope every data answer comes in: the plan as the plan table says it, usage counted per
 * call, the period, as_of never going back, and pay as you go's charge at its edges (a page of one
 * row fewer than the minimum a call, the minimum, one more). Every answer the run holds is judged
 * too, at no cost: what any property read is an envelope like any other.
 */
import fc from 'fast-check';
import { operationById } from '@investor-graph/contract';
import { listOperations, planRule, type SuiteContext } from '../core/context.ts';
import { type Property, DAY, assert, requestFor } from './support.ts';

/**
 * Monthly periods run from the first of a month, UTC, to the first of the next; the trial's is its
 * 7 days; pay as you go has none.
 */
function periodAsDecided(
  period: string | null,
  usage: { period_start: string | null; period_end: string | null },
): void {
  const { period_start: start, period_end: end } = usage;
  if (period === null)
    return assert(
      start === null && end === null,
      'usage of a plan without a call quota',
      'no period (period_start and period_end null)',
      `a period ${start} to ${end}`,
    );
  assert(
    typeof start === 'string' && typeof end === 'string',
    `usage of a plan whose calls run by ${period}`,
    'a period_start and period_end',
    `a period ${start} to ${end}`,
  );
  if (period === 'P7D')
    return assert(
      Date.parse(end) - Date.parse(start) === 7 * DAY,
      "the trial's usage",
      'a period of its 7 days',
      `a period ${start} to ${end}`,
    );
  const first = new Date(Date.parse(start));
  const next = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1);
  assert(
    first.getUTCDate() === 1 && Date.parse(start) % DAY === 0 && Date.parse(end) === next,
    'a monthly usage period',
    'one from the first of a month (UTC) to the first of the next',
    `${start} to ${end}`,
  );
}

/** One answer's envelope against the plan table and the decisions: what holds of it alone. */
function judgeEnvelope(ctx: SuiteContext, path: string, body: any): void {
  const rule = planRule(ctx);
  const { plan, usage, data } = body;
  assert(
    plan.id === ctx.config.plan,
    `${path} with a ${ctx.config.plan} key`,
    `plan.id ${ctx.config.plan}`,
    `plan.id ${plan.id}`,
  );
  for (const field of ['rows_per_page', 'rate_per_second', 'round_lag_days', 'changes_feed', 'exports'] as const) {
    assert(plan[field] === rule[field], path, `plan.${field} ${rule[field]}, as the plan table says`, `${plan[field]}`);
  }
  assert(
    usage.calls_limit === rule.calls_limit,
    path,
    `usage.calls_limit ${rule.calls_limit}, as the plan table says`,
    `${usage.calls_limit}`,
  );
  periodAsDecided(rule.calls_period, usage);
  if (usage.calls_limit !== null)
    assert(
      usage.calls_remaining === usage.calls_limit - usage.calls_used,
      path,
      `calls_remaining ${usage.calls_limit - usage.calls_used} (calls_limit ` +
        `${usage.calls_limit} less calls_used ${usage.calls_used})`,
      `${usage.calls_remaining}`,
    );
  if (ctx.config.plan === 'payg') {
    const served = Array.isArray(data) ? data.length : 1;
    const want = Math.max(served, rule.min_rows_per_call ?? 0);
    assert(
      usage.rows_charged === want,
      `${path}, serving ${served} rows`,
      `rows_charged ${want} (the rows served, at least ${rule.min_rows_per_call ?? 0})`,
      `${usage.rows_charged}`,
    );
    assert(usage.balance_rows >= 0, path, 'balance_rows of 0 or more', `${usage.balance_rows}`);
  }
}

type Call = { op: (typeof listOperations)[number]; pick: number; limit: number };
type EnvelopeCase = { held: true } | { calls: Call[] };

export const envelope: Property = {
  id: 'envelope',
  title: 'as_of, plan and usage agree with the key and with each other across calls, on every answer the run holds',
  spec: ['2. Response envelope', '8. Limits'],
  assumed: ['plan-and-usage-in-the-envelope', 'pay-as-you-go-billing'],
  skip: () => null,
  cost: (ctx) => ({ calls: 3, rows: 3 * ctx.client.rowCost(5) }),
  caseCost: (ctx, input: EnvelopeCase) =>
    'held' in input
      ? { calls: 0, rows: 0 }
      : { calls: input.calls.length, rows: input.calls.reduce((sum, c) => sum + ctx.client.rowCost(c.limit), 0) },
  arbitrary: () =>
    fc.record({
      calls: fc.array(
        fc.record({
          op: fc.constantFrom(...listOperations.filter((o) => o.operationId !== 'listChanges')),
          pick: fc.nat(),
          limit: fc.integer({ min: 1, max: 5 }),
        }),
        { minLength: 2, maxLength: 3 },
      ),
    }),
  // Every answer held so far; calls in a row; on pay as you go, pages either side of the minimum a call.
  examples: (ctx) => {
    const min = planRule(ctx).min_rows_per_call;
    const firms = operationById('listFirms');
    return [
      { held: true },
      {
        calls: [
          { op: operationById('listRounds'), pick: 0, limit: 1 },
          { op: operationById('listCompanyRounds'), pick: 0, limit: 2 },
        ],
      },
      ...(min ? [{ calls: [min - 1, min, min + 1].map((limit) => ({ op: firms, pick: 0, limit })) }] : []),
    ];
  },
  async check(ctx, input: EnvelopeCase) {
    if ('held' in input) {
      // The account's envelope is free (DECISIONS.md#account): it charges nothing, whatever it shows.
      for (const [path, { answer }] of ctx.client.answers.all())
        if (answer.status === 200 && answer.body?.plan && answer.body?.usage && !path.startsWith('/api/v1/account'))
          judgeEnvelope(ctx, path, answer.body);
      return;
    }
    let before: any = null;
    for (const { op, pick, limit } of input.calls) {
      const path = requestFor(ctx, op, pick, limit, 0);
      if (!path) continue;
      const answer = await ctx.client.call(path, { rows: limit });
      if (answer.status !== 200) continue;
      judgeEnvelope(ctx, path, answer.body);
      const { usage, as_of: asOf } = answer.body;
      if (before) {
        assert(
          Date.parse(asOf) >= Date.parse(before.as_of),
          path,
          `an as_of no earlier than the call before's, ${before.as_of}`,
          `${asOf}`,
        );
        // One accepted call later: this key is the suite's own, so nothing else counts on it.
        if (usage.calls_limit !== null)
          assert(
            usage.calls_used === before.usage.calls_used + 1,
            path,
            `calls_used ${before.usage.calls_used + 1}, one more than the call before's`,
            `${usage.calls_used}`,
          );
        if (ctx.config.plan === 'payg')
          assert(
            usage.balance_rows === before.usage.balance_rows - usage.rows_charged,
            path,
            `balance_rows ${before.usage.balance_rows - usage.rows_charged} ` +
              `(${before.usage.balance_rows} less the ${usage.rows_charged} charged)`,
            `${usage.balance_rows}`,
          );
      }
      before = answer.body;
    }
  },
};
