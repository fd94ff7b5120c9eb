/**
 * A nightly dump served as the Node server serves a generated dataset: read once into a dataset
 * database in the kit's cache (beside the generated ones, `dump-<date>-<id>.sqlite`), named by the
 * folder, the day and every file's sha256, size and time, then opened read-only on every later
 * start, so ten million rows open as fast as a generated dataset's. Reading it streams each file
 * in a worker thread (read-worker.ts) while this thread inserts the rows, as a generated build does;
 * what the dump holds that the contract does not describe is kept beside the rows, said at every
 * start. A newer dump read from the same folder takes the older one's database's place.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import {
  batchesFromWorker,
  databaseLayout,
  datasetCacheDir,
  metaValue,
  openDatabase,
  removeAbandonedBuilds,
  writeDatabaseFrom,
  type Finished,
} from '@investor-graph/dataset-tools/database';
import type { DatasetManifest } from '@investor-graph/dataset-tools';
import { dumpProblem, DumpFolderError, type DumpDay } from './dump-folder.ts';
import type { ReadJob } from './read-worker.ts';

/** Bumped when what a dump's database holds changes for the same dump (a new check, say): it is read again. */
const readerVersion = '1';

export interface OpenedDump {
  db: DatabaseSync;
  manifest: DatasetManifest;
  /** The database in the cache. */
  file: string;
  /** What the dump holds that the contract does not describe (undescribed.ts): empty when nothing. */
  report: string[];
  /** How long reading it took when this start read it; null when an earlier start had. */
  builtMs: number | null;
}

/** Where a dump's database is kept: named by everything its bytes depend on. */
export function dumpDatabaseFile(day: DumpDay, dir = datasetCacheDir()): string {
  const id = createHash('sha256')
    .update(
      JSON.stringify([
        databaseLayout,
        readerVersion,
        realpathSync(day.dir),
        day.date,
        day.generated_at,
        day.files.map((f) => [f.name, f.resource, f.sha256, f.rows, f.bytes, f.mtimeMs]),
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  return join(dir, `dump-${day.date}-${id}.sqlite`);
}

/**
 * The dump's database, read into the cache first when no earlier start did (`progress` told 0
 * rows as it starts, then as the rows go in). Throws DumpFolderError when a file is not what the
 * manifest says.
 */
export function openDump(
  day: DumpDay,
  settings: { dir?: string; progress?: (rows: number, done: boolean) => void } = {},
): OpenedDump {
  const file = dumpDatabaseFile(day, settings.dir);
  const opened = openDatabase(file);
  if (opened) return { ...opened, file, report: reportOf(opened.db), builtMs: null };
  mkdirSync(dirname(file), { recursive: true });
  removeAbandonedBuilds(file);
  settings.progress?.(0, false);
  const started = performance.now();
  const worker = import.meta.url.endsWith('.ts') ? './read-worker.ts' : './read-worker.js';
  const job: ReadJob = { dir: day.dir, files: day.files, notes: day.notes };
  const items = batchesFromWorker(new URL(worker, import.meta.url), job);
  let report: string[] = [];
  try {
    writeDatabaseFrom(
      file,
      {
        batches: items.batches,
        finished: () => {
          const finished = items.finished() as Finished & { report: string[] };
          report = finished.report;
          return finished;
        },
      },
      (counts) => ({
        generator: `nightly dump of ${day.date}`,
        seed: '',
        scale: Object.values(counts.rows).reduce((a, b) => a + b, 0),
        // The dump is the data as it was when it was written: its as-of (DECISIONS.md#exports-manifest-and-files).
        as_of: day.generated_at,
        rows: counts.rows,
        total_rows: Object.values(counts.rows).reduce((a, b) => a + b, 0),
        changes: 0,
        pending: 0,
      }),
      settings.progress,
      () => ({ dump_folder: realpathSync(day.dir), dump_report: JSON.stringify(report) }),
    );
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith(dumpProblem)) throw new DumpFolderError(message);
    // Two rows of a file out of key order with one key: which to serve is not the mock's to guess.
    const table = /UNIQUE constraint failed: (\w+)\.key/.exec(message)?.[1];
    const file = day.files.find((f) => f.resource.replace('-', '_') === table);
    if (file) throw new DumpFolderError(`${dumpProblem}${day.dir}: ${file.name} holds two rows with one key`);
    throw error;
  }
  removeOlderReads(file, realpathSync(day.dir));
  const built = openDatabase(file);
  if (!built) throw new Error(`[investor-graph] the dump's database ${file} was written but cannot be read back`);
  return { ...built, file, report, builtMs: performance.now() - started };
}

const reportOf = (db: DatabaseSync): string[] => JSON.parse(metaValue(db, 'dump_report') ?? '[]') as string[];

/**
 * The databases of earlier dumps read from the same folder, which no start opens again (at ten
 * million rows each is gigabytes): a dump folder is the service's latest, replaced each night.
 */
function removeOlderReads(kept: string, folder: string): void {
  for (const name of readdirSync(dirname(kept))) {
    const path = join(dirname(kept), name);
    if (path === kept || !/^dump-.*\.sqlite$/.test(name)) continue;
    try {
      const db = new DatabaseSync(path, { readOnly: true });
      const from = metaValue(db, 'dump_folder');
      db.close();
      if (from === folder) rmSync(path, { force: true });
    } catch {
      // Not a database this reader wrote, or one being written: left alone.
    }
  }
}
