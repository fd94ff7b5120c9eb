/**
 * Serialising served bodies, with each row's JSON and tag remembered, and whole pages as UTF-8
 * bytes. A rebuild replaces a row's object rather than changing it (store.ts), so a remembered row
 * or page stays true for as long as its objects are the ones served. Profiled, serialising a
 * 100-row page, hashing it for the ETag and encoding its 50 KB to UTF-8 on every answer were the
 * larger part of a page request (BENCHMARKS.md).
 */
import { LRUCache } from 'lru-cache';
import { etagOf } from '../hash.ts';

export interface Serialised {
  json: string;
  /** Changes whenever the JSON does: an entity tag's input. */
  tag: string;
  /** The JSON as UTF-8, for a remembered page: the answer is written in pieces around it, never encoded again. */
  bytes?: Uint8Array;
  /** Its entity tag as of a version of the dataset (envelope.ts), kept while the version stands. */
  etag?: { asOf: number; value: string };
}

interface Page {
  rows: readonly object[];
  serialised: Serialised & { bytes: Uint8Array };
}

const utf8 = new TextEncoder();

export class BodySerialiser {
  private readonly rows: LRUCache<object, Serialised>;
  /** Pages by their first row: a first row starts a page of each size asked for (four at most). */
  private readonly pages: LRUCache<object, readonly Page[]>;

  /**
   * Remembers at most `rows` rows and `pageBytes` bytes of pages (twice that with their text),
   * the least recently used dropped first (a million-row walk must not pin a copy of the data).
   */
  constructor(rows = 50_000, pageBytes = 16 * 1024 * 1024) {
    this.rows = new LRUCache({ max: rows });
    this.pages = new LRUCache({
      maxSize: pageBytes,
      sizeCalculation: (pages) => pages.reduce((sum, p) => sum + p.serialised.bytes.length, 1),
    });
  }

  /** `remember`: the body is store rows (or one), never edited in place; anything else is built per request. */
  serialise(body: unknown, remember: boolean): Serialised {
    if (!remember) {
      const json = JSON.stringify(body) ?? 'null';
      return { json, tag: etagOf(json) };
    }
    if (Array.isArray(body) && body.length > 0 && body.every(isObject)) return this.page(body);
    if (isObject(body) && !Array.isArray(body)) return this.row(body);
    return this.serialise(body, false);
  }

  private page(rows: readonly object[]): Serialised {
    const first = rows[0]!;
    const known = this.pages.get(first) ?? [];
    const hit = known.find((page) => page.rows.length === rows.length && page.rows.every((row, i) => row === rows[i]));
    if (hit) return hit.serialised;
    const parts = rows.map((row) => this.row(row));
    const json = `[${parts.map((p) => p.json).join(',')}]`;
    const page: Page = {
      rows: [...rows],
      serialised: { json, tag: etagOf(parts.map((p) => p.tag).join('')), bytes: utf8.encode(json) },
    };
    this.pages.set(first, [page, ...known.slice(0, 3)]);
    return page.serialised;
  }

  private row(row: object): Serialised {
    let hit = this.rows.get(row);
    if (!hit) {
      const json = JSON.stringify(row);
      hit = { json, tag: etagOf(json) };
      this.rows.set(row, hit);
    }
    return hit;
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
