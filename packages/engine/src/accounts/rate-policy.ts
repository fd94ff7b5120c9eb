/**
 * The rate policy: what Accounts does with the token buckets a store keeps (stores/rate-limiter.ts): a key's buckets
 * apart from a client address's, and the 429 of a call over its rate.
 */
import { plans, type PlanId } from '@investor-graph/contract/plans';
import { ProblemError } from '../problems.ts';
import type { BucketKind, RateLimiter } from '../stores/rate-limiter.ts';

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

/**
 * The RateLimit header texts (DECISIONS.md#rate-limit-headers, the IETF ratelimit headers draft),
 * written here alone: the plan's rate a second, and the calls of a period's quota.
 */
export const rateHeaders = {
  /** RateLimit-Policy of a rate of `rate` calls a second. */
  policy: (rate: number): string => `"default";q=${rate};w=1`,
  /** RateLimit of that rate: `left` calls in the bucket, a full one in `reset` seconds. */
  left: (left: number, reset: number): string => `"default";r=${left};t=${reset}`,
  /** RateLimit-Policy's item of a quota of `limit` calls in `window` seconds. */
  quotaPolicy: (limit: number, window: number): string => `"quota";q=${limit};w=${window}`,
  /** RateLimit's item of that quota: `left` calls, renewed in `renews` seconds. */
  quotaLeft: (left: number, renews: number): string => `"quota";r=${left};t=${renews}`,
};

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
    { plan, headers: { ...headers, 'retry-after': String(wait), ratelimit: rateHeaders.left(0, wait) } },
  );
}
