/**
 * The fields of a record that are computed from other records (DECISIONS.md#resource-fields): a
 * company's `total_raised_usd` and `last_round` from its rounds, a firm's `portfolio_count` from its
 * edges. One definition each, kept true here as a rebuild changes the rows they come from
 * (`keepDerived`, `rederive`: which records move, and to what; rebuilding-store.ts applies them) and
 * used where a round lag leaves some of them out (round-lag.ts), so that a record and the lists it
 * is computed from never disagree.
 */
import type { ResourceName, Row } from '@investor-graph/dataset-tools';
import type { IndexName } from './store.ts';

/**
 * A company's fields computed from its rounds: the sum of their
 * public amounts (null when none is public) and the latest one.
 */
export interface CompanyDerived {
  total_raised_usd: number | null;
  last_round: { id: unknown; stage: unknown; announced_on: unknown; amount_usd: unknown } | null;
}

/** The later of two rounds: by announcement date, then by id (a tie is rare, but must go one way on every store). */
const later = (a: Row, b: Row): Row => {
  const [x, y] = [a.announced_on as string, b.announced_on as string];
  return x > y || (x === y && (a.id as string) > (b.id as string)) ? a : b;
};

export function companyFromRounds(rounds: readonly Row[]): CompanyDerived {
  let total = 0;
  let latest: Row | null = null;
  for (const round of rounds) {
    if (typeof round.amount_usd === 'number') total += round.amount_usd;
    latest = latest ? later(latest, round) : round;
  }
  return {
    total_raised_usd: total || null,
    last_round: latest
      ? { id: latest.id, stage: latest.stage, announced_on: latest.announced_on, amount_usd: latest.amount_usd }
      : null,
  };
}

/** Whether a company row already carries these derived fields. */
export function sameCompanyDerived(row: Row, derived: CompanyDerived): boolean {
  return (
    row.total_raised_usd === derived.total_raised_usd &&
    JSON.stringify(row.last_round ?? null) === JSON.stringify(derived.last_round)
  );
}

/** The distinct companies a firm's edges reach. */
export function portfolioCount(edges: readonly Row[]): number {
  return new Set(edges.map((edge) => edge.company_slug)).size;
}

/** What keeping the derived fields true reads of a store, and how a record's are replaced (rebuilding-store.ts). */
export interface DerivedRows {
  get(resource: ResourceName, key: string): Row | undefined;
  nestedRows(index: IndexName, parentKey: string): Row[];
  /** `current` with `fields` over it, at `at`: an update of its own in the feed. */
  replaceDerived(resource: ResourceName, key: string, current: Row, fields: object, at: string): void;
}

/**
 * An observed company or firm with its derived fields as its
 * rounds and edges make them now, not as the observation has them.
 */
export function keepDerived(rows: DerivedRows, resource: ResourceName, key: string, row: Row, current?: Row): Row {
  if (resource === 'company') return { ...row, ...companyFromRounds(rows.nestedRows('listCompanyRounds', key)) };
  if (resource === 'firm' && typeof current?.portfolio_count === 'number')
    return { ...row, portfolio_count: current.portfolio_count };
  return row;
}

/** After a round or an edge came, changed or went: its company's total and last round, its firm's portfolio count. */
export function rederive(
  rows: DerivedRows,
  resource: ResourceName,
  before: Row | undefined,
  after: Row | undefined,
  at: string,
): void {
  if (resource === 'round') {
    for (const slug of new Set([before?.company_slug, after?.company_slug]))
      if (typeof slug === 'string') refreshCompany(rows, slug, at);
  }
  if (resource === 'investment') {
    const pair = (row: Row | undefined) => (row ? `${row.firm_slug as string}\n${row.company_slug as string}` : null);
    if (pair(before) === pair(after)) return;
    // One after the other, each reading the firm as the last left it: an edge moved between two companies of one firm.
    if (before) refreshFirm(rows, before.firm_slug as string, before.company_slug as string, -1, at);
    if (after) refreshFirm(rows, after.firm_slug as string, after.company_slug as string, 1, at);
  }
}

function refreshCompany(rows: DerivedRows, slug: string, at: string): void {
  const company = rows.get('company', slug);
  if (!company) return;
  const derived = companyFromRounds(rows.nestedRows('listCompanyRounds', slug));
  if (!sameCompanyDerived(company, derived)) rows.replaceDerived('company', slug, company, derived, at);
}

/**
 * A firm's portfolio gains a company with its first edge to it and loses one with its last: the
 * company's investors (a few) are read, not the firm's whole portfolio (thousands at scale).
 */
function refreshFirm(rows: DerivedRows, firmSlug: string, companySlug: string, by: 1 | -1, at: string): void {
  const firm = rows.get('firm', firmSlug);
  if (!firm || typeof firm.portfolio_count !== 'number') return;
  const edges = rows
    .nestedRows('listCompanyInvestors', companySlug)
    .filter((edge) => edge.firm_slug === firmSlug).length;
  // Gained: the edge that came is its only one to the company; lost: none is left.
  if ((by === 1 && edges === 1) || (by === -1 && edges === 0))
    rows.replaceDerived('firm', firmSlug, firm, { portfolio_count: firm.portfolio_count + by }, at);
}
