/**
 * A key's record as the fields of a Redis hash: short names, '' for null, integers as text (the
 * scripts change counts and balances with HINCRBY on that text; JavaScript's numbers read and
 * write them exactly up to 2^53). `v` counts the record's writes, for the updates that check
 * nothing changed since they read it.
 */
import { isPlanId } from '@investor-graph/contract/plans';
import type { KeyRecord } from '@investor-graph/engine/adapter';

const text = (n: number | null): string => (n === null ? '' : String(n));
const numberOrNull = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s));

/** A new record's fields and values, flat (as HSET takes them). */
export function recordFields(r: KeyRecord): string[] {
  return [
    'id',
    r.keyId,
    'h',
    r.hash,
    'plan',
    r.plan,
    'prefix',
    r.prefix,
    'last4',
    r.last4,
    'created',
    text(r.createdAt),
    'expires',
    text(r.expiresAt),
    'revoked',
    text(r.revokedAt),
    'email',
    r.emailHash ?? '',
    'used',
    text(r.callsUsed),
    'pstart',
    text(r.periodStart),
    'pend',
    text(r.periodEnd),
    'balance',
    text(r.balanceRows),
    'v',
    '0',
  ];
}

/** What of a record may change (metering.ts, the control operations), flat. */
export function changedFields(r: KeyRecord): string[] {
  return [
    'used',
    text(r.callsUsed),
    'pstart',
    text(r.periodStart),
    'pend',
    text(r.periodEnd),
    'balance',
    text(r.balanceRows),
    'revoked',
    text(r.revokedAt),
  ];
}

/** A record from HGETALL's flat reply (or its object form), with its version; undefined when there is none. */
export function fromFields(
  reply: string[] | Record<string, string> | null | undefined,
): { record: KeyRecord; version: string } | undefined {
  if (!reply) return undefined;
  const f: Record<string, string> = Array.isArray(reply)
    ? Object.fromEntries(reply.flatMap((v, i) => (i % 2 ? [] : [[v, reply[i + 1]!]])))
    : reply;
  if (f.id === undefined || !isPlanId(f.plan)) return undefined;
  return {
    version: f.v ?? '0',
    record: {
      keyId: f.id,
      hash: f.h ?? '',
      plan: f.plan,
      prefix: f.prefix ?? '',
      last4: f.last4 ?? '',
      createdAt: Number(f.created),
      expiresAt: numberOrNull(f.expires),
      revokedAt: numberOrNull(f.revoked),
      emailHash: f.email || null,
      callsUsed: Number(f.used ?? 0),
      periodStart: numberOrNull(f.pstart),
      periodEnd: numberOrNull(f.pend),
      balanceRows: numberOrNull(f.balance),
    },
  };
}
