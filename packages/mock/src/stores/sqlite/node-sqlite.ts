/**
 * node:sqlite, loaded when a store first opens a database rather than when a module imports it: on
 * Node 22 its first load prints `ExperimentalWarning: SQLite is an experimental feature` (stable in
 * 24), which hideSqliteWarning keeps out of the output only if it runs first, and a static import
 * anywhere loads it before any module's code runs. So the mock's Node entry (startMock,
 * mockJournal) puts no warning of the kit's into a user's test output.
 */
import { createRequire } from 'node:module';
import type * as Sqlite from 'node:sqlite';
import { hideSqliteWarning } from '@investor-graph/cli/node-version';

let loaded: typeof Sqlite | undefined;

/** node:sqlite, its Node 22 warning hidden first. */
export function nodeSqlite(): typeof Sqlite {
  if (!loaded) {
    hideSqliteWarning();
    loaded = createRequire(import.meta.url)('node:sqlite') as typeof Sqlite;
  }
  return loaded;
}
