/**
 * Token buckets, by kind and name: a key's rate, the trial call's rate per client address, and each
 * address's budget of calls without a valid key. They run on real time (DECISIONS.md#rate-limit-headers).
 * `MemoryRateLimiter` (stores/memory/) keeps them in this process; a shared store implements this to
 * give every mock on it one bucket per name (the mock's stores/sqlite/buckets.ts, stores/redis/).
 */

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
