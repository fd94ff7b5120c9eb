/**
 * Statistics against the rows they count, as the key sees them (DECISIONS.md#statistics-shapes,
 * #round-lag): rounds-by-year year by year, the as-of year included, from the rounds announced
 * since a year; on a plan whose pages are long enough to walk every round and edge, rounds-by-year
 * for every year, rounds-by-stage (count, sum, median) and most-active-investors recomputed whole.
 * A rollup and its rows are compared only when they show the same data (one as_of).
 */
import fc from 'fast-check';
import { parameterEnum, resolveRef } from '@investor-graph/contract';
import { BudgetExhausted } from '../client/client.ts';
import { planRule, type SuiteContext } from '../core/context.ts';
import { valueShown } from '../shown/failure-text.ts';
import { type Property, assert, cap, codeShown, expectStatus, pageOf, sameData, walk } from './support.ts';

type Case = { kind: 'unknown' } | { kind: 'years'; back: number } | { kind: 'all-rounds' } | { kind: 'investors' };

/** Pages walked for the recent years, and for a whole list. */
const YEAR_PAGES = 2;
const WHOLE_PAGES = 10;
const yearPage = (ctx: SuiteContext) => pageOf(ctx, 250);
const wholePage = (ctx: SuiteContext) => Math.min(cap(ctx), 1000);
/**
 * Whole lists are recomputed where a page holds 500 rows or more and rows are not billed: 10 pages
 * hold 5,000 or more.
 */
const walksWhole = (ctx: SuiteContext) => cap(ctx) >= 500 && !planRule(ctx).min_rows_per_call;
const stageOrder = (resolveRef({ $ref: '#/components/schemas/Round' }) as { properties: { stage: { enum: string[] } } })
  .properties.stage.enum;

const sum = (rows: any[]) => rows.reduce((n, r) => n + (typeof r.amount_usd === 'number' ? r.amount_usd : 0), 0);
function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return Math.round(sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
}

async function rollup(ctx: SuiteContext, name: string) {
  const answer = await ctx.client.read(`/api/v1/statistics/${name}`, { rows: 1 });
  expectStatus(answer, 200, `/api/v1/statistics/${name}`);
  return answer;
}

/** rounds-by-year for the years from `from` on, against the rounds served. */
function years(
  served: { year: number; rounds: number; amount_usd: number }[],
  rounds: any[],
  from: number,
  what: string,
): void {
  const latest = Math.max(
    from,
    ...served.map((r) => r.year),
    ...rounds.map((r) => Number(String(r.announced_on).slice(0, 4))),
  );
  for (let year = from; year <= latest; year++) {
    const theirs = rounds.filter((r) => String(r.announced_on).startsWith(String(year)));
    const row = served.find((r) => r.year === year);
    assert(
      (row?.rounds ?? 0) === theirs.length,
      `rounds-by-year for ${year}`,
      `${theirs.length} rounds, as ${what} serves this key in ${year}`,
      row ? `${row.rounds} rounds` : 'no row for the year',
    );
    if (row)
      assert(
        row.amount_usd === sum(theirs),
        `rounds-by-year for ${year}`,
        `$${sum(theirs)}, the sum of those rounds' amounts`,
        `$${row.amount_usd}`,
      );
  }
}

export const statistics: Property = {
  id: 'statistics',
  title:
    'a rollup agrees with the rows it counts, as the key sees them: rounds-by-year year by ' +
    'year (the as-of year included), and where every round and edge can be walked, every ' +
    'year, rounds-by-stage and most-active-investors; an unknown name is a 404 listing the names',
  spec: ['1. What the service does', '4. Endpoints'],
  assumed: ['statistics-shapes', 'round-lag'],
  skip: () => null,
  cost: (ctx) => ({
    calls: 1 + YEAR_PAGES,
    rows: ctx.client.rowCost(1) + YEAR_PAGES * ctx.client.rowCost(yearPage(ctx)),
  }),
  caseCost: (ctx, input: Case) =>
    input.kind === 'unknown'
      ? { calls: 1, rows: 0 }
      : input.kind === 'years'
        ? statistics.cost(ctx)
        : { calls: 1 + WHOLE_PAGES, rows: ctx.client.rowCost(1) + WHOLE_PAGES * ctx.client.rowCost(wholePage(ctx)) },
  arbitrary: () => fc.record({ kind: fc.constant('years' as const), back: fc.integer({ min: 0, max: 1 }) }),
  examples: (ctx) => [
    { kind: 'unknown' },
    { kind: 'years', back: 1 },
    ...(walksWhole(ctx) ? [{ kind: 'all-rounds' }, { kind: 'investors' }] : []),
  ],
  async check(ctx, input: Case) {
    if (input.kind === 'unknown') {
      const unknown = await ctx.client.call('/api/v1/statistics/no-such-rollup', { rows: 0 });
      expectStatus(unknown, 404, 'an unknown statistic (the name identifies a resource)');
      assert(
        unknown.body?.code === 'unknown_statistic',
        'an unknown statistic',
        'code unknown_statistic',
        codeShown(unknown.body),
      );
      const names = parameterEnum('getStatistic', 'name');
      assert(
        Array.isArray(unknown.body?.allowed) && names.every((n) => unknown.body.allowed.includes(n)),
        'an unknown statistic',
        `allowed listing ${names.join(', ')}`,
        unknown.body?.allowed === undefined ? 'no allowed' : `allowed ${valueShown(unknown.body.allowed)}`,
      );
      return;
    }
    if (input.kind === 'investors') return investors(ctx);
    const served = await rollup(ctx, 'rounds-by-year');
    const rows = served.body.data.rows as { year: number; rounds: number; amount_usd: number }[];
    if (input.kind === 'years') {
      const latest = rows.reduce((a, r) => Math.max(a, r.year), 0);
      if (!latest) return;
      const from = latest - input.back;
      const walked = await walk(ctx, `/api/v1/rounds?announced_since=${from}-01-01`, yearPage(ctx), YEAR_PAGES);
      // A span too long for its pages is left, and said (some cases): back 0, the as-of year alone, is the shortest.
      if (!walked.ended)
        throw new BudgetExhausted(
          `the rounds since ${from}-01-01 are more than ${YEAR_PAGES} pages of ${yearPage(ctx)}`,
        );
      if (!sameData(served, ...walked.answers)) return;
      return years(rows, walked.rows, from, `/rounds?announced_since=${from}-01-01`);
    }
    const all = await walk(ctx, '/api/v1/rounds', wholePage(ctx), WHOLE_PAGES);
    const stages = await rollup(ctx, 'rounds-by-stage');
    if (!all.ended) throw new BudgetExhausted(`the rounds are more than ${WHOLE_PAGES} pages of ${wholePage(ctx)}`);
    if (!sameData(served, stages, ...all.answers)) return;
    years(rows, all.rows, Math.min(...rows.map((r) => r.year)), '/rounds');
    for (const stage of stageOrder) {
      const theirs = all.rows.filter((r) => r.stage === stage);
      const row = (stages.body.data.rows as any[]).find((r) => r.stage === stage);
      if (!theirs.length) {
        assert(!row, `rounds-by-stage for ${stage}`, 'no row (no round of the stage is served)', `${valueShown(row)}`);
        continue;
      }
      const want = {
        stage,
        rounds: theirs.length,
        amount_usd: sum(theirs),
        median_amount_usd: median(theirs.map((r) => r.amount_usd).filter((a): a is number => typeof a === 'number')),
      };
      assert(
        JSON.stringify(row) === JSON.stringify(want),
        `rounds-by-stage for ${stage}`,
        `${valueShown(want)}, from the ${theirs.length} rounds served`,
        `${valueShown(row)}`,
      );
    }
  },
};

/** most-active-investors against every edge: investments and leads per firm, ranked, the first 25. */
async function investors(ctx: SuiteContext): Promise<void> {
  const served = await rollup(ctx, 'most-active-investors');
  const edges = await walk(ctx, '/api/v1/investments', wholePage(ctx), WHOLE_PAGES);
  if (!edges.ended) throw new BudgetExhausted(`the edges are more than ${WHOLE_PAGES} pages of ${wholePage(ctx)}`);
  if (!sameData(served, ...edges.answers)) return;
  const firms = new Map<string, { name: string; investments: number; leads: number }>();
  for (const edge of edges.rows) {
    const firm = firms.get(edge.firm_slug) ?? { name: edge.firm_name, investments: 0, leads: 0 };
    firm.investments += 1;
    if (edge.role === 'lead') firm.leads += 1;
    firms.set(edge.firm_slug, firm);
  }
  const rows = served.body.data.rows as { rank: number; firm_slug: string; investments: number; leads: number }[];
  rows.forEach((row, i) => {
    const theirs = firms.get(row.firm_slug) ?? { investments: 0, leads: 0 };
    assert(
      row.rank === i + 1,
      'most-active-investors',
      `rank ${i + 1} at row ${i + 1}`,
      `rank ${valueShown(row.rank)}`,
    );
    assert(
      row.investments === theirs.investments && row.leads === theirs.leads,
      `most-active-investors, ${row.firm_slug}`,
      `${theirs.investments} investments and ${theirs.leads} leads, its edges served`,
      `${row.investments} and ${row.leads}`,
    );
    const prev = rows[i - 1];
    if (prev)
      assert(
        prev.investments > row.investments || (prev.investments === row.investments && prev.leads >= row.leads),
        'most-active-investors',
        `rank ${i + 1} after ${prev.firm_slug} (${prev.investments} investments, ${prev.leads} leads): no more than it`,
        `${row.investments} investments, ${row.leads} leads`,
      );
  });
  // No firm left out ranks above the last one listed.
  const last = rows.at(-1);
  const listed = new Set(rows.map((r) => r.firm_slug));
  const above = last
    ? [...firms].find(
        ([slug, f]) =>
          !listed.has(slug) &&
          (f.investments > last.investments || (f.investments === last.investments && f.leads > last.leads)),
      )
    : undefined;
  assert(
    !above,
    'most-active-investors',
    `no firm left out with more investments (or as many and more leads) than the last listed, ${last?.firm_slug}`,
    `${above?.[0]}, ${above?.[1].investments} investments and ${above?.[1].leads} leads`,
  );
}
