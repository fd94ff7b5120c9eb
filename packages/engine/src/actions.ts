/**
 * The actions a problem offers (DECISIONS.md#actions): get a trial key, buy prepaid rows,
 * subscribe one plan up, book a call; which of them go with a problem is its entry's in problems.ts.
 */
import { nextPlanUp, plans, type PlanId } from '@investor-graph/contract/plans';

export type ActionType = 'get_trial_key' | 'buy_prepaid_rows' | 'subscribe' | 'book_call';

export interface Action {
  type: ActionType;
  title: string;
  href: string;
  method: 'GET' | 'POST';
  content_type?: string;
  body?: Record<string, string>;
  plan?: PlanId;
  rows?: number;
}

export const site = 'https://investorgraph.example';
export const unauthenticated = (): ActionType[] => ['get_trial_key', 'book_call'];
// At the top of the upgrade ladder there is no plan to subscribe to.
export const outOfCalls = (plan: PlanId | null): ActionType[] =>
  plan && nextPlanUp(plan) === null
    ? ['buy_prepaid_rows', 'book_call']
    : ['subscribe', 'buy_prepaid_rows', 'book_call'];

/** The trial's call limit as titles write it: once (toLocaleString was a twentieth of a 401's time). */
const trialCalls = plans.trial.calls_limit!.toLocaleString('en');

/** Builds an action item; `subscribe` names the plan suggested. */
export function action(type: ActionType, plan: PlanId | null, suggested?: PlanId | null): Action {
  switch (type) {
    case 'get_trial_key':
      return {
        type,
        title: `Get a free trial key (${plans.trial.key_lifetime_days} days or ${trialCalls} calls)`,
        href: '/api/v1/keys/trial',
        method: 'POST',
        content_type: 'application/json',
        body: { email: '{email}' },
      };
    case 'buy_prepaid_rows':
      return {
        type,
        title: `Buy prepaid rows (pay as you go, $${plans.payg.price_usd_per_row} a row)`,
        href: `${site}/account/rows`,
        method: 'GET',
        rows: 10_000,
      };
    case 'subscribe': {
      // The top plan (no next) is offered as itself.
      const target = suggested ?? nextPlanUp(plan ?? 'trial') ?? plan!;
      return {
        type,
        title: `Subscribe to ${plans[target].name}`,
        href: `${site}/pricing#${target}`,
        method: 'GET',
        plan: target,
      };
    }
    case 'book_call':
      return { type, title: 'Book a call with sales', href: `${site}/book-a-call`, method: 'GET' };
  }
}
