/**
 * Nightly dumps: one gzip JSONL file per resource, built when a day's manifest is first asked for
 * and then kept unchanged, so the sha256 and row counts the manifest lists always match the bytes.
 * CompressionStream and WebCrypto keep this free of Node APIs.
 */
import { resources } from '@investor-graph/fixtures';
import type { Store } from './store.ts';
import { sha256HexBytes } from './hash.ts';

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

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export class Dumps {
  private readonly built = new Map<string, Promise<Dump>>();
  private readonly store: Store;
  /** How many days of dumps the manifest lists. */
  readonly keep: number;

  constructor(store: Store, keep = 2) {
    this.store = store;
    this.keep = keep;
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
    const files: DumpFile[] = [];
    for (const r of resources) {
      const rows = [...this.store.all(r.name)].sort((a, b) => ((a[r.key] as string) < (b[r.key] as string) ? -1 : 1));
      const text = rows.map((row) => JSON.stringify(row)).join('\n') + (rows.length ? '\n' : '');
      const body = await gzip(text);
      files.push({ name: `${r.plural}.jsonl.gz`, resource: r.name, rows: rows.length, bytes: body.length, sha256: await sha256HexBytes(body), body });
    }
    return { date, generated_at: `${date}T0${DUMP_HOUR}:00:00Z`, files };
  }
}
