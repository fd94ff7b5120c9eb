/**
 * Serialising served bodies, with each row's JSON and tag remembered. A rebuild replaces a row's
 * object rather than changing it (store.ts), so a remembered row stays true for as long as the
 * object is the one served. Profiled, serialising a 100-row page and hashing its 50 KB for the ETag
 * were the larger part of a page request.
 */
import { etagOf } from './hash.ts';

interface Serialised {
  json: string;
  /** Changes whenever the JSON does: an entity tag's input. */
  tag: string;
}

export class BodySerialiser {
  private readonly rows = new Map<object, Serialised>();
  private readonly limit: number;

  /** Remembers at most `limit` rows, dropping the oldest first (a million-row walk must not pin a copy of the data). */
  constructor(limit = 50_000) {
    this.limit = limit;
  }

  /** `remember`: the body is store rows (or one), never edited in place; anything else is built per request. */
  serialise(body: unknown, remember: boolean): Serialised {
    if (!remember) {
      const json = JSON.stringify(body) ?? 'null';
      return { json, tag: etagOf(json) };
    }
    if (Array.isArray(body) && body.every(isObject)) {
      const parts = body.map((row) => this.row(row));
      return { json: `[${parts.map((p) => p.json).join(',')}]`, tag: etagOf(parts.map((p) => p.tag).join('')) };
    }
    if (isObject(body) && !Array.isArray(body)) return this.row(body);
    return this.serialise(body, false);
  }

  private row(row: object): Serialised {
    let hit = this.rows.get(row);
    if (!hit) {
      const json = JSON.stringify(row);
      hit = { json, tag: etagOf(json) };
      if (this.rows.size >= this.limit) this.rows.delete(this.rows.keys().next().value!);
      this.rows.set(row, hit);
    }
    return hit;
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
