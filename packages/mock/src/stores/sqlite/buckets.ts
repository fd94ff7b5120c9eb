/**
 * Token buckets in the state database (`--state FILE`), shared by every mock on the file: a client
 * address's budgets (calls without a valid key, the trial call's rate, admin-token tries) and the
 * trial cap's window. Each step is one transaction under SQLite's write lock, so calls sent
 * together, to this process or another on the file, spend one budget (DECISIONS.md#failed-authentication).
 * They run on the wall clock, which the processes on one machine share; a key's own bucket stays in
 * each process (rate-limiter.ts), since a counted call would otherwise pay a second write.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { BucketKind, RateLimiter, Taken } from '@investor-graph/engine/adapter';
import { bucketStep, type BucketMove } from '@investor-graph/engine/adapter';

interface BucketRow {
  tokens: number;
  at: number;
}

/** Rows of buckets past their expiry deleted a step, so the table stays as small as its live buckets. */
const SWEEP = 16;

export class SqliteBuckets implements RateLimiter {
  private readonly read: StatementSync;
  private readonly write: StatementSync;
  private readonly sweep: StatementSync;
  private readonly inTransaction: <T>(work: () => T) => T;
  private readonly enforce: boolean;

  constructor(db: DatabaseSync, inTransaction: <T>(work: () => T) => T, enforce: boolean) {
    this.read = db.prepare('SELECT tokens, at FROM buckets WHERE kind = ? AND name = ?');
    this.write = db.prepare(
      'INSERT INTO buckets (kind, name, tokens, at, expires) VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, name) DO ' +
        'UPDATE SET tokens = excluded.tokens, at = excluded.at, expires = excluded.expires',
    );
    this.sweep = db.prepare(
      `DELETE FROM buckets WHERE rowid IN (SELECT rowid FROM buckets WHERE expires < ? LIMIT ${SWEEP})`,
    );
    this.inTransaction = inTransaction;
    this.enforce = enforce;
  }

  take(kind: BucketKind, name: string, capacity: number, perSecond: number): Taken {
    if (!this.enforce) return { wait: 0, left: capacity - 1 };
    return this.step(kind, name, capacity, perSecond, 1);
  }

  peek(kind: BucketKind, name: string, capacity: number, perSecond: number): number {
    if (!this.enforce) return 0;
    return this.step(kind, name, capacity, perSecond, 0).wait;
  }

  giveBack(kind: BucketKind, name: string, capacity: number, perSecond: number): void {
    if (!this.enforce) return;
    this.step(kind, name, capacity, perSecond, -1);
  }

  /**
   * Counts one against a fixed window of `windowMs` holding `max` (the trial cap a minute), or the
   * whole seconds until the window ends. Called inside the transaction that issues the trial.
   */
  countInWindow(kind: string, name: string, max: number, windowMs: number): number {
    return this.inTransaction(() => {
      const now = Date.now();
      const row = this.read.get(kind, name) as BucketRow | undefined;
      const [start, count] = row && now - row.at < windowMs ? [row.at, row.tokens] : [now, 0];
      if (count >= max) return Math.max(1, Math.ceil((start + windowMs - now) / 1000));
      this.write.run(kind, name, count + 1, start, start + windowMs);
      return 0;
    });
  }

  /**
   * One bucket step in a transaction, by the arithmetic every store's buckets share (the engine's
   * stores/token-bucket.ts): refilled for the time since it was last touched (full when new), then moved.
   */
  private step(kind: BucketKind, name: string, capacity: number, perSecond: number, move: BucketMove): Taken {
    return this.inTransaction(() => {
      const now = Date.now();
      this.sweep.run(now);
      const row = this.read.get(kind, name) as BucketRow | undefined;
      const bucket = row ? { tokens: row.tokens, elapsedMs: now - row.at } : { tokens: capacity, elapsedMs: 0 };
      const { wait, left, fullAfterMs } = bucketStep(bucket, capacity, perSecond, move);
      // Kept until it would be full again, after which a new row is the same bucket.
      this.write.run(kind, name, left, now, now + fullAfterMs);
      return { wait, left };
    });
  }
}
