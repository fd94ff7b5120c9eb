/**
 * Quota and billing: whether a key may make a call, and counting and charging it. The decision is a
 * pure function of the key as stored (`decideCharge`), so a store can run "admit and charge" as one
 * atomic step: a transaction of a database here, a script on a shared server in a store of its own.
 */
import { nextPlanUp, plans } from '@investor-graph/contract/plans';
import type { Schema } from '@investor-graph/contract';
import { ProblemError } from '../problems.ts';
import { isoOrNull, monthBounds, type KeyRecord, type KeyTransactions } from './key-records.ts';

/** `usage` of the envelope, as the contract defines it. */
export type Usage = Schema<'Usage'>;

/** One call to admit and charge: what the store needs to decide it on the key as it stands. */
export interface ChargeStep {
  keyId: string;
  /** The service's clock (quotas, periods and expiry follow it). */
  now: number;
  /** Counted against the quota (every call but the free ones: the account). */
  counted: boolean;
  /** Rows served; null when nothing was (a 304), so nothing is charged. */
  rows: number | null;
  /**
   * Names this charge once (a random part per process and a count), so a store on a server can
   * take back a charge whose answer it never saw, and never apply one twice.
   */
  chargeId?: string;
}

export type Refusal = 'revoked_key' | 'trial_expired' | 'trial_exhausted' | 'quota_exhausted' | 'insufficient_balance';

/** What a store answers for a step: the key as it now stands, and what the call cost or why it is refused. */
export type ChargeOutcome =
  { record: KeyRecord; cost: number; refusal: null } | { record: KeyRecord; cost: number; refusal: Refusal };

/** The part of a key store that admits and charges a call, and refunds one never answered. */
export interface MeterStore {
  /** Decides `step` on the key as stored and, when admitted, keeps what it changed: one atomic step. */
  admitAndCharge(step: ChargeStep): ChargeOutcome | Promise<ChargeOutcome>;
  /** Takes back an admitted call whose answer could not be made: not counted, not charged. */
  refund(keyId: string, counted: boolean, cost: number, chargeId?: string): void | Promise<void>;
}

/** Rows a pay-as-you-go call serving `rows` costs (DECISIONS.md#pay-as-you-go-billing). */
export function costOf(record: KeyRecord, rows: number | null, counted: boolean): number {
  if (rows === null || !counted || record.plan !== 'payg') return 0;
  return Math.max(rows, plans.payg.min_rows_per_call!);
}

/**
 * Decides a step on `record` (a copy the caller keeps only when admitted): rolls a monthly period
 * over, refuses as the key stands (revoked; for a counted call, an expired or used-up trial or
 * quota; a balance too low), or counts the call and charges it.
 */
export function decideCharge(record: KeyRecord, step: ChargeStep): ChargeOutcome {
  const refusal = refusalOf(record, step.now, step.counted);
  const cost = costOf(record, step.rows, step.counted);
  if (refusal) return { record, cost: 0, refusal };
  if (record.plan === 'payg' && cost > (record.balanceRows ?? 0))
    return { record, cost, refusal: 'insufficient_balance' };
  if (step.counted) record.callsUsed++;
  if (record.plan === 'payg') record.balanceRows = (record.balanceRows ?? 0) - cost;
  return { record, cost, refusal: null };
}

/** Why the key cannot make this call now, or null; rolls a monthly period past its end first. */
export function refusalOf(record: KeyRecord, now: number, counted: boolean): Refusal | null {
  if (record.revokedAt !== null) return 'revoked_key';
  if (!counted) return null;
  const rule = plans[record.plan];
  if (rule.calls_period === 'P1M' && record.periodEnd !== null && now >= record.periodEnd) {
    [record.periodStart, record.periodEnd] = monthBounds(now);
    record.callsUsed = 0;
  }
  if (record.plan === 'trial') {
    if (record.expiresAt !== null && now >= record.expiresAt) return 'trial_expired';
    return record.callsUsed >= rule.calls_limit! ? 'trial_exhausted' : null;
  }
  return rule.calls_limit !== null && record.callsUsed >= rule.calls_limit ? 'quota_exhausted' : null;
}

/** A key store's admit-and-charge as one of its transactions (the memory and SQLite stores). */
export function admitAndChargeIn(
  store: Pick<KeyTransactions, 'transaction' | 'byId' | 'save'>,
  step: ChargeStep,
): ChargeOutcome {
  return store.transaction(() => {
    const stored = store.byId(step.keyId);
    if (!stored) throw new Error(`[investor-graph mock] key ${step.keyId} is no longer in the state store`);
    // A copy: what the decision changes reaches the store only when the call is admitted.
    const outcome = decideCharge({ ...stored }, step);
    if (outcome.refusal === null) store.save(outcome.record);
    return outcome;
  });
}

/** A key store's refund as one of its transactions. */
export function refundIn(
  store: Pick<KeyTransactions, 'transaction' | 'byId' | 'save'>,
  keyId: string,
  counted: boolean,
  cost: number,
): void {
  store.transaction(() => {
    const stored = store.byId(keyId);
    if (!stored) return;
    const current = { ...stored };
    if (counted) current.callsUsed = Math.max(0, current.callsUsed - 1);
    if (current.plan === 'payg') current.balanceRows = (current.balanceRows ?? 0) + cost;
    store.save(current);
  });
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
