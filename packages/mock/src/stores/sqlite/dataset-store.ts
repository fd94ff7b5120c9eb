/**
 * The data from an SQLite database (node:sqlite), as @investor-graph/fixtures writes it
 * (fixtures/src/database.ts): what lets the Node server open ten million rows in well under two
 * seconds and serve them in a few hundred megabytes, where the memory store held every row as an
 * object. The database is opened read-only and never changed: it is the dataset at its as-of, the
 * same for every start. What simulated rebuilds change lives in memory beside it (`overlay`: the
 * rows created, replaced or unpublished, and the changes logged), and every read merges the two in
 * key order. Rebuilds change a few thousand rows at most, so the overlay stays small.
 *
 * Keys compare as SQLite's BINARY collation (UTF-8 bytes) and JavaScript's `<` (UTF-16 units): the
 * same order for the ASCII slugs and ids the dataset has.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import {
  resources,
  type DatasetManifest,
  type Observation,
  type ResourceName,
  type Row,
} from '@investor-graph/fixtures';
import {
  memoryDatabase,
  rowColumns,
  seekColumns,
  storedRows,
  tableOf,
  type StoredRow,
  type StoredRows,
} from '@investor-graph/fixtures/node';
import { mergeByKey } from './merge-by-key.ts';
import { arrays, keysOf, MAX_BATCH, MergedReads, type Overlay } from './merged-reads.ts';
import { StoredRollups } from './stored-rollups.ts';
import { SortedKeys } from '../memory/dataset-store.ts';
import { cutPage, RebuildingStore } from '../../engine/data/rebuilding-store.ts';
import {
  nested,
  type Change,
  type DateRange,
  type IndexName,
  type Page,
  type RowScan,
  type Store,
  type StoreInput,
} from '../../engine/data/store.ts';
import { DateSeeks } from './date-seeks.ts';

/** Pending observations read at a time. */
const PENDING_BATCH = 256;

export class SqliteStore extends RebuildingStore implements Store {
  private readonly db: DatabaseSync;
  private readonly rows: StoredRows;
  private readonly counts: Record<ResourceName, number>;
  private readonly byKey = new Map<ResourceName, StatementSync>();
  private readonly after = new Map<ResourceName, StatementSync>();
  /** Keys only: read from the index alone, the rows then come from `parsed` when it has them. */
  private readonly keysAfter = new Map<ResourceName, StatementSync>();
  private readonly nestedKeysAfter = new Map<IndexName, StatementSync>();
  private readonly overlay = new Map<ResourceName, Overlay>();
  /**
   * Rows parsed from the database, by resource and key, so that a row served again is the same
   * object (the serialiser remembers a row's JSON and a page's bytes by identity) and is not parsed
   * again. Bounded by the rows' JSON size: a walk over ten million rows keeps the last 16 MB of it
   * (two to three times that as objects).
   */
  private readonly parsed = new LRUCache<string, Row>({ maxSize: 16 * 1024 * 1024 });
  /** The database's rows merged with the overlay, in key order. */
  private readonly reads: MergedReads;
  private readonly baseChanges: number;
  private readonly appended: Change[] = [];
  private readonly firstChangeFrom: StatementSync;
  private readonly changesFrom: StatementSync;
  private readonly pendingAfter: StatementSync;
  private pending: { at: string; seq: number; observation: Observation }[] = [];
  private pendingTaken = 0;
  private readonly pendingTotal: number;
  private lastPending: { at: string; seq: number } = { at: '', seq: 0 };
  /** The statistics' counts (stored with the dataset, brought up to date from the overlay) and date seeks on rounds. */
  readonly rollups: StoredRollups;
  private readonly dates: DateSeeks;

  /** `firmBatch`: how many of the busiest firms a rollup reads at a time (StoredRollups; tests set it low). */
  constructor(db: DatabaseSync, manifest: DatasetManifest, tuning: { firmBatch?: number } = {}) {
    super(manifest.as_of, manifest.changes);
    this.db = db;
    this.rows = storedRows(db);
    this.reads = new MergedReads((resource, key) => this.base(resource, key), this.overlay);
    this.dates = new DateSeeks(db);
    this.rollups = new StoredRollups(
      db,
      this.overlay,
      (resource, key) => this.base(resource, key),
      (resource, key) => this.get(resource, key),
      tuning.firmBatch,
    );
    this.counts = { ...manifest.rows } as Record<ResourceName, number>;
    this.baseChanges = manifest.changes;
    this.pendingTotal = manifest.pending;
    for (const r of resources) {
      const table = tableOf(r.name);
      this.byKey.set(r.name, db.prepare(`SELECT ${rowColumns(r.name)} FROM ${table} WHERE key = ?`));
      this.after.set(
        r.name,
        db.prepare(`SELECT ${rowColumns(r.name)} FROM ${table} WHERE key > ? ORDER BY key LIMIT ?`),
      );
      this.keysAfter.set(r.name, arrays(db.prepare(`SELECT key FROM ${table} WHERE key > ? ORDER BY key LIMIT ?`)));
      this.counts[r.name] ??= 0;
    }
    for (const [name, spec] of Object.entries(nested) as [IndexName, (typeof nested)[IndexName]][]) {
      // The fixtures' table layout and the engine's nested lists must agree on the columns sought.
      if (!seekColumns[spec.child].includes(spec.field))
        throw new Error(
          `[investor-graph] the dataset database has no ${spec.field} column on ${spec.child} for ${name}`,
        );
      this.nestedKeysAfter.set(
        name,
        arrays(
          db.prepare(`SELECT key FROM ${tableOf(spec.child)} WHERE ${spec.field} = ? AND key > ? ORDER BY key LIMIT ?`),
        ),
      );
    }
    this.firstChangeFrom = db.prepare(
      'SELECT sequence FROM changes WHERE changed_at >= ? ORDER BY changed_at, sequence LIMIT 1',
    );
    this.changesFrom = db.prepare(
      'SELECT sequence, kind, resource, key, changed_at FROM changes WHERE sequence >= ? ORDER BY sequence LIMIT ?',
    );
    this.pendingAfter = db.prepare(
      'SELECT seq, at, resource, key, json FROM pending WHERE (at, seq) > (?, ?) ORDER BY at, seq LIMIT ?',
    );
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
    return this.base(resource, key);
  }

  /** A row as the database has it: remembered, or read and parsed. */
  private base(resource: ResourceName, key: string): Row | undefined {
    const cached = this.parsed.get(`${resource}\n${key}`);
    if (cached) return cached;
    const found = this.byKey.get(resource)!.get(key) as StoredRow | undefined;
    if (!found) return undefined;
    const row = this.rows.row(resource, found);
    // Twice the stored text (kept compacted: the fixtures'
    // stored-rows.ts): about the row's JSON, which the bound was set by.
    this.parsed.set(`${resource}\n${key}`, row, { size: found.json.length * 2 });
    return row;
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
    for (const stored of this.stored(resource)) {
      if (!this.overlay.get(resource)?.rows.has(stored.key)) yield this.rows.row(resource, stored);
    }
    const over = this.overlay.get(resource);
    if (over) for (const row of [...over.rows.values()]) if (row) yield row;
  }

  /** The database's rows of a resource in key order, read a batch at a time (one query each, never one held open). */
  private *stored(resource: ResourceName): Generator<StoredRow> {
    const statement = this.after.get(resource)!;
    for (let after = ''; ;) {
      const batch = statement.all(after, MAX_BATCH) as unknown as StoredRow[];
      yield* batch;
      if (batch.length < MAX_BATCH) return;
      after = batch[batch.length - 1]!.key;
    }
  }

  page(
    resource: ResourceName,
    afterKey: string | null,
    limit: number,
    keep?: (row: Row) => boolean,
    range?: DateRange,
  ): Page {
    const statement = this.keysAfter.get(resource)!;
    const { scope, fetch } =
      range && resource === 'round'
        ? this.dates.keys(range)
        : { scope: resource, fetch: (after: string, n: number) => keysOf(statement.all(after, n)) };
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
    const statement = this.nestedKeysAfter.get(index)!;
    return cutPage(
      this.reads.merged(
        child,
        `${index}\n${parentKey}`,
        afterKey,
        limit,
        (after, n) => keysOf(statement.all(parentKey, after, n)),
        (row) => row[field] === parentKey,
      ),
      limit,
      keep,
    );
  }

  nestedRows(index: IndexName, parentKey: string): Row[] {
    const { child, field } = nested[index];
    const statement = this.nestedKeysAfter.get(index)!;
    const next = this.reads.merged(
      child,
      `${index}\n${parentKey}`,
      null,
      MAX_BATCH,
      (after, n) => keysOf(statement.all(parentKey, after, n)),
      (row) => row[field] === parentKey,
    );
    const rows: Row[] = [];
    for (let entry = next(); entry; entry = next()) rows.push(entry[1]);
    return rows;
  }

  changePage(since: string, afterSequence: number, limit: number): { items: Change[]; more: boolean } {
    // Sequence follows changed_at (rebuilds run forward in time), so the first change at or after
    // `since` is a seek on the (changed_at, sequence) index, and the page runs on from there.
    const inBase = this.firstChangeFrom.get(since) as { sequence: number } | undefined;
    const first = inBase?.sequence ?? this.appended.find((c) => c.changed_at >= since)?.sequence ?? this.sequence + 1;
    const start = Math.max(first, afterSequence + 1);
    const items =
      start <= this.baseChanges
        ? (this.changesFrom.all(start, limit) as unknown as Change[]).map((c) => ({ ...c }))
        : [];
    for (let i = Math.max(0, start - this.baseChanges - 1); items.length < limit && i < this.appended.length; i++)
      items.push(this.appended[i]!);
    return { items, more: start - 1 + limit < this.sequence };
  }

  pendingCount(): number {
    return this.pendingTotal - this.pendingTaken;
  }

  protected peekPending(): Observation | undefined {
    if (!this.pending.length && this.pendingTaken < this.pendingTotal) {
      const batch = this.pendingAfter.all(this.lastPending.at, this.lastPending.seq, PENDING_BATCH) as unknown as {
        seq: number;
        at: string;
        resource: ResourceName;
        key: string;
        json: string | null;
      }[];
      this.pending = batch.map((p) => ({
        at: p.at,
        seq: p.seq,
        observation: {
          at: p.at,
          resource: p.resource,
          key: p.key,
          row: p.json === null ? null : (JSON.parse(p.json) as Row),
        },
      }));
    }
    return this.pending[0]?.observation;
  }

  protected takePending(): void {
    const taken = this.pending.shift()!;
    this.lastPending = { at: taken.at, seq: taken.seq };
    this.pendingTaken++;
  }

  protected appendChange(change: Change): void {
    this.appended.push(change);
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
  scan(resource: ResourceName): Promise<RowScan> {
    // Settles at once (the store's interface is asynchronous): a failed read is a rejection.
    return new Promise((resolve) => resolve(this.rowScan(resource)));
  }

  private rowScan(resource: ResourceName): RowScan {
    const overlay = new Map(this.overlayJson(resource));
    const next = mergeByKey(this.rows.texts(resource, this.stored(resource)), {
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
