/**
 * The walks the proxy follows for the cursor-continuity rule (a page reached by next_cursor repeats
 * no row of its walk), in memory bounded whatever the upstream sends: a walk is keyed by a 52-bit
 * digest of the cursor that continues it (a cursor of megabytes costs 8 bytes), its rows are kept
 * as digests of their identity (never their text), a walk keeps at most `rowsPerWalk` of them, and
 * the walks are an LRU of at most `walks` entries and `rows` digests in all. A page whose check
 * these bounds cut short says so (`untracked`), for the proxy to report as not_validated.
 */
import { LRUCache } from 'lru-cache';
import { rowIdentity } from '@investor-graph/contract';
import { fnv64 } from '@investor-graph/engine/adapter';

export interface WalkLimits {
  /** Walks remembered at once (the least recently continued are forgotten first). */
  walks: number;
  /** Rows remembered per walk; rows past them are not checked for repeats. */
  rowsPerWalk: number;
  /** Rows remembered across every walk. */
  rows: number;
  /** Cursors of forgotten walks remembered, so that their next page says why it went unchecked. */
  forgotten: number;
}

/** 1,000 walks, 100,000 rows a walk, 500,000 rows in all (~20 MB): see the README's proxy section. */
export const walkLimits: Readonly<WalkLimits> = {
  walks: 1_000,
  rowsPerWalk: 100_000,
  rows: 500_000,
  forgotten: 10_000,
};

/** What the walk's rule needs of a page, and no more: plain data, so the checks' own process can hand it back. */
export interface WalkPage {
  path: string;
  /** The digest of the cursor the page was fetched with, and of the one it hands out (null: none). */
  cursor: number | null;
  next: number | null;
  /** The digests of the page's first `rowsPerWalk` rows, in order. */
  rows: number[];
  /** Those rows' identities as a message shows them, cut short. */
  shown: string[];
  /** How many rows the page holds (more than `rows` when it was cut). */
  total: number;
}

/** 52 bits of FNV-1a: exact in a double, so a Set of them holds numbers, not strings. */
export const digest = (text: string): number => Number.parseInt(fnv64(text).slice(3), 16);

const SHOWN = 120;
const cut = (text: string): string => (text.length > SHOWN ? `${text.slice(0, SHOWN)}...` : text);

/** The page an answer is, for the walk's rule: a 200 whose body holds a `data` array; else null. */
export function pageOf(status: number, url: string, body: unknown, maxRows = walkLimits.rowsPerWalk): WalkPage | null {
  const page = body as { data?: unknown; next_cursor?: unknown } | null;
  if (status !== 200 || !page || typeof page !== 'object' || !Array.isArray(page.data)) return null;
  const at = new URL(url, 'http://api.invalid');
  const cursor = at.searchParams.get('cursor');
  const ids = page.data.slice(0, maxRows).map(rowIdentity);
  return {
    path: at.pathname,
    cursor: cursor ? digest(cursor) : null,
    next: typeof page.next_cursor === 'string' ? digest(page.next_cursor) : null,
    rows: ids.map(digest),
    shown: ids.map(cut),
    total: page.data.length,
  };
}

interface Walk {
  rows: Set<number>;
  /** Rows of the walk went unremembered (past `rowsPerWalk`): its later pages are checked in part. */
  full: boolean;
}

/** Follows walks through a stream of pages: what each page repeats of its walk, and what could not be checked. */
export class WalkTracker {
  readonly limits: Readonly<WalkLimits>;
  readonly #walks: LRUCache<number, Walk>;
  readonly #forgotten: LRUCache<number, true>;

  constructor(limits: Partial<WalkLimits> = {}) {
    const given = { ...walkLimits, ...limits };
    // A walk over the whole budget would not be kept at all (the
    // LRU refuses it): one walk may fill it, less its own entry.
    this.limits = { ...given, rowsPerWalk: Math.min(given.rowsPerWalk, given.rows - 1) };
    this.#forgotten = new LRUCache({ max: this.limits.forgotten });
    this.#walks = new LRUCache<number, Walk>({
      max: this.limits.walks,
      maxSize: this.limits.rows,
      sizeCalculation: (walk) => walk.rows.size + 1,
      // Only a walk pushed out by the bounds is forgotten; one continued or replaced is not.
      dispose: (_walk, cursor, reason) => void (reason === 'evict' && this.#forgotten.set(cursor, true)),
    });
  }

  /** Walks and row digests held now. */
  get size(): { walks: number; rows: number } {
    return { walks: this.#walks.size, rows: this.#walks.calculatedSize - this.#walks.size };
  }

  /** Adds a page to its walk: a message per row it repeats, and why its check was partial, if it was. */
  observe(page: WalkPage): { repeats: string[]; untracked: string[] } {
    const { walks, rowsPerWalk, rows } = this.limits;
    const untracked: string[] = [];
    let walk = page.cursor === null ? undefined : this.#walks.get(page.cursor);
    if (walk) this.#walks.delete(page.cursor!);
    else if (page.cursor !== null && this.#forgotten.delete(page.cursor)) {
      untracked.push(
        `the walk this cursor continues was forgotten to keep the proxy's memory bounded (${walks} walks, ` +
          `${rows} rows at most): this page's rows were not checked against its earlier pages`,
      );
    }
    walk ??= { rows: new Set(), full: false };
    const repeats: string[] = [];
    page.rows.forEach((id, i) => {
      if (walk.rows.has(id))
        repeats.push(`${page.path}: row ${page.shown[i]} came again on a later page of the same walk`);
      else if (walk.rows.size < rowsPerWalk) walk.rows.add(id);
      else walk.full = true;
    });
    // From the page that passes the bound on, every page of the walk is checked against part of it.
    if (walk.full || page.total > page.rows.length) {
      walk.full = true;
      untracked.push(
        `the walk is past the ${rowsPerWalk} rows the proxy remembers of one walk: rows past them are not ` +
          `checked for repeats`,
      );
    }
    if (page.next !== null) this.#walks.set(page.next, walk);
    return { repeats, untracked };
  }
}
