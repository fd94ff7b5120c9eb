/**
 * The mock's state in an SQLite database file (`--state FILE`), through Node's built-in node:sqlite:
 * keys (hashes only), counters, balances, trial e-mail hashes, the clock and the cursor secret.
 * Several mock processes may open one file: each call's admission and count are one `BEGIN
 * IMMEDIATE` transaction, so SQLite's lock keeps quotas, balances and trials exact across them.
 *
 * Durability (the mock README, "State across restarts and processes"): WAL with synchronous=NORMAL by default. A
 * transaction is in the WAL file before its call is answered, so a killed or crashed mock loses
 * nothing it answered; a power loss or an OS crash may lose the last transactions since the WAL was
 * last synced (at a checkpoint), never the database's consistency. `synchronous: 'full'` fsyncs the
 * WAL at every commit, so not even a power loss loses an answered call, at about half the counted
 * calls a second on this machine (BENCHMARKS.md).
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { isPlanId } from '@investor-graph/contract/plans';
import { keyPrefix } from '../engine/accounts/key-records.ts';
import { admitAndChargeIn, refundIn, type ChargeOutcome, type ChargeStep } from '../engine/accounts/metering.ts';
import { insertTrialIn } from '../engine/accounts/trials.ts';
import { ProblemError } from '../engine/problems.ts';
import type { KeyRecord, KeyStore, MetaName } from '../engine/key-store.ts';

/** The schema this kit writes and reads; a file with a higher one came from a newer kit. */
export const schemaVersion = 1;
/** `PRAGMA application_id`: marks a database as this mock's state ('IGK1'). */
const applicationId = 0x49474b31;
/**
 * How long a call waits for another process's write lock. Mocks hold it for well under a
 * millisecond a call, so waiting this long means something else holds it: the call gets 503.
 */
const busyTimeoutMs = 2000;
const SQLITE_BUSY = 5;

/** SQLITE_BUSY, with or without an extended code (BUSY_RECOVERY, BUSY_SNAPSHOT...). */
const isBusy = (error: unknown): boolean => ((error as { errcode?: number }).errcode ?? -1) % 256 === SQLITE_BUSY;

/** Sleeps this thread (opening is synchronous, as node:sqlite is). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const schema = `
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

/** How far a commit goes before its call is answered: into the WAL file, or fsynced to the disk. */
export type StateSync = 'normal' | 'full';

/** A state file the mock will not open: the message names the file and what is wrong with it. */
export class StateFileError extends Error {
  constructor(file: string, problem: string) {
    super(`[investor-graph mock] --state ${file}: ${problem}`);
  }
}

interface KeyRow {
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

const columns = 'key_id, hash, plan, prefix, last4, created_at, expires_at, revoked_at, email_hash, calls_used, period_start, period_end, balance_rows';

function toRecord(row: KeyRow): KeyRecord {
  if (!isPlanId(row.plan)) throw new Error(`[investor-graph mock] the state database holds key ${row.key_id} of an unknown plan "${row.plan}"`);
  return {
    keyId: row.key_id, hash: row.hash, plan: row.plan, prefix: row.prefix, last4: row.last4, createdAt: row.created_at,
    expiresAt: row.expires_at, revokedAt: row.revoked_at, emailHash: row.email_hash, callsUsed: row.calls_used,
    periodStart: row.period_start, periodEnd: row.period_end, balanceRows: row.balance_rows,
  };
}

const toRow = (r: KeyRecord): KeyRow => ({
  key_id: r.keyId, hash: r.hash, plan: r.plan, prefix: r.prefix, last4: r.last4, created_at: r.createdAt,
  expires_at: r.expiresAt, revoked_at: r.revokedAt, email_hash: r.emailHash, calls_used: r.callsUsed,
  period_start: r.periodStart, period_end: r.periodEnd, balance_rows: r.balanceRows,
});

export class SqliteKeyStore implements KeyStore {
  private readonly db: DatabaseSync;
  private readonly statements: Record<'begin' | 'commit' | 'rollback' | 'byHash' | 'byId' | 'byEmail' | 'insert' | 'save' | 'list' | 'getMeta' | 'setMeta', StatementSync>;
  private depth = 0;
  private readonly file: string;

  /** Opens (or creates, mode 0600) the state database; refuses a file that is not one, naming why. */
  static open(file: string, options: { log?: (line: string) => void; synchronous?: StateSync } = {}): SqliteKeyStore {
    finishMigration(file);
    const kind = kindOf(file);
    if (kind === 'json') {
      if (SqliteKeyStore.migrateJson(file)) {
        options.log?.(`[investor-graph mock] --state ${file}: migrated the JSON state file of earlier versions into a database; the JSON is kept as ${file}.v1.json (mode 0600)`);
      }
    } else if (kind === 'other') {
      throw new StateFileError(file, 'is neither a state database of the mock nor a JSON state file of earlier versions; move it away or name another file');
    } else if (kind === 'none') {
      try {
        closeSync(openSync(file, 'wx', 0o600));
      } catch (error) {
        // Another mock started on the same new file a moment before: it is theirs to fill, and ours to share.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new StateFileError(file, `cannot be created: ${(error as Error).message}`);
      }
    }
    return new SqliteKeyStore(file, options.synchronous ?? 'normal');
  }

  private constructor(file: string, synchronous: StateSync) {
    this.file = file;
    try {
      this.db = new DatabaseSync(file, { timeout: busyTimeoutMs });
    } catch (error) {
      throw new StateFileError(file, `cannot be opened as a database: ${(error as Error).message}`);
    }
    // Mocks starting together on one file: some steps of opening (switching to WAL, a reader
    // meeting another's recovery) answer SQLITE_BUSY at once, without waiting on the busy timeout.
    // Opening is idempotent, so it is tried again until the timeout has passed twice.
    const started = Date.now();
    const until = started + 2 * busyTimeoutMs;
    for (;;) {
      try {
        this.prepareSchema();
        this.db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'};`);
        break;
      } catch (error) {
        if (isBusy(error) && Date.now() < until) {
          pause(10 + Math.floor(Math.random() * 40));
          continue;
        }
        this.db.close();
        if (error instanceof StateFileError) throw error;
        throw new StateFileError(file, isBusy(error) ? `stayed locked by another process while opening (${Math.round((Date.now() - started) / 1000)} s); nothing was changed` : `is damaged or not a database: ${(error as Error).message}`);
      }
    }
    const prepare = (sql: string) => this.db.prepare(sql);
    this.statements = {
      begin: prepare('BEGIN IMMEDIATE'),
      commit: prepare('COMMIT'),
      rollback: prepare('ROLLBACK'),
      byHash: prepare(`SELECT ${columns} FROM keys WHERE hash = ?`),
      byId: prepare(`SELECT ${columns} FROM keys WHERE key_id = ?`),
      byEmail: prepare(`SELECT ${columns} FROM keys WHERE email_hash = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`),
      insert: prepare(`INSERT INTO keys (${columns}) VALUES (${columns.split(', ').map((c) => `$${c}`).join(', ')}) ON CONFLICT (hash) DO NOTHING`),
      save: prepare('UPDATE keys SET calls_used = ?, period_start = ?, period_end = ?, balance_rows = ?, revoked_at = ? WHERE key_id = ?'),
      list: prepare(`SELECT ${columns} FROM keys ORDER BY rowid`),
      getMeta: prepare('SELECT value FROM meta WHERE name = ?'),
      setMeta: prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    };
  }

  /** A new file gets the schema; an existing one must be this mock's, of a version it reads, and whole. */
  private prepareSchema(): void {
    const pragma = (name: string) => Object.values(this.db.prepare(`PRAGMA ${name}`).get() ?? {})[0];
    // Small pages: a counted call rewrites one page into the WAL, and 1 KiB of it costs a fifth
    // less than the default 4 KiB (measured). It takes effect only on an empty database.
    this.db.exec('PRAGMA page_size = 1024');
    // Looked at and, when empty, filled under the write lock: two mocks starting on one new file
    // cannot both find it empty.
    this.db.exec('BEGIN IMMEDIATE');
    let tables: string[];
    let id: unknown;
    try {
      tables = (this.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
      id = pragma('application_id');
      if (id === 0 && tables.length === 0) this.db.exec(schema);
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
    if (id === 0 && tables.length === 0) return;
    if (id !== applicationId) throw new StateFileError(this.file, `is an SQLite database of something else (tables: ${tables.join(', ') || 'none'}), not the mock's state; name another file`);
    const version = Number(pragma('user_version'));
    if (version > schemaVersion) throw new StateFileError(this.file, `was written by a newer version of the mock (state schema ${version}; this one reads up to ${schemaVersion}); upgrade @investor-graph/mock or name another file`);
    const check = String(pragma('quick_check'));
    if (check !== 'ok') throw new StateFileError(this.file, `is damaged (SQLite quick_check: ${check}); nothing was changed`);
    const clock = (this.db.prepare("SELECT value FROM meta WHERE name = 'clock'").get() as { value: string } | undefined)?.value;
    if (clock !== undefined && !isSavedClock(clock)) throw new StateFileError(this.file, `holds a clock that is not one (${clock.slice(0, 80)}); nothing was changed`);
  }

  /**
   * Migrates a JSON state file once: the database is built beside it as FILE.migrating (created
   * exclusively: it is also the lock that keeps a second mock from migrating at the same time),
   * the JSON is kept as FILE.v1.json, and the database is renamed over the JSON. A crash at any
   * point leaves the JSON in place or the database finished. Returns false when another mock did
   * the migration while this one waited.
   */
  private static migrateJson(file: string): boolean {
    const building = `${file}.migrating`;
    try {
      closeSync(openSync(building, 'wx', 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new StateFileError(file, `cannot be migrated: ${(error as Error).message}`);
      return waitForMigration(file, building);
    }
    // The lock is ours. Another mock may have finished a moment before we took it: then the file
    // is the database already, and there is nothing to do.
    let state: JsonState;
    try {
      if (kindOf(file) !== 'json') {
        removeDatabase(building);
        return false;
      }
      state = checkJson(file, readState(file));
      const store = new SqliteKeyStore(building, 'full');
      try {
        store.transaction(() => {
          // Earlier versions kept a preset key's text up to its last '_' as its prefix: no longer.
          for (const { tokens: _t, filledAt: _f, ...record } of state.keys) store.insert({ ...record, prefix: keyPrefix(record.prefix) });
          store.setMeta('clock', JSON.stringify({ at: Math.round(Date.parse(state.clock.now)), real: Date.now(), frozen: state.clock.frozen }));
          store.setMeta('cursor_secret', state.cursorSecret);
        });
        // Back to a single file before the rename: the WAL's contents go into the database.
        store.checkpoint();
      } finally {
        store.close();
      }
    } catch (error) {
      removeDatabase(building);
      throw error instanceof StateFileError ? error : new StateFileError(file, `could not be migrated (${(error as Error).message}); nothing was changed`);
    }
    // Kept as it was but for what it should never have held (a preset key's text in its prefix),
    // and readable by its owner only: it holds the cursor secret. Written only once the database
    // is whole: finishMigration reads a FILE.v1.json newer than FILE.migrating as that promise.
    const kept = { ...state, keys: state.keys.map((k) => ({ ...k, prefix: keyPrefix(k.prefix) })) };
    writeFileSync(`${file}.v1.json.tmp`, JSON.stringify(kept), { mode: 0o600 });
    renameSync(`${file}.v1.json.tmp`, `${file}.v1.json`);
    try {
      renameSync(building, file);
    } catch (error) {
      // A mock starting meanwhile finished it for us (finishMigration).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || kindOf(file) !== 'sqlite') throw new StateFileError(file, `cannot finish its migration: ${(error as Error).message}`);
    }
    return true;
  }

  transaction<T>(work: () => T): T {
    if (this.depth > 0) return work();
    try {
      this.statements.begin.run();
    } catch (error) {
      // Locked longer than any call of a mock holds it: something else (a sqlite3 shell in a
      // transaction, a backup) holds the file. Not the client's fault, nor a failure of the mock.
      if (isBusy(error)) {
        throw new ProblemError('state_busy', `The mock's state database (--state) stayed locked by another process for ${busyTimeoutMs / 1000} s; nothing was counted. Retry, or end what holds it.`, { headers: { 'retry-after': '1' } });
      }
      throw error;
    }
    this.depth++;
    try {
      const result = work();
      this.statements.commit.run();
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.statements.rollback.run();
      throw error;
    } finally {
      this.depth--;
    }
  }

  byHash(hash: string): KeyRecord | undefined {
    const row = this.statements.byHash.get(hash) as KeyRow | undefined;
    return row && toRecord(row);
  }

  byId(keyId: string): KeyRecord | undefined {
    const row = this.statements.byId.get(keyId) as KeyRow | undefined;
    return row && toRecord(row);
  }

  trialByEmail(emailHash: string): KeyRecord | undefined {
    const row = this.statements.byEmail.get(emailHash) as KeyRow | undefined;
    return row && toRecord(row);
  }

  insert(record: KeyRecord): boolean {
    return Number(this.statements.insert.run(prefixed(toRow(record))).changes) === 1;
  }

  save(record: KeyRecord): void {
    this.statements.save.run(record.callsUsed, record.periodStart, record.periodEnd, record.balanceRows, record.revokedAt, record.keyId);
  }

  list(): KeyRecord[] {
    return (this.statements.list.all() as unknown as KeyRow[]).map(toRecord);
  }

  admitAndCharge(step: ChargeStep): ChargeOutcome {
    return admitAndChargeIn(this, step);
  }

  refund(keyId: string, counted: boolean, cost: number): void {
    refundIn(this, keyId, counted, cost);
  }

  insertTrial(record: KeyRecord, now: number, beforeInsert: () => void): boolean {
    return insertTrialIn(this, record, now, beforeInsert);
  }

  getMeta(name: MetaName): string | undefined {
    return (this.statements.getMeta.get(name) as { value: string } | undefined)?.value;
  }

  setMeta(name: MetaName, value: string): void {
    this.statements.setMeta.run(name, value);
  }

  /** Moves what the WAL holds into the database file itself. */
  checkpoint(): void {
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

const prefixed = (row: KeyRow): Record<string, string | number | null> => Object.fromEntries(Object.entries(row).map(([k, v]) => [`$${k}`, v]));

function isSavedClock(text: string): boolean {
  try {
    const c = JSON.parse(text) as Record<string, unknown>;
    return Number.isFinite(c.at) && Number.isFinite(c.real) && typeof c.frozen === 'boolean';
  } catch {
    return false;
  }
}

/** What a file at `file` is, from its first bytes. */
function kindOf(file: string): 'none' | 'sqlite' | 'json' | 'other' {
  if (!existsSync(file)) return 'none';
  const head = Buffer.alloc(16);
  let read: number;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, head, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    // A folder, a file this user may not read: said in one line, as every other refusal.
    throw new StateFileError(file, `cannot be read: ${(error as Error).message}`);
  }
  // An empty file is a database SQLite has not written to yet (or one made for us to fill).
  if (read === 0 || head.toString('latin1', 0, 16) === 'SQLite format 3\0') return 'sqlite';
  return head.toString('utf8', 0, read).trimStart().startsWith('{') ? 'json' : 'other';
}

// --- the JSON state file of earlier versions (the whole state, rewritten on every call) ---

interface JsonState {
  version: 1;
  clock: { now: string; frozen: boolean };
  cursorSecret: string;
  keys: (KeyRecord & { tokens?: number; filledAt?: number })[];
}

/** Checks a JSON state file field by field; the first thing wrong is named, and nothing is migrated. */
function checkJson(file: string, text: string): JsonState {
  let state: JsonState;
  try {
    state = JSON.parse(text) as JsonState;
  } catch (error) {
    throw new StateFileError(file, `looks like a JSON state file but is not valid JSON (${(error as Error).message}); nothing was changed`);
  }
  const wrong = (what: string) => new StateFileError(file, `is a JSON state file with ${what}; nothing was changed (fix or remove it)`);
  if (state?.version !== 1) throw wrong(`version ${JSON.stringify(state?.version)}, not 1`);
  if (!Number.isFinite(Date.parse(state.clock?.now)) || typeof state.clock?.frozen !== 'boolean') throw wrong('no valid clock');
  if (typeof state.cursorSecret !== 'string' || !state.cursorSecret) throw wrong('no cursorSecret');
  if (!Array.isArray(state.keys)) throw wrong('no keys list');
  const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  const time = (v: unknown) => v === null || Number.isSafeInteger(v);
  state.keys.forEach((k, i) => {
    const field = (name: string, value: unknown) => wrong(`keys[${i}].${name} = ${JSON.stringify(value)?.slice(0, 40)}`);
    // Named, not quoted: a prefix of earlier versions may hold most of a preset key's text.
    const textField = (name: string) => wrong(`a keys[${i}].${name} that is not one`);
    if (typeof k.keyId !== 'string' || !/^[0-9a-f]{64}$/.test(k.hash)) throw textField('keyId or hash');
    if (!isPlanId(k.plan)) throw field('plan', k.plan);
    if (!count(k.callsUsed)) throw field('callsUsed', k.callsUsed);
    if (k.balanceRows !== null && !count(k.balanceRows)) throw field('balanceRows', k.balanceRows);
    for (const name of ['createdAt', 'expiresAt', 'revokedAt', 'periodStart', 'periodEnd'] as const) if (!time(k[name]) || (name === 'createdAt' && k[name] === null)) throw field(name, k[name]);
    if (typeof k.prefix !== 'string' || typeof k.last4 !== 'string' || (k.emailHash !== null && typeof k.emailHash !== 'string')) throw textField('prefix, last4 or emailHash');
  });
  return state;
}

/**
 * A migration that stopped after its database was whole (FILE.v1.json, written only then, is newer
 * than FILE.migrating) is finished, not started over. A FILE.v1.json older than FILE.migrating is
 * an earlier migration's: that FILE.migrating may be half built, and is left to its lock holder.
 */
function finishMigration(file: string): void {
  const building = `${file}.migrating`;
  const kept = `${file}.v1.json`;
  if (!existsSync(building) || !existsSync(kept) || kindOf(file) === 'sqlite') return;
  try {
    if (statSync(kept).mtimeMs < statSync(building).mtimeMs) return;
    renameSync(building, file);
  } catch (error) {
    // Another mock finished it first.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new StateFileError(file, `cannot finish its migration: ${(error as Error).message}`);
  }
}

/** A database file and what SQLite keeps beside it. */
function removeDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
}

/** Another mock holds FILE.migrating: waits for it to put the database in place (a few seconds at most). */
function waitForMigration(file: string, building: string): false {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    if (kindOf(file) === 'sqlite') return false;
    pause(100);
  }
  throw new StateFileError(file, `is a JSON state file and ${building} is there: another mock is migrating it, or a migration stopped halfway. With no mock running on it, remove ${building} and start again; nothing was changed`);
}

function readState(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new StateFileError(file, `cannot be read: ${(error as Error).message}`);
  }
}
