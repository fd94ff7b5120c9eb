/**
 * A whole resource of the memory store taken for a dump (dataset-store.ts `scan`) without stopping
 * the server: run only when a dump is made, apart from the store's reads every call runs.
 */
import type { Row } from '@investor-graph/dataset-tools';
import type { RowScan } from '../../data/store.ts';

/** What a scan reads of the store: its keys in order now, a row by key, and a version that moves with any change. */
export interface ScanSource {
  keys(): readonly string[];
  row(key: string): Row;
  version(): number;
}

/**
 * The rows are taken a slice at a time (taking a million at once stopped the server for half a
 * second), by key from a copy of the key list: taken again when the data changed meanwhile, and
 * in one go after three tries. Rows are replaced, never edited, so the rows taken stay as they were.
 */
export async function scanInSlices(source: ScanSource, pause: () => Promise<boolean>): Promise<RowScan> {
  let rows: Row[] | null = null;
  for (let attempt = 0; attempt < 3 && !rows; attempt++) {
    const version = source.version();
    const keys = source.keys().slice();
    const taken = new Array<Row>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      taken[i] = source.row(keys[i]!);
      if ((i & 1023) === 1023) await pause();
    }
    if (source.version() === version) rows = taken;
  }
  rows ??= source.keys().map((key) => source.row(key));
  let at = 0;
  return {
    next: (max) => {
      const texts = rows.slice(at, at + max).map((row) => JSON.stringify(row));
      at += texts.length;
      return texts;
    },
  };
}
