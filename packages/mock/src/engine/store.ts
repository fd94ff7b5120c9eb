/**
 * The data the mock serves: each resource as a sorted key list plus a map, secondary indexes for
 * the nested lists, the changes feed and the pending rebuilds. Pages are keyset seeks (binary
 * search to the cursor's key), so a page deep in a list costs what the first page costs.
 */
import { keyOf, resources, type Observation, type PastChange, type ResourceName, type Row } from '@investor-graph/fixtures';
import { contentHash } from './hash.ts';

export interface StoreInput {
  asOf: string;
  rows: Record<ResourceName, Row[]>;
  changes: PastChange[];
  pending: Observation[];
}

export interface Change {
  sequence: number;
  kind: 'create' | 'update' | 'unpublish';
  resource: ResourceName;
  key: string;
  changed_at: string;
}

/** Keys kept sorted (by code unit, the order the API documents) with binary-search seeks. */
export class SortedKeys {
  readonly keys: string[];
  constructor(keys: string[] = []) {
    this.keys = keys;
  }
  /** Index of the first key strictly greater than `key`. */
  after(key: string): number {
    let lo = 0, hi = this.keys.length;
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

export interface Page {
  rows: Row[];
  /** The key of the last row served, when there may be more. */
  nextKey: string | null;
}

/** Nested lists: which resource hangs off which parent through which field. */
export const nested = {
  listFirmPortfolio: { parent: 'firm', child: 'investment', field: 'firm_slug' },
  listFirmFilings: { parent: 'firm', child: 'filing', field: 'firm_slug' },
  listFirmFunds: { parent: 'firm', child: 'adv-fund', field: 'firm_slug' },
  listCompanyRounds: { parent: 'company', child: 'round', field: 'company_slug' },
  listCompanyInvestors: { parent: 'company', child: 'investment', field: 'company_slug' },
  listCompanyOfferings: { parent: 'company', child: 'offering', field: 'company_slug' },
} as const satisfies Record<string, { parent: ResourceName; child: ResourceName; field: string }>;

type IndexName = keyof typeof nested;

export class Store {
  private readonly byKey = new Map<ResourceName, Map<string, Row>>();
  private readonly order = new Map<ResourceName, SortedKeys>();
  private readonly indexes = new Map<IndexName, Map<string, SortedKeys>>();
  private readonly hashes = new Map<string, string>();
  readonly changes: Change[] = [];
  private pending: Observation[];
  private pendingAt = 0;
  private sequence = 0;
  /** Bumped on every applied change: caches of derived data (statistics, dumps) key on it. */
  version = 0;
  asOf: number;

  constructor(input: StoreInput) {
    this.asOf = Date.parse(input.asOf);
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

  /** A resource's keys in order, as a copy taken now. */
  keysInOrder(resource: ResourceName): string[] {
    return this.order.get(resource)!.keys.slice();
  }

  /**
   * Every row of a resource in key order, as an array taken now: rows are replaced, never changed
   * in place, so what it holds stays as it was however the data changes afterwards (a dump).
   */
  rowsInOrder(resource: ResourceName): Row[] {
    const map = this.byKey.get(resource)!;
    return this.order.get(resource)!.keys.map((key) => map.get(key)!);
  }

  /** One page of a top-level list, after `afterKey`, keeping rows that pass `keep`. */
  page(resource: ResourceName, afterKey: string | null, limit: number, keep?: (row: Row) => boolean): Page {
    return this.walk(this.order.get(resource)!, this.byKey.get(resource)!, afterKey, limit, keep);
  }

  /** One page of a nested list (a firm's portfolio, a company's rounds...). */
  nestedPage(index: IndexName, parentKey: string, afterKey: string | null, limit: number, keep?: (row: Row) => boolean): Page {
    const keys = this.indexes.get(index)!.get(parentKey) ?? new SortedKeys();
    return this.walk(keys, this.byKey.get(nested[index].child)!, afterKey, limit, keep);
  }

  /** Every row of a nested list, for small derived views (a company's latest visible round). */
  nestedRows(index: IndexName, parentKey: string): Row[] {
    const keys = this.indexes.get(index)!.get(parentKey)?.keys ?? [];
    const map = this.byKey.get(nested[index].child)!;
    return keys.map((k) => map.get(k)!);
  }

  private walk(keys: SortedKeys, map: Map<string, Row>, afterKey: string | null, limit: number, keep?: (row: Row) => boolean): Page {
    const rows: Row[] = [];
    let lastKey: string | null = null;
    let i = afterKey === null ? 0 : keys.after(afterKey);
    for (; i < keys.keys.length && rows.length < limit; i++) {
      const row = map.get(keys.keys[i]!)!;
      if (!keep || keep(row)) {
        rows.push(row);
        lastKey = keys.keys[i]!;
      }
    }
    // Look ahead for one more kept row so the last page says next_cursor: null exactly at the end.
    let more = false;
    for (; i < keys.keys.length; i++) {
      if (!keep || keep(map.get(keys.keys[i]!)!)) {
        more = true;
        break;
      }
    }
    return { rows, nextKey: more ? lastKey : null };
  }

  /** Changes at or after `since`, after sequence `afterSequence`. */
  changePage(since: string, afterSequence: number, limit: number): { items: Change[]; more: boolean } {
    // The feed is in sequence order and sequence follows changed_at, so both seeks are binary.
    let lo = 0, hi = this.changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.changes[mid]!.changed_at < since || this.changes[mid]!.sequence <= afterSequence) lo = mid + 1;
      else hi = mid;
    }
    const items = this.changes.slice(lo, lo + limit);
    return { items, more: lo + limit < this.changes.length };
  }

  /** Applies every pending rebuild observation due at or before `now`; returns the changes made. */
  applyDue(now: number): Change[] {
    const made: Change[] = [];
    while (this.pendingAt < this.pending.length && Date.parse(this.pending[this.pendingAt]!.at) <= now) {
      const change = this.observe(this.pending[this.pendingAt++]!);
      if (change) made.push(change);
    }
    // as_of is the latest rebuild that has run: rebuilds run on the hour.
    const lastRebuild = Math.floor(now / 3_600_000) * 3_600_000;
    if (lastRebuild > this.asOf) this.asOf = lastRebuild;
    return made;
  }

  pendingCount(): number {
    return this.pending.length - this.pendingAt;
  }

  /** One rebuild's view of one record: create, update (only if the content hash moved), unpublish or nothing. */
  observe(observation: Observation): Change | null {
    const { resource, key, at } = observation;
    const map = this.byKey.get(resource)!;
    const current = map.get(key);
    if (observation.row === null) {
      if (!current) return null;
      this.remove(resource, key, current);
      return this.record('unpublish', resource, key, at);
    }
    if (!current) {
      this.add(resource, { ...observation.row, first_seen_at: at, updated_at: at });
      return this.record('create', resource, key, at);
    }
    if (this.hashOf(resource, key, current) === contentHash(observation.row)) return null;
    const next = { ...observation.row, first_seen_at: current.first_seen_at, updated_at: at };
    map.set(key, next);
    this.hashes.delete(`${resource}:${key}`);
    return this.record('update', resource, key, at);
  }

  private hashOf(resource: ResourceName, key: string, row: Row): string {
    const id = `${resource}:${key}`;
    let hash = this.hashes.get(id);
    if (!hash) this.hashes.set(id, (hash = contentHash(row)));
    return hash;
  }

  private record(kind: Change['kind'], resource: ResourceName, key: string, at: string): Change {
    const change: Change = { sequence: ++this.sequence, kind, resource, key, changed_at: at };
    this.changes.push(change);
    this.version++;
    return change;
  }

  private add(resource: ResourceName, row: Row): void {
    const key = keyOf(resource, row);
    this.byKey.get(resource)!.set(key, row);
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

  private remove(resource: ResourceName, key: string, row: Row): void {
    this.byKey.get(resource)!.delete(key);
    this.order.get(resource)!.remove(key);
    this.hashes.delete(`${resource}:${key}`);
    for (const [name, spec] of Object.entries(nested) as [IndexName, (typeof nested)[IndexName]][]) {
      if (spec.child === resource) this.indexes.get(name)!.get(row[spec.field] as string)?.remove(key);
    }
  }
}
