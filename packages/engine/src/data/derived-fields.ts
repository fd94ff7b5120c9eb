/**
 * The fields of a record that are computed from other records (DECISIONS.md#resource-fields): a
 * company's `total_raised_usd` and `last_round` from its rounds, a firm's `portfolio_count` from its
 * edges. One definition each, used where a rebuild changes the rows they come from
 * (rebuilding-store.ts) and where a round lag leaves some of them out (round-lag.ts), so that a
 * record and the lists it is computed from never disagree.
 */
import type { Row } from '@investor-graph/dataset-tools';

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
