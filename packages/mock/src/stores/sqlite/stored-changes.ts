/**
 * The changes feed and the observations still to come of an SQLite dataset: the database's (read
 * by seeks, never all at once) followed by what rebuilds appended since it was opened.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { DatasetManifest, Observation, ResourceName, Row } from '@investor-graph/dataset-tools';
import type { Change } from '@investor-graph/engine/adapter';

/** Pending observations read at a time. */
const PENDING_BATCH = 256;

export class StoredChanges {
  private readonly baseChanges: number;
  private readonly appended: Change[] = [];
  private readonly firstChangeFrom: StatementSync;
  private readonly changesFrom: StatementSync;
  private readonly pendingAfter: StatementSync;
  private pending: { at: string; seq: number; observation: Observation }[] = [];
  private pendingTaken = 0;
  private readonly pendingTotal: number;
  private lastPending: { at: string; seq: number } = { at: '', seq: 0 };

  constructor(db: DatabaseSync, manifest: DatasetManifest) {
    this.baseChanges = manifest.changes;
    this.pendingTotal = manifest.pending;
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

  /** A page of the changes feed from `since`, after `afterSequence`; `sequence`: the last change's. */
  page(since: string, afterSequence: number, limit: number, sequence: number): { items: Change[]; more: boolean } {
    // Sequence follows changed_at (rebuilds run forward in time), so the first change at or after
    // `since` is a seek on the (changed_at, sequence) index, and the page runs on from there.
    const inBase = this.firstChangeFrom.get(since) as { sequence: number } | undefined;
    const first = inBase?.sequence ?? this.appended.find((c) => c.changed_at >= since)?.sequence ?? sequence + 1;
    const start = Math.max(first, afterSequence + 1);
    const items =
      start <= this.baseChanges
        ? (this.changesFrom.all(start, limit) as unknown as Change[]).map((c) => ({ ...c }))
        : [];
    for (let i = Math.max(0, start - this.baseChanges - 1); items.length < limit && i < this.appended.length; i++)
      items.push(this.appended[i]!);
    return { items, more: start - 1 + limit < sequence };
  }

  pendingCount(): number {
    return this.pendingTotal - this.pendingTaken;
  }

  /** The next observation still to come, read a batch at a time. */
  peekPending(): Observation | undefined {
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

  takePending(): void {
    const taken = this.pending.shift()!;
    this.lastPending = { at: taken.at, seq: taken.seq };
    this.pendingTaken++;
  }

  append(change: Change): void {
    this.appended.push(change);
  }
}
