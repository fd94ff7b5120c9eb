/**
 * A record against the lists it is made from and the lists it is in, as the key sees them
 * (DECISIONS.md#resource-fields, #round-lag): a company's total raised and last round against its
 * rounds, a firm's portfolio count against its portfolio, every edge's round among its company's
 * rounds, and the record as the top-level list serves it. The records most recently changed come
 * first: that is where a rebuild, or a round lag, has something to keep in step.
 */
import fc from 'fast-check';
import { planRule } from '../core/context.ts';
import { valueShown } from '../shown/failure-text.ts';
import { type Property, assert, expectStatus, isoDay, pageOf, sameData, walk, DAY } from './support.ts';
import type { SuiteContext } from '../core/context.ts';

/** The top-level lists walked for candidates: two pages of up to 250 (every record at the kit's default scale). */
const CANDIDATE_PAGES = 2;
/** A nested list is walked to its end within this: longer ones are left (their total is not judged). */
const NESTED_PAGES = 2;
const listLimit = (ctx: SuiteContext) => pageOf(ctx, 250);
const nestedLimit = (ctx: SuiteContext) => pageOf(ctx, 50);

/**
 * The records of a resource the run holds or reads, most recently changed first (ties by key),
 * each with the as_of of its page.
 */
async function candidates(ctx: SuiteContext, resource: 'companies' | 'firms'): Promise<{ row: any; asOf: string }[]> {
  const { answers } = await walk(ctx, `/api/v1/${resource}`, listLimit(ctx), CANDIDATE_PAGES);
  const rows = answers.flatMap((a) => (a.body.data as any[]).map((row) => ({ row, asOf: a.body.as_of as string })));
  return rows.sort(
    (a, b) =>
      String(b.row.updated_at).localeCompare(String(a.row.updated_at)) ||
      String(a.row.slug).localeCompare(String(b.row.slug)),
  );
}

const publicTotal = (rounds: any[]): number | null =>
  rounds.reduce((sum, r) => sum + (typeof r.amount_usd === 'number' ? r.amount_usd : 0), 0) || null;
const latestOf = (rounds: any[]): any =>
  rounds.reduce(
    (a, r) => (!a || r.announced_on > a.announced_on || (r.announced_on === a.announced_on && r.id > a.id) ? r : a),
    null,
  );

async function company(ctx: SuiteContext, row: any, listedAsOf: string): Promise<void> {
  const slug = encodeURIComponent(row.slug);
  const record = await ctx.client.read(`/api/v1/companies/${slug}`, { rows: 1 });
  expectStatus(record, 200, `/api/v1/companies/${row.slug}, listed in /api/v1/companies`);
  const now = record.body.data;
  const rounds = await walk(ctx, `/api/v1/companies/${slug}/rounds`, nestedLimit(ctx), NESTED_PAGES);
  const investors = await walk(ctx, `/api/v1/companies/${slug}/investors`, nestedLimit(ctx), NESTED_PAGES);
  if (!sameData(record, ...rounds.answers, ...investors.answers)) return;
  const where = `company ${row.slug}`;
  for (const round of rounds.rows)
    assert(
      round.company_slug === row.slug,
      `${where}'s rounds`,
      `rounds of ${row.slug}`,
      `round ${round.id} of ${valueShown(round.company_slug)}`,
    );
  const lag = planRule(ctx).round_lag_days;
  if (lag > 0) {
    const edge = isoDay(Date.parse(record.body.as_of) - lag * DAY);
    const late = rounds.rows.find((r) => r.announced_on > edge);
    assert(
      !late,
      `${where}'s rounds for a ${ctx.config.plan} key`,
      `none announced after ${edge} (the ${lag}-day lag)`,
      `round ${late?.id} of ${late?.announced_on}`,
    );
  }
  if (rounds.ended) {
    const total = publicTotal(rounds.rows);
    assert(
      now.total_raised_usd === total,
      where,
      `total_raised_usd ${total}, the sum of the public amounts of the ${rounds.rows.length} rounds it is served with`,
      `${valueShown(now.total_raised_usd)}`,
    );
    const latest = latestOf(rounds.rows);
    const shown = latest
      ? { id: latest.id, stage: latest.stage, announced_on: latest.announced_on, amount_usd: latest.amount_usd }
      : null;
    assert(
      JSON.stringify(now.last_round ?? null) === JSON.stringify(shown),
      where,
      `last_round ${valueShown(shown)}, its latest round as served`,
      `${valueShown(now.last_round)}`,
    );
    // An edge is an investor in one of the company's rounds: one the key sees.
    const ids = new Set(rounds.rows.map((r) => r.id));
    const stray = investors.rows.find(
      (e) => e.company_slug !== row.slug || (e.round_id !== null && !ids.has(e.round_id)),
    );
    assert(
      !stray,
      `${where}'s investors`,
      `edges of ${row.slug}'s rounds as served (${ids.size} of them)`,
      `edge ${stray?.id} of ${valueShown(stray?.company_slug)}, round ${valueShown(stray?.round_id)}`,
    );
  }
  // The record is its row in the top-level list, when both show the same data.
  if (listedAsOf === record.body.as_of && JSON.stringify(row) !== JSON.stringify(now)) {
    const field = Object.keys(now).find((k) => JSON.stringify(now[k]) !== JSON.stringify(row[k]));
    assert(
      false,
      where,
      `the record as /api/v1/companies lists it, ${field} ${valueShown(row[field!], 80)}`,
      `${field} ${valueShown(now[field!], 80)}`,
    );
  }
}

async function firm(ctx: SuiteContext, row: any, listedAsOf: string): Promise<void> {
  const slug = encodeURIComponent(row.slug);
  const record = await ctx.client.read(`/api/v1/firms/${slug}`, { rows: 1 });
  expectStatus(record, 200, `/api/v1/firms/${row.slug}, listed in /api/v1/firms`);
  const portfolio = await walk(ctx, `/api/v1/firms/${slug}/portfolio`, nestedLimit(ctx), NESTED_PAGES);
  if (!sameData(record, ...portfolio.answers)) return;
  const where = `firm ${row.slug}`;
  const stray = portfolio.rows.find((e) => e.firm_slug !== row.slug);
  assert(
    !stray,
    `${where}'s portfolio`,
    `edges of ${row.slug}`,
    `edge ${stray?.id} of ${valueShown(stray?.firm_slug)}`,
  );
  if (listedAsOf === record.body.as_of)
    assert(
      JSON.stringify(row) === JSON.stringify(record.body.data),
      where,
      'the record as /api/v1/firms lists it',
      `${valueShown(record.body.data, 120)}, listed as ${valueShown(row, 120)}`,
    );
  if (!portfolio.ended) return;
  const reached = new Set(portfolio.rows.map((e) => e.company_slug)).size;
  assert(
    record.body.data.portfolio_count === reached,
    where,
    `portfolio_count ${reached}, the companies its ${portfolio.rows.length} edges as served reach`,
    `${valueShown(record.body.data.portfolio_count)}`,
  );
}

export const derived: Property = {
  id: 'derived',
  title:
    "a record agrees with the lists it is made from, as the key sees them: a company's total " +
    "raised and last round with its rounds, its investors with its rounds, a firm's " +
    'portfolio count with its portfolio, a record with its row in its list',
  spec: ['2. Resources and their fields', '8. Limits'],
  assumed: ['resource-fields', 'round-lag'],
  skip: () => null,
  // The candidates' pages, the record, and two nested lists walked.
  cost: (ctx) => ({
    calls: CANDIDATE_PAGES + 1 + 2 * NESTED_PAGES,
    rows:
      ctx.client.rowCost(listLimit(ctx)) * CANDIDATE_PAGES +
      ctx.client.rowCost(1) +
      2 * NESTED_PAGES * ctx.client.rowCost(nestedLimit(ctx)),
  }),
  // The candidates are read by each kind's first case and held for the rest; a firm walks one nested list.
  caseCost: (ctx, { kind, rank }) => {
    const lists = kind === 'company' ? 2 : 1;
    const candidates = rank === 0 ? CANDIDATE_PAGES : 0;
    return {
      calls: candidates + 1 + lists * NESTED_PAGES,
      rows:
        candidates * ctx.client.rowCost(listLimit(ctx)) +
        ctx.client.rowCost(1) +
        lists * NESTED_PAGES * ctx.client.rowCost(nestedLimit(ctx)),
    };
  },
  arbitrary: () => fc.record({ kind: fc.constantFrom('company', 'firm'), rank: fc.nat({ max: 40 }) }),
  // The records most recently changed, which a rebuild or a round lag most likely touched.
  examples: () =>
    [0, 1, 2, 3].map((rank) => ({ kind: 'company', rank })).concat([0, 1].map((rank) => ({ kind: 'firm', rank }))),
  async check(ctx, { kind, rank }: { kind: 'company' | 'firm'; rank: number }) {
    const rows = await candidates(ctx, kind === 'company' ? 'companies' : 'firms');
    const chosen = rows[rank % Math.max(1, rows.length)];
    if (!chosen) return;
    await (kind === 'company' ? company(ctx, chosen.row, chosen.asOf) : firm(ctx, chosen.row, chosen.asOf));
  },
};
