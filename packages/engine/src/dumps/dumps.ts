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
import { resources, type ResourceName } from '@investor-graph/dataset-tools';
import type { RowScan, Store } from '../data/store.ts';
import { sha256Pieces } from '../hash.ts';
import { SLICE_MS, slices } from '../data/slices.ts';
import { dayView, type DayView } from './day-view.ts';
import { scanAsOf } from './scan-as-of.ts';

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
 * Writes one resource's file as of the day `view` is of (some other way: the Node server's worker
 * thread reading the database file), or says null when it cannot and the engine writes it here, a
 * slice at a time.
 */
export type DumpWriter = (
  resource: ResourceName,
  name: string,
  view: DayView,
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
  /**
   * Each day's dump, with what names the data it holds (day-view.ts): a day that holds the same
   * data as another built day (nothing changed between them) shares its files (and their memory).
   */
  private readonly built = new Map<string, { identity: string; dump: Promise<Dump> }>();
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

  /**
   * A day's dump: the data as of its generated_at (day-view.ts), built once when first asked for
   * (or written ahead), from the files of a built day that holds the same data if there is one.
   */
  day(date: string): Promise<Dump> {
    const known = this.built.get(date);
    if (known) return known.dump;
    const generatedAt = `${date}T0${DUMP_HOUR}:00:00Z`;
    const view = dayView(this.store, Date.parse(generatedAt));
    const twin = [...this.built.values()].find((other) => other.identity === view.identity);
    const files = twin ? twin.dump.then((other) => other.files) : this.writeFiles(view);
    const entry = { identity: view.identity, dump: files.then((f) => ({ date, generated_at: generatedAt, files: f })) };
    this.built.set(date, entry);
    // A failed build (a full disk, a mock stopping) is not kept: the next ask writes it again.
    entry.dump.catch(() => {
      if (this.built.get(date) === entry) this.built.delete(date);
    });
    // Keep memory (or disk) bounded: only the days a manifest can still list.
    while (this.built.size > this.keep + 1) this.forget(this.built.keys().next().value!);
    return entry.dump;
  }

  /** Drops a day; its files go too, those no other day lists. */
  private forget(date: string): void {
    const { dump } = this.built.get(date)!;
    this.built.delete(date);
    const discard = this.files.discard?.bind(this.files);
    if (!discard) return;
    void Promise.all([dump, ...[...this.built.values()].map((other) => other.dump)]).then(
      ([gone, ...kept]) => {
        const live = new Set(kept.flatMap((d) => d.files.map((f) => f.body)));
        const unlisted = gone.files.map((f) => f.body).filter((body) => !live.has(body));
        if (unlisted.length) discard(unlisted);
      },
      () => undefined,
    );
  }

  private async writeFiles(view: DayView): Promise<DumpFile[]> {
    const files: DumpFile[] = [];
    const pause = slices(this.sliceMs);
    for (const r of resources) {
      const name = `${r.plural}.jsonl.gz`;
      const { body, sha256, rows } = await (this.writer?.(r.name, name, view) ?? this.take(r, name, view, pause));
      files.push({ name, resource: r.name, rows, bytes: body.size, sha256, body });
    }
    return files;
  }

  /**
   * A resource's file written here: its rows taken as they are now, then as of the day, with the
   * corrections of the data as it stands once they are taken (whatever changed meanwhile is undone).
   */
  private async take(r: (typeof resources)[number], name: string, view: DayView, pause: () => Promise<boolean>) {
    const scan = await this.store.scan(r.name, pause);
    const asOf = scanAsOf(scan, r.key, view.corrections(r.name), view.seenBy);
    return gzipJsonl(asOf, this.files.create(name), pause);
  }
}
