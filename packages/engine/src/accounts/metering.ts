/**
 * Quota and billing as a client sees them: whether a key may make a call (the table of
 * metering-table.ts, which every store's atomic step runs too), the 401 or 402 of a refusal, and
 * the usage an envelope carries.
 */
import { nextPlanUp, plans } from '@investor-graph/contract/plans';
import type { Schema } from '@investor-graph/contract';
import { ProblemError } from '../problems.ts';
import type { KeyRecord, Refusal } from '../stores/key-store.ts';
import { isoOrNull } from './key-records.ts';
import { decide, readCall } from '../stores/metering-table.ts';

/** `usage` of the envelope, as the contract defines it. */
export type Usage = Schema<'Usage'>;

/**
 * Why the key as stored cannot make this call now, or null: the table's refusal for the call
 * before it is served (no rows yet, so nothing priced). Reads; changes nothing.
 */
export function refusalOf(record: KeyRecord, now: number, counted: boolean): Refusal | null {
  return decide(readCall(record, { now, counted, rows: null }).facts).refusal;
}

/** The 401 or 402 of a refusal, as DECISIONS.md words it. */
export function refusalProblem(refusal: Refusal, record: KeyRecord, cost: number): ProblemError {
  const rule = plans[record.plan];
  switch (refusal) {
    case 'revoked_key':
      return new ProblemError('revoked_key', 'This API key has been revoked.');
    case 'trial_expired':
      return new ProblemError('trial_expired', `The trial ended at ${isoOrNull(record.expiresAt)}.`, {
        plan: 'trial',
        suggested: nextPlanUp('trial'),
      });
    case 'trial_exhausted':
      return new ProblemError(
        'trial_exhausted',
        `The trial's ${rule.calls_limit!.toLocaleString('en')} calls are used up.`,
        { plan: 'trial', suggested: nextPlanUp('trial') },
      );
    case 'quota_exhausted':
      return new ProblemError(
        'quota_exhausted',
        `The ${rule.name} plan includes ${rule.calls_limit!.toLocaleString('en')} ` +
          `calls a month; the quota renews at ${isoOrNull(record.periodEnd)}.`,
        { plan: record.plan },
      );
    case 'insufficient_balance':
      return new ProblemError(
        'insufficient_balance',
        `This call costs ${cost} rows; the prepaid balance is ${record.balanceRows ?? 0} rows.`,
        { plan: 'payg' },
      );
  }
}

/** The usage that goes in a call's envelope. */
export function usageOf(record: KeyRecord, charged = 0): Usage {
  const limit = plans[record.plan].calls_limit;
  return {
    period_start: isoOrNull(record.periodStart),
    period_end: isoOrNull(record.periodEnd),
    calls_used: record.callsUsed,
    calls_limit: limit,
    calls_remaining: limit === null ? null : Math.max(0, limit - record.callsUsed),
    rows_charged: charged,
    balance_rows: record.balanceRows,
  };
}

/**
 * A usage as JSON.stringify writes it, in usageOf's order (its members are ISO times, whole
 * numbers and null, which need no escaping): every call's envelope writes one, and JSON.stringify
 * of the object was a few µs of a record call in the Node server (profiled).
 */
export function usageJson(usage: Usage): string {
  const time = (t: string | null): string => (t === null ? 'null' : `"${t}"`);
  return (
    `{"period_start":${time(usage.period_start)},"period_end":${time(usage.period_end)},` +
    `"calls_used":${usage.calls_used},"calls_limit":${usage.calls_limit},"calls_remaining":${usage.calls_remaining},` +
    `"rows_charged":${usage.rows_charged},"balance_rows":${usage.balance_rows}}`
  );
}
