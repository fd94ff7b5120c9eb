/**
 * What a plan with a round lag sees (DECISIONS.md#round-lag): rounds announced within the lag
 * before the data's as-of are left out, and a company's `last_round` is the latest one it may see.
 */
import type { PlanRule } from '@investor-graph/contract/plans';
import type { ResourceName, Row } from '@investor-graph/fixtures';
import type { Store } from './store.ts';

const DAY = 86_400_000;

/** The last announcement date the plan may see, or null when it sees every round. */
export function lagCutoff(store: Store, plan: PlanRule): string | null {
  return plan.round_lag_days > 0 ? new Date(store.asOf - plan.round_lag_days * DAY).toISOString().slice(0, 10) : null;
}

export const roundVisible = (cutoff: string | null) => (row: Row): boolean => cutoff === null || (row.announced_on as string) <= cutoff;

/** A row as the plan sees it: a company's last round within the cutoff. */
export function viewRow(store: Store, resource: ResourceName, row: Row, cutoff: string | null): Row {
  if (resource !== 'company' || cutoff === null) return row;
  const last = row.last_round as Row | null;
  if (!last || (last.announced_on as string) <= cutoff) return row;
  const visible = store.nestedRows('listCompanyRounds', row.slug as string).filter(roundVisible(cutoff));
  const latest = visible.sort((a, b) => (a.announced_on as string).localeCompare(b.announced_on as string)).pop();
  return { ...row, last_round: latest ? { id: latest.id, stage: latest.stage, announced_on: latest.announced_on, amount_usd: latest.amount_usd } : null };
}
