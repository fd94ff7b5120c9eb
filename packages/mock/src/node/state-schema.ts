/**
 * The state database's schema (version, tables, marks) and how a key's record maps to its row.
 */
import { isPlanId } from '@investor-graph/contract/plans';
import type { KeyRecord } from '../engine/key-store.ts';

/** The schema this kit writes and reads; a file with a higher one came from a newer kit. */
export const schemaVersion = 1;
/** `PRAGMA application_id`: marks a database as this mock's state ('IGK1'). */
export const applicationId = 0x49474b31;
export const schema = `
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE keys (
  key_id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL,
  prefix TEXT NOT NULL,
  last4 TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER,
  email_hash TEXT,
  calls_used INTEGER NOT NULL CHECK (calls_used >= 0),
  period_start INTEGER,
  period_end INTEGER,
  balance_rows INTEGER CHECK (balance_rows IS NULL OR balance_rows >= 0)
) STRICT;
CREATE INDEX keys_by_email ON keys (email_hash, created_at) WHERE email_hash IS NOT NULL;
PRAGMA application_id = ${applicationId};
PRAGMA user_version = ${schemaVersion};
`;

export interface KeyRow {
  key_id: string;
  hash: string;
  plan: string;
  prefix: string;
  last4: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  email_hash: string | null;
  calls_used: number;
  period_start: number | null;
  period_end: number | null;
  balance_rows: number | null;
}

export const columns = 'key_id, hash, plan, prefix, last4, created_at, expires_at, revoked_at, email_hash, calls_used, period_start, period_end, balance_rows';

export function toRecord(row: KeyRow): KeyRecord {
  if (!isPlanId(row.plan)) throw new Error(`[investor-graph mock] the state database holds key ${row.key_id} of an unknown plan "${row.plan}"`);
  return {
    keyId: row.key_id, hash: row.hash, plan: row.plan, prefix: row.prefix, last4: row.last4, createdAt: row.created_at,
    expiresAt: row.expires_at, revokedAt: row.revoked_at, emailHash: row.email_hash, callsUsed: row.calls_used,
    periodStart: row.period_start, periodEnd: row.period_end, balanceRows: row.balance_rows,
  };
}

export const toRow = (r: KeyRecord): KeyRow => ({
  key_id: r.keyId, hash: r.hash, plan: r.plan, prefix: r.prefix, last4: r.last4, created_at: r.createdAt,
  expires_at: r.expiresAt, revoked_at: r.revokedAt, email_hash: r.emailHash, calls_used: r.callsUsed,
  period_start: r.periodStart, period_end: r.periodEnd, balance_rows: r.balanceRows,
});

export const prefixed = (row: KeyRow): Record<string, string | number | null> => Object.fromEntries(Object.entries(row).map(([k, v]) => [`$${k}`, v]));
