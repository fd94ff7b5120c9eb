/**
 * Nightly dump files on disk, for the Node server: a dump of ten million rows is hundreds of
 * megabytes gzipped, which memory (the engine's default, for the browser) would have to hold for
 * as long as a manifest lists it. Each file is written to a temporary folder of this process and
 * served as a Blob backed by the file (fs.openAsBlob), which a Response streams from disk. A file
 * a worker writes from a database file is kept in the kit's cache when one is given
 * (cache.ts), and a later start on the same database serves it from there without writing it.
 */
import { createWriteStream, linkSync, mkdtempSync, openAsBlob, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { tableOf } from '@investor-graph/dataset-tools/database';
import type { Corrections, DumpFiles, DumpWriter } from '@investor-graph/engine/adapter';
import type { DumpDone, DumpJob } from './worker.ts';
import type { SqliteStore } from '../../stores/sqlite/dataset-store.ts';
import type { DayOf, DumpCache } from './cache.ts';

export interface DiskDumpFiles extends DumpFiles {
  /** The temporary folder the files are written to (made when first needed). */
  readonly dir: string;
  /**
   * Each resource's file written by a worker thread from the store's database file (null for a
   * store in memory, whose files the engine writes itself, a slice at a time).
   */
  writer(store: SqliteStore): DumpWriter;
  /** Removes the folder and every file in it (when the mock stops). */
  close(): void;
}

export function diskDumpFiles(parent = tmpdir(), cache: DumpCache | null = null): DiskDumpFiles {
  // Made at the first dump, so a mock no one asks for a dump leaves nothing behind even if killed.
  let folder: string | null = null;
  const remove = (): void => {
    if (folder !== null) rmSync(folder, { recursive: true, force: true });
  };
  const dir = (): string => {
    if (folder === null) {
      folder = mkdtempSync(join(parent, 'investor-graph-dumps-'));
      // A process that ends without stopping its mock (a script that never calls stop(), an error
      // nobody caught) takes the folder with it too: only a kill it cannot see leaves it behind.
      process.once('exit', remove);
    }
    return folder;
  };
  const paths = new WeakMap<Blob, string>();
  let made = 0;
  const worker = import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js';
  // Workers still writing, and where: stopped (and their half-written files removed) when the mock stops.
  const running = new Map<Worker, string>();
  let closed = false;
  /**
   * The cache's entry for a file and the name to write it to,
   * or null where the cache cannot take it (a read-only home).
   */
  const cached = (database: string, table: string, overlay: [string, string | null][], day: DayOf) => {
    if (!cache) return null;
    try {
      const entry = cache.entry(database, table, overlay, day);
      return { ...entry, kept: cache.find(entry.key), temporary: () => cache.temporary(entry.key) };
    } catch {
      return null;
    }
  };
  /**
   * A kept file as this mock serves it: through a hard link of its own in its folder, so another
   * mock's sweep of the cache (or a rebuilt database's) cannot take it from under a listed day; the
   * cache's own path where the two folders are on different file systems.
   */
  const served = async (path: string): Promise<Blob> => {
    const own = join(dir(), `${++made}-${basename(path)}`);
    try {
      linkSync(path, own);
    } catch {
      return openAsBlob(path);
    }
    const body = await openAsBlob(own);
    paths.set(body, own);
    return body;
  };
  return {
    get dir() {
      return dir();
    },
    writer: (store) => (resource, name, view) => {
      const database = store.file;
      if (database === null) return null;
      if (closed) return Promise.reject(new Error('[investor-graph] the mock stopped before its dump was written'));
      const table = tableOf(resource);
      // Taken now, synchronously: the rebuilds' overlay as it is, with what changed after the day put back.
      const overlay = overlayOfDay(store.overlayJson(resource), view.corrections(resource));
      const day = {
        seenBy: view.seenBy,
        asLoaded: view.at < store.rowsAsOf || store.overlayJson(resource).length === 0,
      };
      const entry = cached(database, table, overlay, day);
      const kept = entry?.kept;
      if (kept) return served(kept.path).then((body) => ({ body, sha256: kept.sha256, rows: kept.rows }));
      let out: string;
      let keep = entry;
      try {
        out = keep ? keep.temporary() : join(dir(), `${++made}-${name}`);
      } catch {
        keep = null;
        out = join(dir(), `${++made}-${name}`);
      }
      const job: DumpJob = { database, table, overlay, out, seenBy: view.seenBy };
      return new Promise((resolve, reject) => {
        const thread = new Worker(new URL(worker, import.meta.url), { workerData: job });
        running.set(thread, out);
        let done: DumpDone | undefined;
        thread.once('message', (message: DumpDone) => (done = message));
        thread.once('error', reject);
        thread.once('exit', (code) => {
          running.delete(thread);
          if (!done) {
            rmSync(out, { force: true });
            return reject(
              new Error(`[investor-graph] the dump worker for ${name} stopped (exit ${code}) before it finished`),
            );
          }
          const { rows, bytes, sha256 } = done;
          let path = out;
          try {
            if (keep) path = cache!.keep(keep.key, out, keep.source, { rows, bytes, sha256 }).path;
          } catch {
            // The cache could not take it (full, or gone): this mock serves it from where it is.
          }
          void (path === out ? openAsBlob(out) : served(path)).then((body) => {
            if (path === out) paths.set(body, out);
            resolve({ body, sha256, rows });
          }, reject);
        });
      });
    },
    create(name) {
      // A number of its own per build: the files of two builds of the same day never meet.
      const path = join(dir(), `${++made}-${name}`);
      const stream: WriteStream = createWriteStream(path);
      return {
        write: async (bytes) => {
          if (!stream.write(bytes)) await once(stream, 'drain');
        },
        done: async () => {
          stream.end();
          await once(stream, 'finish');
          const blob = await openAsBlob(path);
          paths.set(blob, path);
          return blob;
        },
      };
    },
    discard(blobs) {
      for (const blob of blobs) {
        const path = paths.get(blob);
        if (path) rmSync(path, { force: true });
      }
    },
    close() {
      closed = true;
      for (const [thread, out] of running) {
        void thread.terminate().finally(() => {
          try {
            rmSync(out, { force: true });
          } catch {
            // Left for the cache's sweep of abandoned files: stopping must not fail on it.
          }
        });
      }
      running.clear();
      process.off('exit', remove);
      remove();
    },
  };
}

/**
 * The overlay a day's file is written with: the rebuilds' (rows by key, null: unpublished) with
 * each record that changed after the day as it was then (null: not published then), in key order.
 */
function overlayOfDay(overlay: [string, string | null][], fixes: Corrections): [string, string | null][] {
  if (fixes.size === 0) return overlay;
  const merged = new Map(overlay);
  for (const [key, row] of fixes) merged.set(key, row === null ? null : JSON.stringify(row));
  return [...merged].sort(([a], [b]) => (a < b ? -1 : 1));
}
