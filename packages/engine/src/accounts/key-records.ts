/**
 * A key's record: how a new one is made, what of its text may be kept, and the state and summary a
 * client and the control API see. Pure functions over `KeyRecord`, shared by every part of Accounts.
 */
import { plans, type PlanId, type PlanRule } from '@investor-graph/contract/plans';
import { iso } from '../answer.ts';
import { randomToken } from '../hash.ts';
import { keyPrefix, type KeyRecord } from '../stores/key-store.ts';
import { monthBounds } from '../stores/metering-table.ts';

export { keyPrefix, type KeyRecord } from '../stores/key-store.ts';
export { monthBounds } from '../stores/metering-table.ts';

export const DAY = 86_400_000;

export interface IssuedKey {
  key: string;
  record: KeyRecord;
}

export type KeyStatus = 'active' | 'expired' | 'exhausted' | 'revoked';

/**
 * Prepaid rows of a pay-as-you-go key preset at start (`--key payg=...`, the banner's, MSW's), unless told otherwise.
 */
export const presetPrepaidRows = 100_000;

/**
 * A new key's text: the plan is in it, so a leaked key is easy
 * to recognise (DECISIONS.md#key-scopes-expiry-and-revocation).
 */
export function newKeyText(plan: PlanId): string {
  return `igk_${plan}_${randomToken(32)}`;
}

export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** A new key's record: nothing used yet, the period and lifetime its plan gives. */
export function newRecord(
  plan: PlanId,
  key: string,
  hash: string,
  now: number,
  emailHash: string | null,
  prepaidRows: number,
): KeyRecord {
  const rule = plans[plan];
  const [start, end] =
    rule.calls_period === 'P1M' ? monthBounds(now) : rule.calls_period === 'P7D' ? [now, now + 7 * DAY] : [null, null];
  return {
    keyId: `key_${randomToken(12, '0123456789abcdef')}`,
    hash,
    plan,
    prefix: keyPrefix(key),
    last4: key.slice(-4),
    createdAt: now,
    expiresAt: rule.key_lifetime_days ? now + rule.key_lifetime_days * DAY : null,
    revokedAt: null,
    emailHash,
    callsUsed: 0,
    periodStart: start,
    periodEnd: end,
    balanceRows: plan === 'payg' ? prepaidRows : null,
  };
}

/** The state of a key at `now` (DECISIONS.md#record-and-key-states). */
export function keyStatus(record: KeyRecord, now: number): KeyStatus {
  if (record.revokedAt !== null) return 'revoked';
  if (record.expiresAt !== null && now >= record.expiresAt) return 'expired';
  const limit = plans[record.plan].calls_limit;
  if (record.plan === 'trial' && limit !== null && record.callsUsed >= limit) return 'exhausted';
  return 'active';
}

/** A key as the account and the control API list it: never its text, only prefix and last four. */
export function keySummary(record: KeyRecord, now: number): Record<string, unknown> {
  return {
    key_id: record.keyId,
    plan: record.plan,
    prefix: record.prefix,
    last4: record.last4,
    status: keyStatus(record, now),
    created_at: isoOrNull(record.createdAt),
    expires_at: isoOrNull(record.expiresAt),
    revoked_at: isoOrNull(record.revokedAt),
  };
}

/** A plan as the envelope and the account show it. */
export function planView(plan: PlanRule): Record<string, unknown> {
  return {
    id: plan.id,
    name: plan.name,
    rows_per_page: plan.rows_per_page,
    rate_per_second: plan.rate_per_second,
    round_lag_days: plan.round_lag_days,
    changes_feed: plan.changes_feed,
    exports: plan.exports,
  };
}
