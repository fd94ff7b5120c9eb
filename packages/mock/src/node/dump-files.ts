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
import type { DumpFiles } from '../engine/exports.ts';

export interface DiskDumpFiles extends DumpFiles {
  readonly dir: string;
  /** Removes the folder and every file in it (when the mock stops). */
  close(): void;
}

export function diskDumpFiles(parent = tmpdir()): DiskDumpFiles {
  const dir = mkdtempSync(join(parent, 'investor-graph-dumps-'));
  const paths = new WeakMap<Blob, string>();
  let made = 0;
  return {
    dir,
    create(name) {
      // A number of its own per build: the files of two builds of the same day never meet.
      const path = join(dir, `${++made}-${name}`);
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
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
