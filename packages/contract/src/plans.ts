/**
 * The plan table, read from `x-plans` of the contract (through the generated plans.json) so that no
 * package copies a plan number. The k6 scripts read the same JSON file.
 */
import table from './generated/plans.json' with { type: 'json' };

export type PlanId = 'trial' | 'team' | 'business' | 'enterprise' | 'payg';

export interface PlanRule {
  id: PlanId;
  name: string;
  price_usd_per_month: number | null;
  /** Pay as you go only: dollars per row served. */
  price_usd_per_row?: number;
  /** Pay as you go only: the rows a call costs at the least. */
  min_rows_per_call?: number;
  calls_limit: number | null;
  /** ISO 8601 duration of the call quota's period: P7D (the trial's life) or P1M (calendar month). */
  calls_period: 'P7D' | 'P1M' | null;
  key_lifetime_days: number | null;
  rows_per_page: number;
  rate_per_second: number;
  round_lag_days: number;
  changes_feed: boolean;
  exports: boolean;
  /** The upgrade ladder: the plan a `subscribe` action offers next (null at the top). */
  next_plan_up: PlanId | null;
  /** The fields of this plan that the spec does not give and DECISIONS.md decides. */
  assumed: string[];
}

/** The plans, in the plan table's order. */
export const planIds: readonly PlanId[] = Object.keys(table.plans) as PlanId[];

/** The default page size when `limit` is absent (or the plan's page size if lower). */
export const defaultLimit: number = table.default_limit;

/** How many trial keys the whole service issues a minute at most (DECISIONS.md#trial-key-response). */
export const trialKeysPerMinute: number = table.trial_keys_per_minute;

/**
 * Days an ended trial's key is still known (402 trial_expired) before it is unknown (DECISIONS.md#trial-key-response).
 */
export const trialKeyKeptDays: number = table.trial_key_kept_days;

/** Calls without a valid key an address may make: a burst, then a rate (DECISIONS.md#failed-authentication). */
export const failedAuth: { burst: number; perSecond: number } = {
  burst: table.failed_auth_burst,
  perSecond: table.failed_auth_per_second,
};

export const plans: Readonly<Record<PlanId, PlanRule>> = Object.fromEntries(
  planIds.map((id) => [id, { id, ...(table.plans[id] as Omit<PlanRule, 'id'>) }]),
) as Record<PlanId, PlanRule>;

/**
 * Throws unless every `next_plan_up` names a plan (or is null) and the ladder climbs from every plan
 * to a top: a typo would make every 402 a 500, a loop would hang firstPlanWith.
 */
export function checkLadder(table: Readonly<Record<string, { next_plan_up: string | null }>>): void {
  const ids = Object.keys(table);
  for (const start of ids) {
    const seen = new Set<string>();
    for (let at: string | null = start; at !== null; at = table[at]!.next_plan_up) {
      if (!ids.includes(at))
        throw new Error(`[investor-graph] x-plans: next_plan_up "${at}" is not a plan (${ids.join(', ')})`);
      if (seen.has(at))
        throw new Error(`[investor-graph] x-plans: the upgrade ladder from ${start} loops back to ${at}`);
      seen.add(at);
    }
  }
}
checkLadder(plans);

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (planIds as readonly string[]).includes(value);
}

/** The plan above `id` on the contract's upgrade ladder, for `subscribe` actions; null at the top. */
export function nextPlanUp(id: PlanId): PlanId | null {
  return plans[id].next_plan_up;
}

/** The first plan up the ladder from the trial that has `feature`: what a 402 for a missing feature suggests. */
export function firstPlanWith(feature: 'changes_feed' | 'exports'): PlanId {
  for (let at: PlanId | null = 'trial'; at !== null; at = nextPlanUp(at)) if (plans[at][feature]) return at;
  throw new Error(`[investor-graph] no plan on the upgrade ladder has ${feature}`);
}
