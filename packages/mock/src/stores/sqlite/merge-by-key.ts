/**
 * The one merge of the SQLite store (pages, scans) and the dump worker: rows of the database in key
 * order with what rebuilds changed (the overlay), which replaces the database's row of the same key
 * or, as null, removes it.
 */
export interface Overlaid<T> {
  /** The overlay's keys in order. */
  keys: readonly string[];
  /** Its rows by key: null for one unpublished. */
  rows: Pick<Map<string, T | null>, 'get' | 'has'>;
}

/**
 * The next row in key order, one call at a time: `base`'s (the database's, keys ascending) past
 * the keys the overlay has, and the overlay's from its key at `from` on that `keep` keeps (a nested
 * list's parent).
 */
export function mergeByKey<T>(
  base: () => [string, T] | undefined,
  overlay: Overlaid<T>,
  from = 0,
  keep?: (row: T) => boolean,
): () => [string, T] | undefined {
  let o = from;
  const nextOverlay = (): [string, T] | undefined => {
    while (o < overlay.keys.length) {
      const key = overlay.keys[o++]!;
      const row = overlay.rows.get(key);
      if (row !== null && row !== undefined && (!keep || keep(row))) return [key, row];
    }
    return undefined;
  };
  const nextBase = (): [string, T] | undefined => {
    for (let entry = base(); entry; entry = base()) if (!overlay.rows.has(entry[0])) return entry;
    return undefined;
  };
  let fromBase = nextBase();
  let fromOverlay = nextOverlay();
  return () => {
    if (fromBase && (!fromOverlay || fromBase[0] < fromOverlay[0])) {
      const out = fromBase;
      fromBase = nextBase();
      return out;
    }
    const out = fromOverlay;
    if (out) fromOverlay = nextOverlay();
    return out;
  };
}
