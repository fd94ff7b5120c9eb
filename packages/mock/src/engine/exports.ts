/**
 * Nightly dumps: one gzip JSONL file per resource, built when a day's manifest is first asked for
 * and then kept unchanged, so the sha256 and row counts the manifest lists always match the bytes.
 * CompressionStream and WebCrypto keep this free of Node APIs.
 *
 * A dump of a large dataset takes seconds to write. It is written a slice at a time, letting the
 * event loop serve other requests between slices, so only the calls that wait for the dump wait:
 * measured by `pnpm bench -- --only dumps` (p99 of ordinary requests while one is built).
 */
import { resources, type ResourceName, type Row } from '@investor-graph/fixtures';
import type { Store } from './store.ts';
import { concatBytes, sha256Pieces } from './hash.ts';

const DAY = 86_400_000;
/** The dump is written at 04:00 UTC, after the 03:00 daily rebuild. */
const DUMP_HOUR = 4;

export interface DumpFile {
  name: string;
  resource: string;
  rows: number;
  bytes: number;
  sha256: string;
  body: Uint8Array;
}

export interface Dump {
  date: string;
  generated_at: string;
  files: DumpFile[];
}

/** The longest the build serialises before it lets other requests in, in ms: about one request's wait. */
const SLICE_MS = 1;
/** Rows serialised and handed to the compressor at a time. */
const LINES_PER_WRITE = 200;
const encoder = new TextEncoder();
/**
 * A macrotask, not a microtask: pending I/O (other requests) runs before the build goes on. Node's
 * setImmediate runs right after the I/O it let in; a browser (MSW) has none, and its setTimeout is
 * held to 4 ms when nested (and to a second in a hidden tab), so a message to itself stands in.
 */
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
const letOthersIn = (): Promise<void> =>
  new Promise((resolve) => {
    if (immediate) return void immediate(resolve);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/** The rows as gzip JSONL, one row a line, hashed as it is compressed. */
async function gzipJsonl(rows: readonly Row[], sliceMs: number): Promise<{ body: Uint8Array; sha256: string }> {
  const gzip = new CompressionStream('gzip');
  const writer = gzip.writable.getWriter();
  const pieces: Uint8Array[] = [];
  const hash = sha256Pieces();
  const compressed = (async () => {
    const reader = gzip.readable.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pieces.push(read.value);
      hash.update(read.value);
    }
  })();
  let sliceStarted = performance.now();
  for (let from = 0; from < rows.length; from += LINES_PER_WRITE) {
    let text = '';
    for (const row of rows.slice(from, from + LINES_PER_WRITE)) text += `${JSON.stringify(row)}\n`;
    await writer.write(encoder.encode(text));
    if (performance.now() - sliceStarted > sliceMs) {
      await letOthersIn();
      sliceStarted = performance.now();
    }
  }
  await writer.close();
  await compressed;
  return { body: concatBytes(pieces), sha256: await hash.hex() };
}

export class Dumps {
  private readonly built = new Map<string, Promise<Dump>>();
  /**
   * The files written from the data at one version of the store: the days a manifest lists, asked
   * for together, are written from the same data, so they share one build (and its memory).
   */
  private written: { version: number; files: Promise<DumpFile[]> } | null = null;
  private readonly store: Store;
  /** How many days of dumps the manifest lists. */
  readonly keep: number;

  /** How long the build works before it lets other requests in, in ms (tests make it 0). */
  private readonly sliceMs: number;

  constructor(store: Store, keep = 2, sliceMs = SLICE_MS) {
    this.store = store;
    this.keep = keep;
    this.sliceMs = sliceMs;
  }

  /** The dates with a dump at time `now`, newest first. */
  dates(now: number): string[] {
    const latest = Math.floor((now - DUMP_HOUR * 3_600_000) / DAY) * DAY;
    return Array.from({ length: this.keep }, (_, i) => new Date(latest - i * DAY).toISOString().slice(0, 10));
  }

  has(date: string, now: number): boolean {
    return this.dates(now).includes(date);
  }

  /** A day's dump; built once from the data as it is at first request. */
  day(date: string): Promise<Dump> {
    let dump = this.built.get(date);
    if (!dump) {
      dump = this.build(date);
      this.built.set(date, dump);
      // Keep memory bounded: only the days a manifest can still list.
      while (this.built.size > this.keep + 1) this.built.delete(this.built.keys().next().value!);
    }
    return dump;
  }

  private async build(date: string): Promise<Dump> {
    if (this.written?.version !== this.store.version) this.written = { version: this.store.version, files: this.writeFiles() };
    return { date, generated_at: `${date}T0${DUMP_HOUR}:00:00Z`, files: await this.written.files };
  }

  private async writeFiles(): Promise<DumpFile[]> {
    const files: DumpFile[] = [];
    for (const r of resources) {
      const rows = await this.take(r.name);
      const { body, sha256 } = await gzipJsonl(rows, this.sliceMs);
      files.push({ name: `${r.plural}.jsonl.gz`, resource: r.name, rows: rows.length, bytes: body.length, sha256, body });
    }
    return files;
  }

  /**
   * A resource's rows in key order as they are at one moment, taken a slice at a time (taking a
   * million rows at once stopped the server for half a second): taken again when the data changed
   * meanwhile, and in one go after three tries. Each file is its resource at one moment; the files
   * of a dump are taken one after another, as a database's export job takes its tables.
   */
  private async take(resource: ResourceName): Promise<Row[]> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const version = this.store.version;
      const keys = this.store.keysInOrder(resource);
      const rows = new Array<Row>(keys.length);
      let sliceStarted = performance.now();
      for (let i = 0; i < keys.length; i++) {
        rows[i] = this.store.get(resource, keys[i]!)!;
        if ((i & 1023) === 1023 && performance.now() - sliceStarted > this.sliceMs) {
          await letOthersIn();
          sliceStarted = performance.now();
        }
      }
      if (this.store.version === version) return rows;
    }
    return this.store.rowsInOrder(resource);
  }
}
