/**
 * Token buckets in this process's memory (the default limiter, and a key's own buckets on a SQLite
 * store): the arithmetic every store's buckets share (stores/rate-limiter.ts).
 */
import type { Bucket, BucketKind, RateLimiter, Taken } from '../rate-limiter.ts';

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
    const wait = this.refill(bucket, capacity, perSecond);
    if (wait) return { wait, left: 0 };
    bucket.tokens -= 1;
    return { wait: 0, left: bucket.tokens };
  }

  peek(kind: BucketKind, name: string, capacity: number, perSecond: number): number {
    if (!this.enforce) return 0;
    return this.refill(this.bucket(kind, name, capacity), capacity, perSecond);
  }

  giveBack(kind: BucketKind, name: string, capacity: number, perSecond: number): void {
    const bucket = this.bucket(kind, name, capacity);
    this.refill(bucket, capacity, perSecond);
    bucket.tokens = Math.min(capacity, bucket.tokens + 1);
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

  /**
   * Tops a bucket up for the time since it was last filled, to at most `capacity`; returns 0 when a
   * token is there to take, else the whole seconds until one is (for Retry-After).
   */
  private refill(bucket: Bucket, capacity: number, perSecond: number): number {
    const now = this.now();
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.filledAt) / 1000) * perSecond);
    bucket.filledAt = now;
    return bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }
}
