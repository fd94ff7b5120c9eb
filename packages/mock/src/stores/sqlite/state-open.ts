/**
 * Opening the state database of `--state FILE`, once at start: the file made ready (a JSON state
 * file of earlier versions migrated, a new file created 0600, any other file refused, naming why)
 * and the database opened on it, tried again while mocks starting together hold it busy. Apart
 * from the key store (key-store.ts), whose steps every call runs.
 */
import { closeSync, openSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { nodeSqlite } from './node-sqlite.ts';
import { prepareSchema } from './state-schema.ts';
import { fileTrouble, finishMigration, kindOf, migrateJsonState, pause, StateFileError } from './state-file.ts';
import type { MigrationTarget } from './state-file.ts';
import { busyTimeoutMs, isBusy } from './state-refusals.ts';

/** How far a commit goes before its call is answered: into the WAL file, or fsynced to the disk. */
export type StateSync = 'normal' | 'full';

/**
 * Leaves `file` a state database to open, or refuses it: a migration of a JSON state file builds
 * the database with `build` (the key store on a file of its own).
 */
export function readyStateFile(
  file: string,
  build: (path: string) => MigrationTarget,
  log: ((line: string) => void) | undefined,
): void {
  finishMigration(file);
  const kind = kindOf(file);
  if (kind === 'json') {
    if (migrateJsonState(file, build)) {
      log?.(
        `[investor-graph mock] --state ${file}: migrated the JSON state file of earlier versions into a ` +
          `database; the JSON is kept as ${file}.v1.json (mode 0600)`,
      );
    }
  } else if (kind === 'other') {
    throw new StateFileError(
      file,
      'is neither a state database of the mock nor a JSON state file of earlier versions; move it away or name ' +
        'another file',
    );
  } else if (kind === 'none') {
    try {
      closeSync(openSync(file, 'wx', 0o600));
    } catch (error) {
      // Another mock started on the same new file a moment before: it is theirs to fill, and ours to share.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new StateFileError(file, `cannot be created: ${(error as Error).message}`);
    }
  }
}

/** The database on `file`, its schema ready and in WAL mode; a file it cannot be is refused, naming why. */
export function openStateDatabase(file: string, synchronous: StateSync): DatabaseSync {
  let db: DatabaseSync;
  try {
    db = new (nodeSqlite().DatabaseSync)(file, { timeout: busyTimeoutMs });
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
      prepareSchema(db, file);
      db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'};`);
      return db;
    } catch (error) {
      if (isBusy(error) && Date.now() < until) {
        pause(10 + Math.floor(Math.random() * 40));
        continue;
      }
      db.close();
      if (error instanceof StateFileError) throw error;
      const trouble = fileTrouble(error);
      throw new StateFileError(
        file,
        isBusy(error)
          ? `stayed locked by another process while opening (${Math.round((Date.now() - started) / 1000)} s); ` +
              `nothing was changed`
          : trouble
            ? `${trouble}; nothing was changed`
            : `is damaged or not a database: ${(error as Error).message}`,
      );
    }
  }
}
