/**
 * The data in memory, for MSW and the browser: each resource a sorted key list plus a map, and
 * secondary indexes for the nested lists. Pages are keyset seeks, so a page deep in a list costs
 * what the first page costs. A dump's scan, which must not stop the server: row-scan.ts.
 */
import { resources, type Observation, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import { cutPage, RebuildingStore } from '../../data/rebuilding-store.ts';
import {
  nested,
  type Change,
  type IndexName,
  type Page,
  type RowScan,
  type Store,
  type StoreInput,
} from '../../data/store.ts';
import { scanInSlices } from './row-scan.ts';

/** Keys kept sorted (by code unit, the order the API documents) with binary-search seeks. */
export class SortedKeys {
  readonly keys: string[];
  constructor(keys: string[] = []) {
    this.keys = keys;
  }
  /** Index of the first key strictly greater than `key`. */
  after(key: string): number {
    let lo = 0,
      hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  insert(key: string): void {
    const at = this.after(key);
    if (this.keys[at - 1] !== key) this.keys.splice(at, 0, key);
  }
  remove(key: string): void {
    const at = this.after(key) - 1;
    if (this.keys[at] === key) this.keys.splice(at, 1);
  }
  get size(): number {
    return this.keys.length;
  }
}

/** The data in memory: each resource a sorted key list plus a map, secondary indexes for the nested lists. */
export class MemoryStore extends RebuildingStore implements Store {
  private readonly byKey = new Map<ResourceName, Map<string, Row>>();
  private readonly order = new Map<ResourceName, SortedKeys>();
  private readonly indexes = new Map<IndexName, Map<string, SortedKeys>>();
  private readonly changes: Change[] = [];
  private readonly pending: Observation[];
  private pendingAt = 0;

  constructor(input: StoreInput) {
    super(input.asOf, 0);
    for (const r of resources) {
      const rows = input.rows[r.name] ?? [];
      const map = new Map<string, Row>();
      for (const row of rows) map.set(row[r.key] as string, row);
      this.byKey.set(r.name, map);
      this.order.set(r.name, new SortedKeys([...map.keys()].sort()));
    }
    for (const [name, spec] of Object.entries(nested) as [IndexName, (typeof nested)[IndexName]][]) {
      const index = new Map<string, SortedKeys>();
      const grouped = new Map<string, string[]>();
      for (const [key, row] of this.byKey.get(spec.child)!) {
        const parent = row[spec.field] as string;
        let list = grouped.get(parent);
        if (!list) grouped.set(parent, (list = []));
        list.push(key);
      }
      for (const [parent, keys] of grouped) index.set(parent, new SortedKeys(keys.sort()));
      this.indexes.set(name, index);
    }
    for (const change of input.changes) this.changes.push({ sequence: ++this.sequence, ...change });
    this.pending = [...input.pending].sort((a, b) => a.at.localeCompare(b.at));
  }

  get(resource: ResourceName, key: string): Row | undefined {
    return this.byKey.get(resource)!.get(key);
  }

  count(resource: ResourceName): number {
    return this.order.get(resource)!.size;
  }

  all(resource: ResourceName): IterableIterator<Row> {
    return this.byKey.get(resource)!.values();
  }

  page(resource: ResourceName, afterKey: string | null, limit: number, keep?: (row: Row) => boolean): Page {
    return this.walk(this.order.get(resource)!, this.byKey.get(resource)!, afterKey, limit, keep);
  }

  nestedPage(
    index: IndexName,
    parentKey: string,
    afterKey: string | null,
    limit: number,
    keep?: (row: Row) => boolean,
  ): Page {
    const keys = this.indexes.get(index)!.get(parentKey) ?? new SortedKeys();
    return this.walk(keys, this.byKey.get(nested[index].child)!, afterKey, limit, keep);
  }

  nestedRows(index: IndexName, parentKey: string): Row[] {
    const keys = this.indexes.get(index)!.get(parentKey)?.keys ?? [];
    const map = this.byKey.get(nested[index].child)!;
    return keys.map((k) => map.get(k)!);
  }

  private walk(
    keys: SortedKeys,
    map: Map<string, Row>,
    afterKey: string | null,
    limit: number,
    keep?: (row: Row) => boolean,
  ): Page {
    let i = afterKey === null ? 0 : keys.after(afterKey);
    return cutPage(
      () => {
        if (i >= keys.keys.length) return undefined;
        const key = keys.keys[i++]!;
        return [key, map.get(key)!];
      },
      limit,
      keep,
    );
  }

  changePage(since: string, afterSequence: number, limit: number): { items: Change[]; more: boolean } {
    // The feed is in sequence order and sequence follows changed_at, so both seeks are binary.
    let lo = 0,
      hi = this.changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.changes[mid]!.changed_at < since || this.changes[mid]!.sequence <= afterSequence) lo = mid + 1;
      else hi = mid;
    }
    const items = this.changes.slice(lo, lo + limit);
    return { items, more: lo + limit < this.changes.length };
  }

  pendingCount(): number {
    return this.pending.length - this.pendingAt;
  }

  protected peekPending(): Observation | undefined {
    return this.pending[this.pendingAt];
  }

  protected takePending(): void {
    this.pendingAt++;
  }

  protected appendChange(change: Change): void {
    this.changes.push(change);
  }

  /** A slice at a time, the server answering between slices (row-scan.ts). */
  scan(resource: ResourceName, pause: () => Promise<boolean>): Promise<RowScan> {
    const order = this.order.get(resource)!;
    const source = {
      keys: () => order.keys,
      row: (key: string) => this.get(resource, key)!,
      version: () => this.version,
    };
    return scanInSlices(source, pause);
  }

  protected put(resource: ResourceName, key: string, row: Row, previous: Row | undefined): void {
    this.byKey.get(resource)!.set(key, row);
    if (previous) return;
    this.order.get(resource)!.insert(key);
    for (const [name, spec] of Object.entries(nested) as [IndexName, (typeof nested)[IndexName]][]) {
      if (spec.child !== resource) continue;
      const index = this.indexes.get(name)!;
      const parent = row[spec.field] as string;
      let keys = index.get(parent);
      if (!keys) index.set(parent, (keys = new SortedKeys()));
      keys.insert(key);
    }
  }

  protected delete(resource: ResourceName, key: string, row: Row): void {
    this.byKey.get(resource)!.delete(key);
    this.order.get(resource)!.remove(key);
    for (const [name, spec] of Object.entries(nested) as [IndexName, (typeof nested)[IndexName]][]) {
      if (spec.child === resource)
        this.indexes
          .get(name)!
          .get(row[spec.field] as string)
          ?.remove(key);
    }
  }
}
