/**
 * The reading half of loading a nightly dump into a dataset database (open-dump.ts), in a worker
 * thread: each file streamed from disk through sha256 and gunzip, a line at a time (ten million
 * rows are never in memory; a line is at most lineBound bytes, line-splitter.ts), each row checked
 * against the contract (undescribed.ts), counted and compacted as a generated row is (the dataset tools'
 * ItemEncoder), and sent in batches to the thread that inserts them. A file whose bytes or rows are
 * not what the manifest says ends the load with one line naming it; the rows read before it are
 * thrown away with the half-written database. Each file opened is the one dump-folder.ts checked:
 * a regular file inside the folder, never a link or a FIFO put in its place since (folder-entry.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { workerData } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { resources, type Row } from '@investor-graph/dataset-tools';
import {
  BATCH,
  batchSender,
  ItemEncoder,
  type BatchChannel,
  type Encoded,
} from '@investor-graph/dataset-tools/database';
import { dumpProblem, type DumpFileEntry } from './dump-folder.ts';
import { openRegularFile } from './folder-entry.ts';
import { lineBound, LineSplitter } from './line-splitter.ts';
import { RowReport } from './undescribed.ts';

export interface ReadJob {
  dir: string;
  files: DumpFileEntry[];
  notes: string[];
}

const job = workerData as ReadJob & BatchChannel;
const send = batchSender(job);
const encoder = new ItemEncoder();
const report = new RowReport();
let items: Encoded[] = [];

/** One file's rows into batches; its sha256 and row count held to the manifest's. */
async function readFile(file: DumpFileEntry): Promise<void> {
  const resource = resources.find((r) => r.name === file.resource)!;
  const refuse = (why: string): never => {
    throw new Error(`${dumpProblem}${job.dir}: ${why}`);
  };
  const fail = (why: string): never => refuse(`${file.name} ${why}`);
  const tooLong = (number: number): never =>
    fail(
      `line ${number} is over ${lineBound / 1024 / 1024} MiB (${lineBound.toLocaleString('en')} bytes), longer than ` +
        'any row the contract allows: not a dump of the API',
    );
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let rows = 0;
  let previous: string | null = null;
  const line = (text: string, number: number): void => {
    if (text === '') return;
    let row: Row;
    try {
      row = JSON.parse(text) as Row;
    } catch (error) {
      return fail(`line ${number} is not JSON (${(error as Error).message})`);
    }
    rows++;
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      return report.dropped(resource.name, 'a line that is no object');
    const key = row[resource.key];
    if (typeof key !== 'string' || key === '') return report.dropped(resource.name, `no ${resource.key}`);
    // A dump lists a resource's rows in key order (DECISIONS.md#exports-manifest-and-files), so a
    // repeated key is the row before it again: the first is served. A file in another order is
    // read all the same; a key it repeats further apart stops the load when the keys are indexed.
    if (key === previous) return report.dropped(resource.name, `${resource.key} repeated (the first served)`);
    previous = key;
    report.check(resource.name, row);
    items.push(encoder.encode({ type: 'row', resource: resource.name, row }));
    if (items.length === BATCH) {
      send({ items });
      items = [];
    }
  };
  // Refused before the stream starts, so no read is left pending on what cannot be read.
  const fd = openRegularFile(file.path, refuse, file) ?? refuse(`${file.path} is no longer there`);
  try {
    await pipeline(
      createReadStream(file.path, { fd }),
      hashing,
      createGunzip(),
      async (source: AsyncIterable<Buffer>) => {
        const lines = new LineSplitter(line, tooLong);
        for await (const chunk of source) lines.push(chunk);
        lines.end();
      },
    );
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith(dumpProblem)) throw error;
    fail(`cannot be read as gzip JSONL (${message})`);
  }
  const sha256 = hash.digest('hex');
  if (sha256 !== file.sha256)
    fail(`does not match the manifest: its sha256 is ${sha256}, the manifest says ${file.sha256}`);
  if (rows !== file.rows)
    fail(`does not match the manifest: it holds ${rows.toLocaleString('en')} rows, the manifest says ${file.rows}`);
}

try {
  for (const file of job.files) await readFile(file);
  for (const note of job.notes) report.note(note);
  send({ items, finished: { ...encoder.finish(), report: report.lines() } as ReturnType<ItemEncoder['finish']> });
} catch (error) {
  send({ error: error instanceof Error ? error.message : String(error) });
}
