/**
 * The database's rows of a list merged, in key order, with what rebuilds changed of them (the
 * overlay), a batch of keys at a time: what every page of the SQLite store is cut from.
 */
import type { StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import type { ResourceName, Row } from '@investor-graph/dataset-tools';
import type { SortedKeys } from '@investor-graph/engine/adapter';
import { mergeByKey } from './merge-by-key.ts';

/** Keys of the database in a list's order and their rows, as read together. */
interface BaseBatch {
  keys: string[];
  rows: Row[];
}

/** What rebuilds changed of one resource: rows by key (null: unpublished), and those keys in order. */
export interface Overlay {
  rows: Map<string, Row | null>;
  keys: SortedKeys;
}

/** Rows fetched at a time when a page is cut with a filter or merged with the overlay, growing to this. */
export const MAX_BATCH = 1_000;

/** A statement whose rows come as arrays (no object made per row): for the one-column key reads. */
export function arrays(statement: StatementSync): StatementSync {
  statement.setReturnArrays(true);
  return statement;
}

export const keysOf = (rows: unknown[]): string[] => (rows as [string][]).map((row) => row[0]);

export class MergedReads {
  private readonly batches = new LRUCache<string, BaseBatch>({ maxSize: 20_000 });
  private readonly base: (resource: ResourceName, key: string) => Row | undefined;
  private readonly overlay: Map<ResourceName, Overlay>;

  /** `base` reads a row of the database; `overlay` is the store's own, changed as rebuilds run. */
  constructor(base: (resource: ResourceName, key: string) => Row | undefined, overlay: Map<ResourceName, Overlay>) {
    this.base = base;
    this.overlay = overlay;
  }

  /**
   * `n` rows of the database after `after` in a list (`scope`: a resource, or a nested list and its
   * parent), remembered: the database never changes, so neither does what it holds after a key,
   * and a page asked for again (a load test, a client re-reading) costs one look-up.
   */
  private batch(
    resource: ResourceName,
    scope: string,
    after: string,
    n: number,
    fetch: (after: string, n: number) => string[],
  ): BaseBatch {
    const id = `${scope}\n${after}\n${n}`;
    let batch = this.batches.get(id);
    if (!batch) {
      const keys = fetch(after, n);
      batch = { keys, rows: keys.map((key) => this.base(resource, key)!) };
      this.batches.set(id, batch, { size: keys.length + 1 });
    }
    return batch;
  }

  /**
   * The rows after `afterKey` in key order, one at a time: the database's (their keys fetched by
   * `fetch` a batch at a time, `first` rows first, then more; the rows remembered or read) merged
   * with the overlay's (those `belongs` keeps: a nested list's parent), the overlay's winning on
   * the same key. Profiled, reading a page's JSON with its keys cost more than the rest of a page
   * call when the rows were remembered anyway: the keys come from the index alone.
   */
  merged(
    resource: ResourceName,
    scope: string,
    afterKey: string | null,
    first: number,
    fetch: (after: string, n: number) => string[],
    belongs?: (row: Row) => boolean,
  ): () => [string, Row] | undefined {
    const over = this.overlay.get(resource);
    let batch: BaseBatch = { keys: [], rows: [] };
    let at = 0;
    let after = afterKey ?? '';
    let size = first + 1;
    let ended = false;
    const nextBase = (): [string, Row] | undefined => {
      if (at === batch.keys.length) {
        if (ended) return undefined;
        batch = this.batch(resource, scope, after, size, fetch);
        at = 0;
        ended = batch.keys.length < size;
        size = Math.min(size * 2, MAX_BATCH);
        if (!batch.keys.length) return undefined;
        after = batch.keys[batch.keys.length - 1]!;
      }
      const key = batch.keys[at]!;
      return [key, batch.rows[at++]!];
    };
    if (!over) return nextBase;
    return mergeByKey(
      nextBase,
      { keys: over.keys.keys, rows: over.rows },
      afterKey === null ? 0 : over.keys.after(afterKey),
      belongs,
    );
  }
}
