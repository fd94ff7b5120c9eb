/**
 * The statistics a key may see, cached until the data changes. A store that keeps counts with its
 * data (the SQLite store: `Store.rollups`) answers from them; the memory store's rows are counted
 * as they are fed, a slice at a time (rollups.ts).
 */
import type { ResourceName, Row } from '@investor-graph/dataset-tools';
import { rollup, scanningSource, type RollupSource, type StatisticName } from './rollups.ts';
import { SLICE_MS, slices } from './slices.ts';
import type { Store } from './store.ts';

export { statisticNames, type StatisticName } from './rollups.ts';

export class Statistics {
  /** Rollups by name and lag cutoff, for the data's version: computed once, shared by the calls that wait for them. */
  private readonly cache = new Map<string, Promise<Row[]>>();
  private cacheVersion = -1;
  private readonly store: Store;
  private readonly source: RollupSource;

  constructor(store: Store, sliceMs = SLICE_MS) {
    this.store = store;
    this.source = store.rollups ?? scanningSource(feed(store, sliceMs));
  }

  /** Rows of one rollup; `lagCutoff` is the key's round lag (the last announcement date it may see). */
  rows(name: StatisticName, lagCutoff: string | null): Promise<Row[]> {
    if (this.cacheVersion !== this.store.version) {
      this.cache.clear();
      this.cacheVersion = this.store.version;
    }
    const id = `${name}:${lagCutoff ?? ''}`;
    let rows = this.cache.get(id);
    if (!rows) {
      rows = rollup(name, this.source, lagCutoff);
      this.cache.set(id, rows);
      // A failed rollup is not remembered: the next call tries again.
      rows.catch(() => this.cache.get(id) === rows && this.cache.delete(id));
    }
    return rows;
  }
}

/**
 * Every row of a resource, a slice at a time, letting other requests in between. When a rebuild
 * changes the data meanwhile, the rollup is of the data as it was at some point of the read, as a
 * database's long query without a snapshot would be (the next call, on the new version, counts afresh).
 */
function feed(store: Store, sliceMs: number) {
  return async (resource: ResourceName, each: (row: Row) => void): Promise<void> => {
    const pause = slices(sliceMs);
    let n = 0;
    for (const row of store.all(resource)) {
      each(row);
      if ((++n & 255) === 0) await pause();
    }
  };
}
