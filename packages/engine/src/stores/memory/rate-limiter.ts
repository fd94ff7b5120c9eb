/**
 * Token buckets in this process's memory (the default limiter, and a key's own buckets on a SQLite
 * store), stepped by the arithmetic every store's buckets share (stores/token-bucket.ts).
 */
import type { Bucket, BucketKind, RateLimiter, Taken } from '../rate-limiter.ts';
import { bucketStep, type BucketMove, type BucketStep } from '../token-bucket.ts';

/** Addresses kept per kind of address bucket: the one seen longest ago goes when full. */
const ADDRESSES = 10_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly tables: Record<BucketKind, Map<string, Bucket>> = {
    key: new Map(),
    'trial-call': new Map(),
    'failed-auth': new Map(),
    'admin-token': new Map(),
  };

  private readonly now: () => number;
  private readonly enforce: boolean;

  /** `enforce` false: every bucket always full (benchmarks of the mock itself). */
  constructor(now: () => number = () => performance.now(), enforce = true) {
    this.now = now;
    this.enforce = enforce;
  }

  take(kind: BucketKind, name: string, capacity: number, perSecond: number): Taken {
    const bucket = this.bucket(kind, name, capacity);
    if (!this.enforce) bucket.tokens = capacity;
    const { wait, left } = this.step(bucket, capacity, perSecond, 1);
    return wait ? { wait, left: 0 } : { wait: 0, left };
  }

  peek(kind: BucketKind, name: string, capacity: number, perSecond: number): number {
    if (!this.enforce) return 0;
    return this.step(this.bucket(kind, name, capacity), capacity, perSecond, 0).wait;
  }

  giveBack(kind: BucketKind, name: string, capacity: number, perSecond: number): void {
    this.step(this.bucket(kind, name, capacity), capacity, perSecond, -1);
  }

  /** A bucket, full when new; a key's are kept, an address table drops its oldest when full. */
  private bucket(kind: BucketKind, name: string, capacity: number): Bucket {
    const table = this.tables[kind];
    let bucket = table.get(name);
    if (!bucket) {
      // Bounded: the address seen longest ago goes, not the whole table (which reset everyone).
      if (kind !== 'key' && table.size >= ADDRESSES) table.delete(table.keys().next().value!);
      table.set(name, (bucket = { tokens: capacity, filledAt: this.now() }));
    }
    return bucket;
  }

  /** One step of the arithmetic every store's buckets share (token-bucket.ts), kept in `bucket`. */
  private step(bucket: Bucket, capacity: number, perSecond: number, move: BucketMove): BucketStep {
    const now = this.now();
    const step = bucketStep({ tokens: bucket.tokens, elapsedMs: now - bucket.filledAt }, capacity, perSecond, move);
    bucket.tokens = step.left;
    bucket.filledAt = now;
    return step;
  }
}
