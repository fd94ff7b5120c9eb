/**
 * The state file as a file: what kind it is from its first bytes, the one-line refusal of a file
 * the mock will not open, and the one-time migration of the JSON state file of earlier versions
 * into a database (key-store.ts opens what this leaves).
 */
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isPlanId } from '@investor-graph/contract/plans';
import { keyPrefix, type KeyRecord, type MetaName } from '@investor-graph/engine/adapter';

/** A state file the mock will not open: the message names the file and what is wrong with it. */
export class StateFileError extends Error {
  constructor(file: string, problem: string) {
    super(`[investor-graph mock] --state ${file}: ${problem}`);
  }
}

/** Sleeps this thread (opening is synchronous, as node:sqlite is). */
export function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The database a migration builds: the key store, opened on a file of its own. */
export interface MigrationTarget {
  transaction<T>(work: () => T): T;
  insert(record: KeyRecord): boolean;
  setMeta(name: MetaName, value: string): void;
  checkpoint(): void;
  close(): void;
}

/**
 * Migrates a JSON state file once: the database is built beside it as FILE.migrating (created
 * exclusively: it is also the lock that keeps a second mock from migrating at the same time),
 * the JSON is kept as FILE.v1.json, and the database is renamed over the JSON. A crash at any
 * point leaves the JSON in place or the database finished. Returns false when another mock did
 * the migration while this one waited.
 */
export function migrateJsonState(file: string, build: (path: string) => MigrationTarget): boolean {
  const building = `${file}.migrating`;
  try {
    closeSync(openSync(building, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new StateFileError(file, `cannot be migrated: ${(error as Error).message}`);
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
    const store = build(building);
    try {
      store.transaction(() => {
        // Earlier versions kept a preset key's text up to its last '_' as its prefix: no longer.
        for (const { tokens: _t, filledAt: _f, ...record } of state.keys)
          store.insert({ ...record, prefix: keyPrefix(record.prefix) });
        store.setMeta(
          'clock',
          JSON.stringify({ at: Math.round(Date.parse(state.clock.now)), real: Date.now(), frozen: state.clock.frozen }),
        );
        store.setMeta('cursor_secret', state.cursorSecret);
      });
      // Back to a single file before the rename: the WAL's contents go into the database.
      store.checkpoint();
    } finally {
      store.close();
    }
  } catch (error) {
    removeDatabase(building);
    throw error instanceof StateFileError
      ? error
      : new StateFileError(file, `could not be migrated (${(error as Error).message}); nothing was changed`);
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
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || kindOf(file) !== 'sqlite')
      throw new StateFileError(file, `cannot finish its migration: ${(error as Error).message}`);
  }
  return true;
}

export function isSavedClock(text: string): boolean {
  try {
    const c = JSON.parse(text) as Record<string, unknown>;
    return Number.isFinite(c.at) && Number.isFinite(c.real) && typeof c.frozen === 'boolean';
  } catch {
    return false;
  }
}

/** What a file at `file` is, from its first bytes. */
export function kindOf(file: string): 'none' | 'sqlite' | 'json' | 'other' {
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
    throw new StateFileError(
      file,
      `looks like a JSON state file but is not valid JSON (${(error as Error).message}); nothing was changed`,
    );
  }
  const wrong = (what: string) =>
    new StateFileError(file, `is a JSON state file with ${what}; nothing was changed (fix or remove it)`);
  if (state?.version !== 1) throw wrong(`version ${JSON.stringify(state?.version)}, not 1`);
  if (!Number.isFinite(Date.parse(state.clock?.now)) || typeof state.clock?.frozen !== 'boolean')
    throw wrong('no valid clock');
  if (typeof state.cursorSecret !== 'string' || !state.cursorSecret) throw wrong('no cursorSecret');
  if (!Array.isArray(state.keys)) throw wrong('no keys list');
  const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  const time = (v: unknown) => v === null || Number.isSafeInteger(v);
  state.keys.forEach((k, i) => {
    const field = (name: string, value: unknown) =>
      wrong(`keys[${i}].${name} = ${JSON.stringify(value)?.slice(0, 40)}`);
    // Named, not quoted: a prefix of earlier versions may hold most of a preset key's text.
    const textField = (name: string) => wrong(`a keys[${i}].${name} that is not one`);
    if (typeof k.keyId !== 'string' || !/^[0-9a-f]{64}$/.test(k.hash)) throw textField('keyId or hash');
    if (!isPlanId(k.plan)) throw field('plan', k.plan);
    if (!count(k.callsUsed)) throw field('callsUsed', k.callsUsed);
    if (k.balanceRows !== null && !count(k.balanceRows)) throw field('balanceRows', k.balanceRows);
    for (const name of ['createdAt', 'expiresAt', 'revokedAt', 'periodStart', 'periodEnd'] as const)
      if (!time(k[name]) || (name === 'createdAt' && k[name] === null)) throw field(name, k[name]);
    if (
      typeof k.prefix !== 'string' ||
      typeof k.last4 !== 'string' ||
      (k.emailHash !== null && typeof k.emailHash !== 'string')
    )
      throw textField('prefix, last4 or emailHash');
  });
  return state;
}

/**
 * A migration that stopped after its database was whole (FILE.v1.json, written only then, is newer
 * than FILE.migrating) is finished, not started over. A FILE.v1.json older than FILE.migrating is
 * an earlier migration's: that FILE.migrating may be half built, and is left to its lock holder.
 */
export function finishMigration(file: string): void {
  const building = `${file}.migrating`;
  const kept = `${file}.v1.json`;
  if (!existsSync(building) || !existsSync(kept) || kindOf(file) === 'sqlite') return;
  try {
    if (statSync(kept).mtimeMs < statSync(building).mtimeMs) return;
    renameSync(building, file);
  } catch (error) {
    // Another mock finished it first.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new StateFileError(file, `cannot finish its migration: ${(error as Error).message}`);
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
  throw new StateFileError(
    file,
    `is a JSON state file and ${building} is there: another mock is migrating it, or a migration stopped ` +
      `halfway. With no mock running on it, remove ${building} and start again; nothing was changed`,
  );
}

function readState(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new StateFileError(file, `cannot be read: ${(error as Error).message}`);
  }
}

/**
 * What a write that failed for the file's sake (not the data's) says: read-only, a full disk, an
 * I/O error. Undefined for anything else (a bug is a bug: 500). Primary codes, extended ones mod 256.
 */
export function fileTrouble(error: unknown): string | undefined {
  switch (((error as { errcode?: number }).errcode ?? -1) % 256) {
    case 8:
      return 'is read-only (the file, its folder, or the disk): the mock writes keys and usage into it';
    case 13:
      return 'is on a full disk (or at its size limit)';
    case 10:
      return 'could not be read or written (an I/O error of the disk)';
    case 3:
      return 'may not be opened: permission denied';
    default:
      return undefined;
  }
}
