/** The dataset a mock serves: as rows in memory, or as the SQLite store the server reads. */
import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { collectDataset, datasetInput, type DatasetManifest } from '@investor-graph/dataset-tools';
import { datasetDir } from '@investor-graph/dataset';
import { loadDataset } from '@investor-graph/dataset-tools/node';
import {
  cachedDatabaseFile,
  databaseLayout,
  defaultDataset,
  layoutOf,
  memoryDatabase,
  openCachedDatabase,
  openDatabase,
  openFolderDatabase,
} from '@investor-graph/dataset-tools/database';
import { SqliteStore } from '../stores/sqlite/dataset-store.ts';
import { readDumpFolder, DumpFolderError } from '../dumps/read/dump-folder.ts';
import { dumpDatabaseFile, openDump } from '../dumps/read/open-dump.ts';

/** Where the dataset comes from, and what is told while it is read (the mock's start options, `StartOptions`). */
export interface DatasetOptions {
  /**
   * A dataset folder, a database investor-graph-dataset wrote, or a nightly dump's folder (its
   * export manifest as manifest.json and its files); the embedded `@investor-graph/dataset` when
   * neither this nor seed is given.
   */
  data?: string;
  /** A generated dataset instead of a folder: its database is built once into the kit's cache. */
  seed?: string;
  scale?: number;
  /** Where generated datasets are cached (KIT_CACHE or ~/.cache/investor-graph-kit, under datasets/). */
  datasetCache?: string;
  /**
   * Told while a generated dataset's database is being built (the first start at a seed and scale),
   * or a nightly dump's read into one (the first start on it: `dump` is its date).
   */
  onBuild?: (progress: { file: string; rows: number; done: boolean; dump?: string }) => void;
  /** Told, once at start, what a nightly dump given as `data` holds that the contract does not describe. */
  onReport?: (lines: string[]) => void;
}

/** The dataset as plain rows in memory (for an engine of one's own, as the tests and MSW make). */
export async function loadInput(options: Pick<DatasetOptions, 'data' | 'seed' | 'scale'>) {
  if (options.seed !== undefined) {
    return collectDataset({
      seed: options.seed,
      scale: options.scale ?? defaultDataset.scale,
      asOf: defaultDataset.asOf,
    });
  }
  return datasetInput(await loadDataset(options.data ?? datasetDir));
}

/**
 * The store the server serves from, always an SQLite one: a generated dataset from its database
 * in the kit's cache (built there on first use), a database file given as --data, a nightly dump
 * given as --data (read once into a database in the cache), a dataset folder read into an
 * in-memory database, or by default the embedded dataset, its database built once into the cache
 * and opened from there once a process (`embedded`).
 */
export async function openStore(
  options: Pick<DatasetOptions, 'data' | 'seed' | 'scale' | 'datasetCache' | 'onBuild' | 'onReport'>,
): Promise<SqliteStore> {
  if (options.seed !== undefined) {
    const dataset = { seed: options.seed, scale: options.scale ?? defaultDataset.scale, asOf: defaultDataset.asOf };
    const file = cachedDatabaseFile(dataset, options.datasetCache);
    const { db, manifest } = openCachedDatabase(dataset, {
      ...(options.datasetCache ? { dir: options.datasetCache } : {}),
      progress: (rows, done) => options.onBuild?.({ file, rows, done }),
    });
    return new SqliteStore(db, manifest);
  }
  if (options.data !== undefined && statSync(options.data).isFile()) {
    const opened = openDatabase(options.data);
    if (!opened) {
      const layout = layoutOf(options.data);
      const write = 'npx --no -- investor-graph-dataset --out FILE.sqlite';
      throw new DatasetFileError(
        layout !== null && layout !== databaseLayout
          ? `[investor-graph mock] --data ${options.data} was written by another version of the kit ` +
              `(database layout ${layout}; this one reads ${databaseLayout}): write it again with ${write}`
          : `[investor-graph mock] --data ${options.data} is not a dataset database (write one with ${write})`,
      );
    }
    return new SqliteStore(opened.db, opened.manifest);
  }
  if (options.data === undefined) {
    const { db, manifest } = await (embedded ??= readEmbedded(options.datasetCache));
    return new EmbeddedStore(db, manifest);
  }
  const dump = dumpStore(options.data, options);
  if (dump) return dump;
  const dataset = await datasetFolder(options.data);
  return new SqliteStore(memoryDatabase(dataset), dataset.manifest);
}

/**
 * A dataset folder's files, read; what makes them unusable (a line that is no row, a link, a FIFO,
 * a folder in a file's place) is one line naming the file, exit 2, as a dump's is.
 */
async function datasetFolder(dir: string): Promise<Awaited<ReturnType<typeof loadDataset>>> {
  try {
    return await loadDataset(dir);
  } catch (error) {
    // The reader's own lines start so; anything else is the kit's failure, not the folder's.
    const message = error instanceof Error ? error.message : String(error);
    if (!message.startsWith('[investor-graph] ')) throw error;
    throw new DatasetFileError(`[investor-graph mock] --data ${dir}: ${message.slice('[investor-graph] '.length)}`);
  }
}

/**
 * The embedded dataset's database, opened once a process and shared by every mock started in it on
 * that dataset: a store only reads its database (what rebuilds change stays in the store), and a
 * test file starting a mock for each of its tests (broken-servers.test.ts: three hundred) read and
 * indexed the same files each time, ~100 ms apiece. Each process opens it from the kit's cache,
 * where the first start on these files built it.
 */
let embedded: Promise<{ db: DatabaseSync; manifest: DatasetManifest }> | undefined;

/**
 * A store on the embedded dataset's shared database: closing it leaves the database open for the
 * others. Its dumps are written when asked, on the server's thread, as they were when it was in
 * memory (8,000 rows, about 0.15 s): with a file to name, every start would write them ahead in a
 * worker and keep them in the cache (start-mock.ts), for a dataset that small.
 */
class EmbeddedStore extends SqliteStore {
  override close(): void {}
  override get file(): null {
    return null;
  }
}

/** The embedded dataset's database from the kit's cache, built into it by the first start there. */
function readEmbedded(cache?: string): Promise<{ db: DatabaseSync; manifest: DatasetManifest }> {
  return openFolderDatabase(datasetDir, cache).catch((error: unknown) => {
    embedded = undefined; // the next start reads it again
    throw error;
  });
}

/** A nightly dump's folder as a store; null when `dir` is none (a dataset folder's manifest is no export manifest). */
function dumpStore(
  dir: string,
  options: Pick<DatasetOptions, 'datasetCache' | 'onBuild' | 'onReport'>,
): SqliteStore | null {
  try {
    const day = readDumpFolder(dir);
    if (!day) return null;
    const file = dumpDatabaseFile(day, options.datasetCache);
    const opened = openDump(day, {
      ...(options.datasetCache ? { dir: options.datasetCache } : {}),
      progress: (rows, done) => options.onBuild?.({ file, rows, done, dump: day.date }),
    });
    if (opened.report.length) options.onReport?.(opened.report);
    return new SqliteStore(opened.db, opened.manifest);
  } catch (error) {
    // One line, exit 2: the flag is right, the dump is not.
    if (error instanceof DumpFolderError) throw new DatasetFileError(error.message);
    throw error;
  }
}

/** A --data file that is no dataset database: the flag is right, the file is not. */
export class DatasetFileError extends Error {}
