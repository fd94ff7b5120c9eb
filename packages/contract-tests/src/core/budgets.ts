/**
 * The default budget of a run, per plan, from the plan's quota (README "Budget"): a nightly run of
 * a monthly plan may spend 1% of its month's calls with the key (thirty nights, 30% of the month at
 * most); a trial 30% of its calls, since a trial is for trying; pay as you go, whose every row is
 * billed, 8,000 rows ($40) and at most 800 calls. The checks that use no key of the run's (the
 * address's admission, the trial call, keys the control API makes) spend none of its quota: their
 * calls come on top, counted. Rows cost nothing on the other plans: 50,000 is a bound, not a price.
 * The planner spends what its cases need within it (plan.ts), usually less.
 */
import { plans, type PlanId } from '@investor-graph/contract';
import type { Budget } from '../client/client.ts';
import type { SuiteConfig, SuiteContext } from './context.ts';
import { boundaryCases, caseCost } from './plan.ts';
import type { Property } from './property.ts';

const SHARE_OF_MONTH = 0.01;
const SHARE_OF_TRIAL = 0.3;
const PAYG_ROWS = 8_000;
const ROWS = 50_000;

/**
 * The calls of the checks among `properties` that use no key of the run's, as this run's flags let
 * them run (their boundary cases: they run once).
 */
export function keylessCalls(config: SuiteConfig, properties: readonly Property[]): number {
  const rowCost = (rows: number) => (config.plan === 'payg' ? Math.max(rows, plans.payg.min_rows_per_call!) : rows);
  const ctx = { config, control: !!config.useControl, client: { rowCost } } as unknown as SuiteContext;
  return properties
    .filter((p) => p.keyless && (!config.only?.length || config.only.includes(p.id)) && !p.skip(ctx))
    .reduce(
      (sum, p) => sum + boundaryCases(ctx, p).reduce((n: number, input) => n + caseCost(ctx, p, input).calls, 0),
      0,
    );
}

export function defaultBudget(plan: PlanId, keyless = 0): Budget & { why: string } {
  const rule = plans[plan];
  const limit = rule.calls_limit;
  const beside = keyless ? `, and ${keyless} without it` : '';
  if (plan === 'payg') {
    const calls = PAYG_ROWS / rule.min_rows_per_call!;
    return {
      calls: calls + keyless,
      rows: PAYG_ROWS,
      why:
        `pay as you go's default: ${PAYG_ROWS.toLocaleString('en')} rows ` +
        `($${(PAYG_ROWS * rule.price_usd_per_row!).toFixed(0)}), ${calls} calls with the ` +
        `key${beside}`,
    };
  }
  if (limit === null)
    return { calls: 500 + keyless, rows: ROWS, why: `the ${plan} plan's default: 500 calls with the key${beside}` };
  const trial = rule.calls_period === 'P7D';
  const share = trial ? SHARE_OF_TRIAL : SHARE_OF_MONTH;
  return {
    calls: Math.floor(limit * share) + keyless,
    rows: ROWS,
    why:
      `the ${plan} plan's default: ${share * 100}% of its ${limit.toLocaleString('en')} ` +
      `calls${trial ? '' : ' a month'} with the key${beside}`,
  };
}
