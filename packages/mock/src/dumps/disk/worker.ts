/**
 * A worker thread that writes one resource of a nightly dump from the dataset's database file:
 * its rows in key order as of the dump's day (the rebuilds' overlay as the server had it when the
 * dump was asked for, with what changed after the day put back: files.ts, merged in; rows first
 * seen after the day left out), one JSON a line, gzipped into a file, hashed as written. Reading a
 * database of ten million rows touches gigabytes of disk, which on the server's thread stalled
 * every request for the milliseconds a read waits; here only the worker waits. The bytes are those the engine's
 * CompressionStream writes (zlib's gzip at its defaults, whatever the chunks): dumps.test.ts
 * compares them.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { setPriority } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { createGzip } from 'node:zlib';
import { resources, type Row } from '@investor-graph/dataset-tools';
import { seenBy } from '@investor-graph/engine/adapter';
import { rowColumns, storedRows, tableOf, type StoredRow } from '@investor-graph/dataset-tools/database';
import { mergeByKey } from '../../stores/sqlite/merge-by-key.ts';

export interface DumpJob {
  database: string;
  table: string;
  /** The overlay's rows by key (null: unpublished), in key order: the day's (files.ts). */
  overlay: [string, string | null][];
  out: string;
  /** The day's generated_at (ms) when the database's rows must each be looked at (day-view.ts); null: none. */
  seenBy: number | null;
}

export interface DumpDone {
  rows: number;
  bytes: number;
  sha256: string;
}

const job = workerData as DumpJob;
// Below the server's threads (Linux sets a nice value per thread), but not at the bottom: at 19 a
// busy machine (CI running tests beside the mock) left the build a sliver of CPU and a smoke build
// of 1.4 s ran out a 60 s window; at 10 it takes 12 s beside four busy loops, and a quiet machine's
// p99 while it is built is the same as at 19 (BENCHMARKS.md, the dumps section).
try {
  setPriority(10);
} catch {
  // Not allowed here: the dump runs at the server's priority.
}
const db = new DatabaseSync(job.database, { readOnly: true });
const gzip = createGzip();
const file = createWriteStream(job.out);
const hash = createHash('sha256');
let bytes = 0;
gzip.on('data', (chunk: Buffer) => {
  hash.update(chunk);
  bytes += chunk.length;
  if (!file.write(chunk)) gzip.pause();
});
file.on('drain', () => gzip.resume());
const ended = once(gzip, 'end');

let rows = 0;
let text = '';
const push = async (line: string): Promise<void> => {
  text += `${line}\n`;
  rows++;
  if (text.length >= 1 << 16) {
    if (!gzip.write(text)) await once(gzip, 'drain');
    text = '';
  }
};
const overlay = new Map(job.overlay);
const resource = resources.find((r) => tableOf(r.name) === job.table)!.name;
const stored = db
  .prepare(`SELECT ${rowColumns(resource)} FROM ${job.table} ORDER BY key`)
  .iterate() as Iterator<StoredRow>;
// A row of the database first seen after the day is not in its dump.
const { seenBy: day } = job;
const keep = day === null ? undefined : (row: Row) => seenBy(row, day);
const next = mergeByKey(storedRows(db).texts(resource, stored, keep), {
  keys: job.overlay.map(([key]) => key),
  rows: overlay,
});
for (let entry = next(); entry; entry = next()) await push(entry[1]);
gzip.end(text);
await ended;
file.end();
await once(file, 'finish');
db.close();
parentPort!.postMessage({ rows, bytes, sha256: hash.digest('hex') } satisfies DumpDone);
