/**
 * The state database's schema (version, tables, marks), how a file is checked and brought up to
 * it when opened, and how a key's record maps to its row.
 */
import type { DatabaseSync } from 'node:sqlite';
import { isPlanId } from '@investor-graph/contract/plans';
import type { KeyRecord } from '@investor-graph/engine/adapter';
import { isSavedClock, StateFileError } from './state-file.ts';

/** The schema this kit writes and reads; a file with a higher one came from a newer kit. */
export const schemaVersion = 2;
/** `PRAGMA application_id`: marks a database as this mock's state ('IGK1'). */
export const applicationId = 0x49474b31;
/**
 * Token buckets every mock on the file shares (sqlite-buckets.ts): a client address's budgets and
 * the trial cap's window, on the wall clock, which processes on one machine share.
 */
const bucketsTable = `CREATE TABLE buckets (
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  tokens REAL NOT NULL,
  at INTEGER NOT NULL,
  expires INTEGER NOT NULL,
  PRIMARY KEY (kind, name)
) STRICT;
CREATE INDEX buckets_by_expiry ON buckets (expires);`;

/** What brings a file of each older schema to the next (applied in order, under the write lock). */
export const upgrades: Record<number, string> = {
  1: `${bucketsTable}\nPRAGMA user_version = 2;`,
};

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
${bucketsTable}
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

export const columns =
  'key_id, hash, plan, prefix, last4, created_at, expires_at, revoked_at, email_hash, calls_used, period_start, ' +
  'period_end, balance_rows';

export function toRecord(row: KeyRow): KeyRecord {
  if (!isPlanId(row.plan))
    throw new Error(
      `[investor-graph mock] the state database holds key ${row.key_id} of an unknown plan "${row.plan}"`,
    );
  return {
    keyId: row.key_id,
    hash: row.hash,
    plan: row.plan,
    prefix: row.prefix,
    last4: row.last4,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    emailHash: row.email_hash,
    callsUsed: row.calls_used,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    balanceRows: row.balance_rows,
  };
}

export const toRow = (r: KeyRecord): KeyRow => ({
  key_id: r.keyId,
  hash: r.hash,
  plan: r.plan,
  prefix: r.prefix,
  last4: r.last4,
  created_at: r.createdAt,
  expires_at: r.expiresAt,
  revoked_at: r.revokedAt,
  email_hash: r.emailHash,
  calls_used: r.callsUsed,
  period_start: r.periodStart,
  period_end: r.periodEnd,
  balance_rows: r.balanceRows,
});

export const prefixed = (row: KeyRow): Record<string, string | number | null> =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [`$${k}`, v]));

/** A new file gets the schema; an existing one must be this mock's, of a version it reads, and whole. */
export function prepareSchema(db: DatabaseSync, file: string): void {
  const pragma = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0];
  // Small pages: a counted call rewrites one page into the WAL, and 1 KiB of it costs a fifth
  // less than the default 4 KiB (measured). It takes effect only on an empty database.
  db.exec('PRAGMA page_size = 1024');
  // Looked at and, when empty, filled under the write lock: two mocks starting on one new file
  // cannot both find it empty.
  db.exec('BEGIN IMMEDIATE');
  let tables: string[];
  let id: unknown;
  try {
    tables = (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((t) => t.name);
    id = pragma('application_id');
    if (id === 0 && tables.length === 0) db.exec(schema);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
  if (id === 0 && tables.length === 0) return;
  if (id !== applicationId)
    throw new StateFileError(
      file,
      `is an SQLite database of something else (tables: ` +
        `${tables.join(', ') || 'none'}), not the mock's state; name another file`,
    );
  const version = Number(pragma('user_version'));
  if (version > schemaVersion)
    throw new StateFileError(
      file,
      `was written by a newer version of the mock (state schema ${version}; this one reads up to ` +
        `${schemaVersion}); upgrade @investor-graph/mock or name another file`,
    );
  const check = String(pragma('quick_check'));
  if (check !== 'ok') throw new StateFileError(file, `is damaged (SQLite quick_check: ${check}); nothing was changed`);
  if (version < schemaVersion) upgrade(db);
  const clock = (db.prepare("SELECT value FROM meta WHERE name = 'clock'").get() as { value: string } | undefined)
    ?.value;
  if (clock !== undefined && !isSavedClock(clock))
    throw new StateFileError(file, `holds a clock that is not one (${clock.slice(0, 80)}); nothing was changed`);
}

/** Brings a file of an older schema up to this one, under the write lock (another mock may be doing it too). */
function upgrade(db: DatabaseSync): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    for (
      let version = Number(Object.values(db.prepare('PRAGMA user_version').get() ?? {})[0]);
      version < schemaVersion;
      version++
    )
      db.exec(upgrades[version]!);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
