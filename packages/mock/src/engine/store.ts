/**
 * The data the mock serves, behind one interface (`Store`) with two homes: `MemoryStore` here
 * (each resource as a sorted key list plus a map, for MSW and the browser) and the SQLite store of
 * the Node server (src/node/sqlite-store.ts: millions of rows from a database file). Both share
 * what a rebuild does (`RebuildingStore`: create, update when the content hash moved, unpublish,
 * one change each) and how a page is cut (`cutPage`). Pages are keyset seeks, so a page deep in a
 * list costs what the first page costs.
 */
import { resources, type Observation, type PastChange, type ResourceName, type Row } from '@investor-graph/fixtures';
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

/** A resource's rows in key order as they were at one moment, as JSON texts, a batch at a time. */
export interface RowScan {
  /** Up to `max` more rows' JSON (as JSON.stringify writes them); none left when empty. */
  next(max: number): string[];
}

/** What the engine reads and changes of the data (operations.ts, statistics.ts, exports.ts, control.ts). */
export interface Store {
  /** The latest rebuild that has run (ms). */
  asOf: number;
  /** Bumped on every applied change: caches of derived data (statistics, dumps) key on it. */
  readonly version: number;
  get(resource: ResourceName, key: string): Row | undefined;
  count(resource: ResourceName): number;
  /** Every row of a resource, in no promised order (rollups). */
  all(resource: ResourceName): Iterable<Row>;
  /** One page of a top-level list, after `afterKey`, keeping rows that pass `keep`. */
  page(resource: ResourceName, afterKey: string | null, limit: number, keep?: (row: Row) => boolean): Page;
  /** One page of a nested list (a firm's portfolio, a company's rounds...). */
  nestedPage(index: IndexName, parentKey: string, afterKey: string | null, limit: number, keep?: (row: Row) => boolean): Page;
  /** Every row of a nested list, for small derived views (a company's latest visible round). */
  nestedRows(index: IndexName, parentKey: string): Row[];
  /** Changes at or after `since`, after sequence `afterSequence`. */
  changePage(since: string, afterSequence: number, limit: number): { items: Change[]; more: boolean };
  changeCount(): number;
  /** Applies every pending rebuild observation due at or before `now`; returns the changes made. */
  applyDue(now: number): Change[];
  pendingCount(): number;
  /** One rebuild's view of one record: create, update (only if the content hash moved), unpublish or nothing. */
  observe(observation: Observation): Change | null;
  /**
   * A resource's rows in key order as they are now, for a dump: what later rebuilds change is not
   * in it. `pause` lets other requests in (a store that must copy a million keys first awaits it).
   */
  scan(resource: ResourceName, pause: () => Promise<boolean>): Promise<RowScan>;
}

export type IndexName = keyof typeof nested;

/**
 * Cuts a page from rows in key order (`next` gives the next one, or undefined at the end): `limit`
 * rows that pass `keep`, then a look ahead for one more kept row, so that the last page says
 * next_cursor: null exactly at the end.
 */
export function cutPage(next: () => [string, Row] | undefined, limit: number, keep?: (row: Row) => boolean): Page {
  const rows: Row[] = [];
  let lastKey: string | null = null;
  let entry: [string, Row] | undefined;
  while (rows.length < limit && (entry = next())) {
    if (!keep || keep(entry[1])) {
      rows.push(entry[1]);
      lastKey = entry[0];
    }
  }
  let more = false;
  if (rows.length === limit) {
    while ((entry = next())) {
      if (!keep || keep(entry[1])) {
        more = true;
        break;
      }
    }
  }
  return { rows, nextKey: more ? lastKey : null };
}

/**
 * What a rebuild does, on any store: the store says how to read, put and remove a row and how to
 * keep the pending observations and the change log; this says which change an observation makes.
 */
export abstract class RebuildingStore {
  version = 0;
  asOf: number;
  private readonly hashes = new Map<string, string>();
  protected sequence: number;

  constructor(asOf: string, changes: number) {
    this.asOf = Date.parse(asOf);
    this.sequence = changes;
  }

  abstract get(resource: ResourceName, key: string): Row | undefined;
  protected abstract put(resource: ResourceName, key: string, row: Row, previous: Row | undefined): void;
  protected abstract delete(resource: ResourceName, key: string, row: Row): void;
  /** The next pending observation (in time order) without taking it, or undefined when none is left. */
  protected abstract peekPending(): Observation | undefined;
  protected abstract takePending(): void;
  protected abstract appendChange(change: Change): void;

  applyDue(now: number): Change[] {
    const made: Change[] = [];
    for (let next = this.peekPending(); next && Date.parse(next.at) <= now; next = this.peekPending()) {
      this.takePending();
      const change = this.observe(next);
      if (change) made.push(change);
    }
    // as_of is the latest rebuild that has run: rebuilds run on the hour.
    const lastRebuild = Math.floor(now / 3_600_000) * 3_600_000;
    if (lastRebuild > this.asOf) this.asOf = lastRebuild;
    return made;
  }

  changeCount(): number {
    return this.sequence;
  }

  observe(observation: Observation): Change | null {
    const { resource, key, at } = observation;
    const current = this.get(resource, key);
    if (observation.row === null) {
      if (!current) return null;
      this.hashes.delete(`${resource}:${key}`);
      this.delete(resource, key, current);
      return this.record('unpublish', resource, key, at);
    }
    if (!current) {
      this.put(resource, key, { ...observation.row, first_seen_at: at, updated_at: at }, undefined);
      return this.record('create', resource, key, at);
    }
    if (this.hashOf(resource, key, current) === contentHash(observation.row)) return null;
    this.hashes.delete(`${resource}:${key}`);
    // A new object, never the old one edited: what was served (and remembered) stays true.
    this.put(resource, key, { ...observation.row, first_seen_at: current.first_seen_at, updated_at: at }, current);
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
    this.appendChange(change);
    this.version++;
    return change;
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

  nestedPage(index: IndexName, parentKey: string, afterKey: string | null, limit: number, keep?: (row: Row) => boolean): Page {
    const keys = this.indexes.get(index)!.get(parentKey) ?? new SortedKeys();
    return this.walk(keys, this.byKey.get(nested[index].child)!, afterKey, limit, keep);
  }

  nestedRows(index: IndexName, parentKey: string): Row[] {
    const keys = this.indexes.get(index)!.get(parentKey)?.keys ?? [];
    const map = this.byKey.get(nested[index].child)!;
    return keys.map((k) => map.get(k)!);
  }

  private walk(keys: SortedKeys, map: Map<string, Row>, afterKey: string | null, limit: number, keep?: (row: Row) => boolean): Page {
    let i = afterKey === null ? 0 : keys.after(afterKey);
    return cutPage(() => {
      if (i >= keys.keys.length) return undefined;
      const key = keys.keys[i++]!;
      return [key, map.get(key)!];
    }, limit, keep);
  }

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

  /**
   * The rows are taken a slice at a time (taking a million at once stopped the server for half a
   * second), by key from a copy of the key list: taken again when the data changed meanwhile, and
   * in one go after three tries. Rows are replaced, never edited, so the rows taken stay as they were.
   */
  async scan(resource: ResourceName, pause: () => Promise<boolean>): Promise<RowScan> {
    let rows: Row[] | null = null;
    for (let attempt = 0; attempt < 3 && !rows; attempt++) {
      const version = this.version;
      const keys = this.order.get(resource)!.keys.slice();
      const taken = new Array<Row>(keys.length);
      for (let i = 0; i < keys.length; i++) {
        taken[i] = this.get(resource, keys[i]!)!;
        if ((i & 1023) === 1023) await pause();
      }
      if (this.version === version) rows = taken;
    }
    rows ??= this.order.get(resource)!.keys.map((key) => this.get(resource, key)!);
    let at = 0;
    return {
      next: (max) => {
        const texts = rows.slice(at, at + max).map((row) => JSON.stringify(row));
        at += texts.length;
        return texts;
      },
    };
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
      if (spec.child === resource) this.indexes.get(name)!.get(row[spec.field] as string)?.remove(key);
    }
  }
}
