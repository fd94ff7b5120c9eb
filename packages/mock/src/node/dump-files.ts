/**
 * Nightly dump files on disk, for the Node server: a dump of ten million rows is hundreds of
 * megabytes gzipped, which memory (the engine's default, for the browser) would have to hold for
 * as long as a manifest lists it. Each file is written to a temporary folder of this process and
 * served as a Blob backed by the file (fs.openAsBlob), which a Response streams from disk.
 */
import { createWriteStream, mkdtempSync, openAsBlob, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { tableOf } from '@investor-graph/fixtures/node';
import type { DumpFiles, DumpWriter } from '../engine/exports.ts';
import type { DumpDone, DumpJob } from './dump-worker.ts';
import type { SqliteStore } from './sqlite-store.ts';

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

export function diskDumpFiles(parent = tmpdir()): DiskDumpFiles {
  // Made at the first dump, so a mock no one asks for a dump leaves nothing behind even if killed.
  let folder: string | null = null;
  const dir = (): string => (folder ??= mkdtempSync(join(parent, 'investor-graph-dumps-')));
  const paths = new WeakMap<Blob, string>();
  let made = 0;
  const worker = import.meta.url.endsWith('.ts') ? './dump-worker.ts' : './dump-worker.js';
  return {
    get dir() {
      return dir();
    },
    writer: (store) => (resource, name) => {
      const database = store.file;
      if (database === null) return null;
      const out = join(dir(), `${++made}-${name}`);
      // The overlay is taken now, synchronously: the file is the resource as it is at this moment.
      const job: DumpJob = { database, table: tableOf(resource), overlay: store.overlayJson(resource), out };
      return new Promise((resolve, reject) => {
        const thread = new Worker(new URL(worker, import.meta.url), { workerData: job });
        let done: DumpDone | undefined;
        thread.once('message', (message: DumpDone) => (done = message));
        thread.once('error', reject);
        thread.once('exit', (code) => {
          if (!done) return reject(new Error(`[investor-graph] the dump worker for ${name} stopped (exit ${code}) before it finished`));
          void openAsBlob(out).then((body) => {
            paths.set(body, out);
            resolve({ body, sha256: done!.sha256, rows: done!.rows });
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
      if (folder !== null) rmSync(folder, { recursive: true, force: true });
    },
  };
}
