/**
 * The rows of a dataset database as it was written (never changed): read by key or in key order
 * through statements prepared once, one per resource and nested list, and parsed once.
 *
 * Keys compare as SQLite's BINARY collation (UTF-8 bytes) and JavaScript's `<` (UTF-16 units): the
 * same order for the ASCII slugs and ids the dataset has.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import { resources, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import {
  rowColumns,
  seekColumns,
  storedRows,
  tableOf,
  type StoredRow,
  type StoredRows,
} from '@investor-graph/dataset-tools/database';
import { nested, type IndexName } from '@investor-graph/engine/adapter';
import { arrays, keysOf, MAX_BATCH } from './merged-reads.ts';

export class DatabaseRows {
  /** A stored row made a row, or its JSON as stored. */
  readonly rows: StoredRows;
  private readonly byKey = new Map<ResourceName, StatementSync>();
  private readonly after = new Map<ResourceName, StatementSync>();
  /** Keys only: read from the index alone, the rows then come from `parsed` when it has them. */
  private readonly keysAfterStatements = new Map<ResourceName, StatementSync>();
  private readonly nestedKeysAfterStatements = new Map<IndexName, StatementSync>();
  /**
   * Rows parsed from the database, by resource and key, so that a row served again is the same
   * object (the serialiser remembers a row's JSON and a page's bytes by identity) and is not parsed
   * again. Bounded by the rows' JSON size: a walk over ten million rows keeps the last 16 MB of it
   * (two to three times that as objects).
   */
  private readonly parsed = new LRUCache<string, Row>({ maxSize: 16 * 1024 * 1024 });

  constructor(db: DatabaseSync) {
    this.rows = storedRows(db);
    for (const r of resources) {
      const table = tableOf(r.name);
      this.byKey.set(r.name, db.prepare(`SELECT ${rowColumns(r.name)} FROM ${table} WHERE key = ?`));
      this.after.set(
        r.name,
        db.prepare(`SELECT ${rowColumns(r.name)} FROM ${table} WHERE key > ? ORDER BY key LIMIT ?`),
      );
      this.keysAfterStatements.set(
        r.name,
        arrays(db.prepare(`SELECT key FROM ${table} WHERE key > ? ORDER BY key LIMIT ?`)),
      );
    }
    for (const [name, spec] of Object.entries(nested) as [IndexName, (typeof nested)[IndexName]][]) {
      // The dataset tools' table layout and the engine's nested lists must agree on the columns sought.
      if (!seekColumns[spec.child].includes(spec.field))
        throw new Error(
          `[investor-graph] the dataset database has no ${spec.field} column on ${spec.child} for ${name}`,
        );
      this.nestedKeysAfterStatements.set(
        name,
        arrays(
          db.prepare(`SELECT key FROM ${tableOf(spec.child)} WHERE ${spec.field} = ? AND key > ? ORDER BY key LIMIT ?`),
        ),
      );
    }
  }

  /** A row as the database has it: remembered, or read and parsed. */
  row(resource: ResourceName, key: string): Row | undefined {
    const cached = this.parsed.get(`${resource}\n${key}`);
    if (cached) return cached;
    const found = this.byKey.get(resource)!.get(key) as StoredRow | undefined;
    if (!found) return undefined;
    const row = this.rows.row(resource, found);
    // Twice the stored text (kept compacted: the dataset tools'
    // stored-rows.ts): about the row's JSON, which the bound was set by.
    this.parsed.set(`${resource}\n${key}`, row, { size: found.json.length * 2 });
    return row;
  }

  /** The database's keys of a resource after `after`, `n` at most, from the index alone. */
  keysAfter(resource: ResourceName, after: string, n: number): string[] {
    return keysOf(this.keysAfterStatements.get(resource)!.all(after, n));
  }

  /** The database's keys of a nested list under `parentKey` after `after`, `n` at most. */
  nestedKeysAfter(index: IndexName, parentKey: string, after: string, n: number): string[] {
    return keysOf(this.nestedKeysAfterStatements.get(index)!.all(parentKey, after, n));
  }

  /** The database's rows of a resource in key order, read a batch at a time (one query each, never one held open). */
  *inKeyOrder(resource: ResourceName): Generator<StoredRow> {
    const statement = this.after.get(resource)!;
    for (let after = ''; ;) {
      const batch = statement.all(after, MAX_BATCH) as unknown as StoredRow[];
      yield* batch;
      if (batch.length < MAX_BATCH) return;
      after = batch[batch.length - 1]!.key;
    }
  }
}
