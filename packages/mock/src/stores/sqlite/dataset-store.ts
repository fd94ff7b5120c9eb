/**
 * The data from an SQLite database (node:sqlite), as @investor-graph/dataset-tools writes it
 * (packages/dataset-tools/src/database.ts): what lets the Node server open ten million rows in well under two
 * seconds and serve them in a few hundred megabytes, where the memory store held every row as an
 * object. The database is opened read-only and never changed: it is the dataset at its as-of, the
 * same for every start. What simulated rebuilds change lives in memory beside it (`overlay`: the
 * rows created, replaced or unpublished, and the changes logged), and every read merges the two in
 * key order. Rebuilds change a few thousand rows at most, so the overlay stays small.
 * How keys compare: database-rows.ts.
 */
import type { DatabaseSync } from 'node:sqlite';
import {
  resources,
  type DatasetManifest,
  type Observation,
  type ResourceName,
  type Row,
} from '@investor-graph/dataset-tools';
import { memoryDatabase } from '@investor-graph/dataset-tools/database';
import { mergeByKey } from './merge-by-key.ts';
import { MAX_BATCH, MergedReads, type Overlay } from './merged-reads.ts';
import { StoredRollups } from './stored-rollups.ts';
import { SortedKeys } from '@investor-graph/engine/adapter';
import { cutPage, RebuildingStore } from '@investor-graph/engine/adapter';
import {
  nested,
  type Change,
  type DateRange,
  type IndexName,
  type Page,
  type RowScan,
  type Store,
  type StoreInput,
} from '@investor-graph/engine/adapter';
import { DatabaseRows } from './database-rows.ts';
import { DateSeeks } from './date-seeks.ts';
import { StoredChanges } from './stored-changes.ts';

export class SqliteStore extends RebuildingStore implements Store {
  private readonly db: DatabaseSync;
  /** The database's rows by key and in key order, parsed once and remembered. */
  private readonly database: DatabaseRows;
  private readonly counts: Record<ResourceName, number>;
  private readonly overlay = new Map<ResourceName, Overlay>();
  /** The database's rows merged with the overlay, in key order. */
  private readonly reads: MergedReads;
  /** The changes logged (the database's, then the rebuilds') and the observations still to come. */
  private readonly changes: StoredChanges;
  /** The statistics' counts (stored with the dataset, brought up to date from the overlay) and date seeks on rounds. */
  readonly rollups: StoredRollups;
  private readonly dates: DateSeeks;

  /** `firmBatch`: how many of the busiest firms a rollup reads at a time (StoredRollups; tests set it low). */
  constructor(db: DatabaseSync, manifest: DatasetManifest, tuning: { firmBatch?: number } = {}) {
    super(manifest.as_of, manifest.changes);
    this.db = db;
    this.database = new DatabaseRows(db);
    this.reads = new MergedReads((resource, key) => this.database.row(resource, key), this.overlay);
    this.dates = new DateSeeks(db);
    this.rollups = new StoredRollups(
      db,
      this.overlay,
      (resource, key) => this.database.row(resource, key),
      (resource, key) => this.get(resource, key),
      tuning.firmBatch,
    );
    this.counts = { ...manifest.rows } as Record<ResourceName, number>;
    this.changes = new StoredChanges(db, manifest);
    for (const r of resources) this.counts[r.name] ??= 0;
  }

  /** A store of rows given in memory (tests; a JSONL folder goes through memoryDatabase the same way). */
  static fromInput(input: StoreInput, tuning: { firmBatch?: number } = {}): SqliteStore {
    const rows = Object.fromEntries(resources.map((r) => [r.name, input.rows[r.name]?.length ?? 0])) as Record<
      ResourceName,
      number
    >;
    const manifest: DatasetManifest = {
      generator: 'rows given',
      seed: '',
      scale: 0,
      as_of: input.asOf,
      rows,
      total_rows: Object.values(rows).reduce((a, b) => a + b, 0),
      changes: input.changes.length,
      pending: input.pending.length,
    };
    return new SqliteStore(memoryDatabase({ manifest, ...input }), manifest, tuning);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** The database file, which another thread may open read-only (null for an in-memory database). */
  get file(): string | null {
    return this.db.location() || null;
  }

  /** What rebuilds changed of a resource, now, as stored JSON by key in key order (null: unpublished). */
  overlayJson(resource: ResourceName): [string, string | null][] {
    const over = this.overlay.get(resource);
    if (!over) return [];
    return over.keys.keys.map((key) => {
      const row = over.rows.get(key)!;
      return [key, row === null ? null : JSON.stringify(row)];
    });
  }

  get(resource: ResourceName, key: string): Row | undefined {
    const over = this.overlay.get(resource);
    if (over?.rows.has(key)) return over.rows.get(key) ?? undefined;
    return this.database.row(resource, key);
  }

  count(resource: ResourceName): number {
    return this.counts[resource];
  }

  /**
   * Read a batch at a time by key, never through one open statement: a rollup reads on across
   * awaits while other requests use the same statements. Rows changed by rebuilds meanwhile are
   * read as they are when their turn comes (the overlay is looked at row by row).
   */
  *all(resource: ResourceName): Generator<Row> {
    for (const stored of this.database.inKeyOrder(resource)) {
      if (!this.overlay.get(resource)?.rows.has(stored.key)) yield this.database.rows.row(resource, stored);
    }
    const over = this.overlay.get(resource);
    if (over) for (const row of [...over.rows.values()]) if (row) yield row;
  }

  page(
    resource: ResourceName,
    afterKey: string | null,
    limit: number,
    keep?: (row: Row) => boolean,
    range?: DateRange,
  ): Page {
    const { scope, fetch } =
      range && resource === 'round'
        ? this.dates.keys(range)
        : { scope: resource, fetch: (after: string, n: number) => this.database.keysAfter(resource, after, n) };
    return cutPage(this.reads.merged(resource, scope, afterKey, limit, fetch), limit, keep);
  }

  nestedPage(
    index: IndexName,
    parentKey: string,
    afterKey: string | null,
    limit: number,
    keep?: (row: Row) => boolean,
  ): Page {
    const { child, field } = nested[index];
    return cutPage(
      this.reads.merged(
        child,
        `${index}\n${parentKey}`,
        afterKey,
        limit,
        (after, n) => this.database.nestedKeysAfter(index, parentKey, after, n),
        (row) => row[field] === parentKey,
      ),
      limit,
      keep,
    );
  }

  nestedRows(index: IndexName, parentKey: string): Row[] {
    const { child, field } = nested[index];
    const next = this.reads.merged(
      child,
      `${index}\n${parentKey}`,
      null,
      MAX_BATCH,
      (after, n) => this.database.nestedKeysAfter(index, parentKey, after, n),
      (row) => row[field] === parentKey,
    );
    const rows: Row[] = [];
    for (let entry = next(); entry; entry = next()) rows.push(entry[1]);
    return rows;
  }

  changePage(since: string, afterSequence: number, limit: number): { items: Change[]; more: boolean } {
    return this.changes.page(since, afterSequence, limit, this.sequence);
  }

  pendingCount(): number {
    return this.changes.pendingCount();
  }

  protected peekPending(): Observation | undefined {
    return this.changes.peekPending();
  }

  protected takePending(): void {
    this.changes.takePending();
  }

  protected appendChange(change: Change): void {
    this.changes.append(change);
  }

  protected put(resource: ResourceName, key: string, row: Row, previous: Row | undefined): void {
    this.setOverlay(resource, key, row);
    if (!previous) this.counts[resource]++;
  }

  protected delete(resource: ResourceName, key: string): void {
    this.setOverlay(resource, key, null);
    this.counts[resource]--;
  }

  /**
   * The database is never changed, so a scan is the overlay as it is now (copied: a few rows)
   * merged with the database read a batch at a time; rows from the database go out as their stored
   * JSON, unparsed.
   */
  async scan(resource: ResourceName): Promise<RowScan> {
    return this.rowScan(resource);
  }

  private rowScan(resource: ResourceName): RowScan {
    const overlay = new Map(this.overlayJson(resource));
    const next = mergeByKey(this.database.rows.texts(resource, this.database.inKeyOrder(resource)), {
      keys: [...overlay.keys()],
      rows: overlay,
    });
    return {
      next: (max) => {
        const texts: string[] = [];
        for (
          let entry = texts.length < max ? next() : undefined;
          entry;
          entry = texts.length < max ? next() : undefined
        )
          texts.push(entry[1]);
        return texts;
      },
    };
  }

  private setOverlay(resource: ResourceName, key: string, row: Row | null): void {
    let over = this.overlay.get(resource);
    if (!over) this.overlay.set(resource, (over = { rows: new Map(), keys: new SortedKeys() }));
    over.rows.set(key, row);
    over.keys.insert(key);
  }
}
