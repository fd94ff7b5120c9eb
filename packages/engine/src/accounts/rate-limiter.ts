/**
 * Token buckets, by kind and name: a key's rate, the trial call's rate per client address, and each
 * address's budget of calls without a valid key. They run on real time (DECISIONS.md#rate-limit-headers).
 * `RateLimiter` is what a shared store implements to give every mock on it one bucket per name
 * (each step one atomic round trip: node/redis/); `MemoryRateLimiter` keeps them in this process.
 */
import { plans, type PlanId } from '@investor-graph/contract/plans';
import { ProblemError } from '../problems.ts';

export type BucketKind = 'key' | 'trial-call' | 'failed-auth' | 'admin-token';

export interface Bucket {
  tokens: number;
  /** When it was last filled (real time, ms). */
  filledAt: number;
}

/** A token taken (`wait` 0, `left` in the bucket after it) or not (`wait` whole seconds until one is). */
export interface Taken {
  wait: number;
  left: number;
}

export interface RateLimiter {
  /**
   * Takes a token from bucket `name` (at most `capacity`, refilled at `perSecond`, full when new):
   * `wait` 0 and the tokens `left`, or the whole seconds until a token is there (nothing taken).
   */
  take(kind: BucketKind, name: string, capacity: number, perSecond: number): Taken | Promise<Taken>;
  /** Whether a token is there, taking none: 0, or the whole seconds until one is. */
  peek(kind: BucketKind, name: string, capacity: number, perSecond: number): number | Promise<number>;
  /** Puts back a token taken for a call that turned out not to spend it (a key found valid), up to `capacity`. */
  giveBack(kind: BucketKind, name: string, capacity: number, perSecond: number): void | Promise<void>;
}

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

/**
 * A key's buckets from one limiter (this process's), a client address's from another (the state
 * store's, shared by every mock on it): what a store that keeps the address budgets but not the
 * per-key rate gives (SQLite).
 */
export function keysApart(keys: RateLimiter, addresses: RateLimiter): RateLimiter {
  const of = (kind: BucketKind): RateLimiter => (kind === 'key' ? keys : addresses);
  return {
    take: (kind, name, capacity, perSecond) => of(kind).take(kind, name, capacity, perSecond),
    peek: (kind, name, capacity, perSecond) => of(kind).peek(kind, name, capacity, perSecond),
    giveBack: (kind, name, capacity, perSecond) => of(kind).giveBack(kind, name, capacity, perSecond),
  };
}

/** The 429 of a call over its rate: on a key's plan (`plan`), or on the trial call without one (null). */
export function overTheRate(
  plan: PlanId | null,
  rate: number,
  wait: number,
  headers: Record<string, string>,
): ProblemError {
  return new ProblemError(
    'rate_limited',
    `The ${plan ? plans[plan].name : 'trial key'} limit is ${rate} requests a second; ` +
      `retry after ${wait} second${wait === 1 ? '' : 's'}.`,
    { plan, headers: { ...headers, 'retry-after': String(wait), ratelimit: `"default";r=0;t=${wait}` } },
  );
}
