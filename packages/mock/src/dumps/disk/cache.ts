/**
 * Finished dump files kept between starts, in the kit's cache (beside the generated datasets):
 * a file is a pure function of the database file it was read from, the table and the rebuilds'
 * overlay merged in, so a later start on the same database (at start the overlay is the same
 * every time: the clock starts at the dataset's as-of) serves it at once instead of spending
 * minutes of a ten-million-row dump again. The real service writes its dump ahead of any call;
 * this is how the mock can too without paying for it on every start.
 *
 * An entry is `<key>.jsonl.gz` and `<key>.json` (what the manifest lists of it, and the database
 * it came from); the meta is written last and only after the file is in place, so a reader sees
 * a whole entry or none. Builders write to a temporary name of their own and rename it in, so two
 * mocks building the same entry at once each leave the same bytes.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { databaseLayout, datasetCacheDir } from '@investor-graph/dataset-tools/database';

export interface CachedDumpFile {
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
}

/** What an entry's meta holds: the file's figures and where it came from. */
interface Meta extends Omit<CachedDumpFile, 'path'>, Source {
  made: number;
}

/** What a file was read from: the database as it was (path, size, time), its table, how many overlay rows. */
export interface Source {
  database: string;
  size: number;
  mtimeMs: number;
  table: string;
  overlayRows: number;
  /** Whether it is of the data as the database holds it, no rebuild in it (what every start on it writes). */
  asLoaded?: boolean;
}

/** What of a file's day names it besides its overlay (day-view.ts). */
export interface DayOf {
  /** The day's time when each row's first_seen_at was looked at; null: none was. */
  seenBy: number | null;
  /** Of the data as the database holds it (a day before its as-of, or no rebuild in the overlay). */
  asLoaded: boolean;
}

/**
 * Entries kept for one table of one database: the one with no overlay (what every start writes
 * first) and the two newest built after rebuilds changed rows, since a manifest lists two days and
 * a file swept from under a listed day could no longer be downloaded.
 */
const KEEP_PER_TABLE = 3;
/** A temporary file (or a file without its meta) this old belongs to a builder that is gone. */
const ABANDONED_MS = 86_400_000;
/** How a dump file is written from a database's rows: a change to it (or to the layout it reads) is a new key. */
const DUMP_FORMAT = 1;

/** Where dumps are kept: the kit's cache ($KIT_CACHE or ~/.cache/investor-graph-kit), under dumps/. */
export const dumpCacheDir = (env: NodeJS.ProcessEnv = process.env): string =>
  join(dirname(datasetCacheDir(env)), 'dumps');

export class DumpCache {
  private made = 0;
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The entry a file of `table` read from `database` with `overlay` merged in, as of `day`, is kept under. */
  entry(
    database: string,
    table: string,
    overlay: readonly unknown[],
    day: DayOf = { seenBy: null, asLoaded: overlay.length === 0 },
  ): { key: string; source: Source } {
    const path = realpathSync(database);
    const { size, mtimeMs } = statSync(path);
    const hash = createHash('sha256')
      .update(JSON.stringify([DUMP_FORMAT, databaseLayout, path, size, mtimeMs, table]))
      .update(JSON.stringify(overlay));
    // Rows left out by their first_seen_at make another file of the same overlay.
    if (day.seenBy !== null) hash.update(`first seen by ${day.seenBy}`);
    const key = hash.digest('hex').slice(0, 32);
    const source = { database: path, size, mtimeMs, table, overlayRows: overlay.length, asLoaded: day.asLoaded };
    return { key, source };
  }

  /** The kept file, or null when there is none whole (or its file went). */
  find(key: string): CachedDumpFile | null {
    try {
      const meta = JSON.parse(readFileSync(join(this.dir, `${key}.json`), 'utf8')) as Meta;
      const path = join(this.dir, `${key}.jsonl.gz`);
      if (statSync(path).size !== meta.bytes) return null;
      return { path, rows: meta.rows, bytes: meta.bytes, sha256: meta.sha256 };
    } catch {
      return null;
    }
  }

  /** A name of this builder's own to write an entry's file to before `keep` renames it in. */
  temporary(key: string): string {
    mkdirSync(this.dir, { recursive: true });
    // A random part too: two containers sharing the folder can both be pid 1.
    return join(this.dir, `${key}.${process.pid}.${++this.made}.${randomUUID()}.tmp`);
  }

  /** Puts a finished file in place, then its meta; then clears what no start can use any more. */
  keep(key: string, temporary: string, source: Source, file: Omit<CachedDumpFile, 'path'>): CachedDumpFile {
    const path = join(this.dir, `${key}.jsonl.gz`);
    renameSync(temporary, path);
    // From here the file is in place and served from there, whatever happens to its meta or the sweep.
    try {
      const meta: Meta = { ...source, ...file, made: Date.now() };
      const metaTemporary = `${temporary}.json`;
      writeFileSync(metaTemporary, JSON.stringify(meta));
      renameSync(metaTemporary, join(this.dir, `${key}.json`));
      this.sweep();
    } catch {
      // Kept for this start only (a later one writes it again).
    }
    return { path, ...file };
  }

  /**
   * Removes entries of a database that changed or went, all but the newest KEEP_PER_TABLE of a
   * table, and temporary files of builders gone for a day. Errors are ignored: another mock may
   * be sweeping too.
   */
  sweep(): void {
    try {
      this.sweepNow();
    } catch {
      // The folder went, or is another user's: nothing to clear.
    }
  }

  private sweepNow(): void {
    const names = readdirSync(this.dir);
    const metas = new Set(names.filter((name) => name.endsWith('.json')));
    const current = new Map<string, boolean>();
    const stillThere = (meta: Meta): boolean => {
      const id = `${meta.database}\0${meta.size}\0${meta.mtimeMs}`;
      if (!current.has(id)) {
        try {
          const now = statSync(meta.database);
          current.set(id, now.size === meta.size && now.mtimeMs === meta.mtimeMs);
        } catch {
          current.set(id, false);
        }
      }
      return current.get(id)!;
    };
    const byTable = new Map<string, { key: string; rank: number }[]>();
    for (const name of names) {
      const path = join(this.dir, name);
      try {
        // A builder's file, or a file whose meta never came (its builder killed between the two): gone after a day.
        if (
          name.endsWith('.tmp') ||
          name.endsWith('.tmp.json') ||
          (name.endsWith('.jsonl.gz') && !metas.has(`${name.slice(0, -'.jsonl.gz'.length)}.json`))
        ) {
          if (Date.now() - statSync(path).mtimeMs > ABANDONED_MS) rmSync(path, { force: true });
          continue;
        }
        if (!name.endsWith('.json')) continue;
        const key = name.slice(0, -'.json'.length);
        const meta = JSON.parse(readFileSync(path, 'utf8')) as Meta;
        if (!stillThere(meta)) {
          this.remove(key);
          continue;
        }
        const table = `${meta.database}\0${meta.table}`;
        // The files of the data as loaded first (every start wants them), then the newest.
        byTable.set(table, [
          ...(byTable.get(table) ?? []),
          { key, rank: meta.overlayRows === 0 || meta.asLoaded === true ? Infinity : meta.made },
        ]);
      } catch {
        // Gone meanwhile, or half-written by a builder that was killed: left to the next sweep.
      }
    }
    for (const entries of byTable.values()) {
      for (const { key } of entries.sort((a, b) => b.rank - a.rank).slice(KEEP_PER_TABLE)) {
        try {
          this.remove(key);
        } catch {
          // Another user's, or gone already.
        }
      }
    }
  }

  private remove(key: string): void {
    // The meta first: a reader never finds a meta whose file is gone mid-removal (find checks the size too).
    rmSync(join(this.dir, `${key}.json`), { force: true });
    rmSync(join(this.dir, `${key}.jsonl.gz`), { force: true });
  }
}
