/**
 * Nightly dumps: one gzip JSONL file per resource, built when a day's manifest is first asked for
 * (or ahead, `ahead`: the Node server writes a database's from start and at each 04:00) and then
 * kept unchanged, so the sha256 and row counts the manifest lists always match the bytes.
 * CompressionStream and WebCrypto keep this free of Node APIs.
 *
 * A dump of a large dataset takes seconds to write (minutes at ten million rows). The engine writes
 * it a slice at a time, letting the event loop serve other requests between slices, so only the
 * calls that wait for the dump wait; the Node server hands a database-backed store's files to a
 * worker thread instead (src/dumps/disk/files.ts). Measured by `pnpm bench -- --only dumps` (p99
 * of ordinary requests while one is built).
 */
import { resources, type ResourceName } from '@investor-graph/fixtures';
import type { RowScan, Store } from '../data/store.ts';
import { sha256Pieces } from '../hash.ts';
import { SLICE_MS, slices } from '../data/slices.ts';

const DAY = 86_400_000;
/** The dump is written at 04:00 UTC, after the 03:00 daily rebuild. */
const DUMP_HOUR = 4;

export interface DumpFile {
  name: string;
  resource: string;
  rows: number;
  bytes: number;
  sha256: string;
  body: Blob;
}

export interface Dump {
  date: string;
  generated_at: string;
  files: DumpFile[];
}

/** Rows serialised and handed to the compressor at a time. */
const LINES_PER_WRITE = 200;
const encoder = new TextEncoder();
/** Where a dump's compressed bytes go: memory by default (the browser), files on the Node server. */
export interface DumpFiles {
  /** A file being written; `done` gives its bytes as a Blob (which a Response streams). */
  create(name: string): { write(bytes: Uint8Array): void | Promise<void>; done(): Promise<Blob> };
  /** The files of a build no day lists any more can go. */
  discard?(blobs: readonly Blob[]): void;
}

/**
 * Writes one resource's file some other way (the Node server: a worker thread reading the database
 * file), or says null when it cannot and the engine writes it here, a slice at a time.
 */
export type DumpWriter = (
  resource: ResourceName,
  name: string,
) => Promise<{ body: Blob; sha256: string; rows: number }> | null;

export const memoryFiles: DumpFiles = {
  create() {
    const pieces: Uint8Array<ArrayBuffer>[] = [];
    return {
      write: (bytes) => void pieces.push(bytes as Uint8Array<ArrayBuffer>),
      done: async () => new Blob(pieces),
    };
  },
};

/** A resource's rows as gzip JSONL, one row a line, hashed as it is compressed, pausing (`pause`) between writes. */
async function gzipJsonl(
  scan: RowScan,
  file: ReturnType<DumpFiles['create']>,
  pause: () => Promise<boolean>,
): Promise<{ body: Blob; sha256: string; rows: number }> {
  const gzip = new CompressionStream('gzip');
  const writer = gzip.writable.getWriter();
  const hash = sha256Pieces();
  const compressed = (async () => {
    const reader = gzip.readable.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      await file.write(read.value);
      hash.update(read.value);
    }
  })();
  let rows = 0;
  for (let lines = scan.next(LINES_PER_WRITE); lines.length; lines = scan.next(LINES_PER_WRITE)) {
    rows += lines.length;
    await writer.write(encoder.encode(`${lines.join('\n')}\n`));
    await pause();
  }
  await writer.close();
  await compressed;
  return { body: await file.done(), sha256: await hash.hex(), rows };
}

export class Dumps {
  private readonly built = new Map<string, Promise<Dump>>();
  /**
   * The files written from the data at one version of the store: the days a manifest lists, asked
   * for together, are written from the same data, so they share one build (and its memory).
   */
  private written: { version: number; files: Promise<DumpFile[]> } | null = null;
  private readonly store: Store;
  private readonly files: DumpFiles;
  /** How many days of dumps the manifest lists. */
  readonly keep: number;
  /** How long the build works before it lets other requests in, in ms (tests make it 0). */
  private readonly sliceMs: number;

  private readonly writer: DumpWriter | undefined;

  constructor(store: Store, options: { keep?: number; sliceMs?: number; files?: DumpFiles; writer?: DumpWriter } = {}) {
    this.store = store;
    this.writer = options.writer;
    this.keep = options.keep ?? 2;
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.files = options.files ?? memoryFiles;
  }

  /** The dates with a dump at time `now`, newest first. */
  dates(now: number): string[] {
    const latest = Math.floor((now - DUMP_HOUR * 3_600_000) / DAY) * DAY;
    return Array.from({ length: this.keep }, (_, i) => new Date(latest - i * DAY).toISOString().slice(0, 10));
  }

  has(date: string, now: number): boolean {
    return this.dates(now).includes(date);
  }

  /**
   * Starts writing the dumps a manifest at `now` lists, if they are not written or being written
   * yet, without waiting for them: the Node server calls it at start and as the clock passes each
   * 04:00, as the real service writes its dump nightly, ahead of any call. A day is tried ahead
   * once: a build that fails is told to `failed` and forgotten, so the next manifest asked for
   * tries it again (not this, every second, for minutes of work each time).
   */
  ahead(now: number, failed: (date: string, error: unknown) => void = () => undefined): void {
    for (const date of this.dates(now)) {
      if (this.triedAhead.has(date)) continue;
      this.triedAhead.add(date);
      if (this.triedAhead.size > this.keep * 4) this.triedAhead.delete(this.triedAhead.values().next().value!);
      this.day(date).catch((error: unknown) => failed(date, error));
    }
  }

  /** Days `ahead` has started, the latest few. */
  private readonly triedAhead = new Set<string>();

  /** A day's dump; built once from the data as it is when first asked for (or written ahead). */
  day(date: string): Promise<Dump> {
    let dump = this.built.get(date);
    if (!dump) {
      dump = this.build(date);
      this.built.set(date, dump);
      // A failed build (a full disk, a mock stopping) is not kept: the next ask writes it again.
      dump.catch(() => {
        if (this.built.get(date) === dump) this.built.delete(date);
      });
      // Keep memory (or disk) bounded: only the days a manifest can still list.
      while (this.built.size > this.keep + 1) this.forget(this.built.keys().next().value!);
    }
    return dump;
  }

  /** Drops a day; its files go too once no other day lists the same build. */
  private forget(date: string): void {
    const dump = this.built.get(date)!;
    this.built.delete(date);
    const discard = this.files.discard?.bind(this.files);
    if (!discard) return;
    void Promise.all([dump, ...this.built.values()]).then(
      ([gone, ...kept]) => {
        const live = new Set(kept.flatMap((d) => d.files.map((f) => f.body)));
        if (!live.has(gone.files[0]?.body as Blob)) discard(gone.files.map((f) => f.body));
      },
      () => undefined,
    );
  }

  private async build(date: string): Promise<Dump> {
    if (this.written?.version !== this.store.version) {
      const written = { version: this.store.version, files: this.writeFiles() };
      this.written = written;
      written.files.catch(() => {
        if (this.written === written) this.written = null;
      });
    }
    return { date, generated_at: `${date}T0${DUMP_HOUR}:00:00Z`, files: await this.written.files };
  }

  private async writeFiles(): Promise<DumpFile[]> {
    const files: DumpFile[] = [];
    const pause = slices(this.sliceMs);
    for (const r of resources) {
      const name = `${r.plural}.jsonl.gz`;
      const { body, sha256, rows } = await (this.writer?.(r.name, name) ??
        gzipJsonl(await this.store.scan(r.name, pause), this.files.create(name), pause));
      files.push({ name, resource: r.name, rows, bytes: body.size, sha256, body });
    }
    return files;
  }
}
