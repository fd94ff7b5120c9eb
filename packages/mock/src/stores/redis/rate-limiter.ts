/**
 * Token buckets on the Redis server (`--state redis://...`): one bucket per key (and per client
 * address) for every mock on the server, each take one script on it, on the server's clock, so
 * three replicas give a key its plan's rate once, not three times.
 */
import type { BucketKind, RateLimiter, Taken } from '@investor-graph/engine/adapter';
import type { RedisConnection } from './connection.ts';

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisConnection;
  private readonly enforce: boolean;

  /** `enforce` false: every bucket always full (--no-rate-limit), and the server is not asked. */
  constructor(redis: RedisConnection, enforce = true) {
    this.redis = redis;
    this.enforce = enforce;
  }

  async take(kind: BucketKind, name: string, capacity: number, perSecond: number): Promise<Taken> {
    if (!this.enforce) return { wait: 0, left: capacity - 1 };
    const [wait, left] = await this.redis.run<[number, string]>(
      'takeToken',
      [`${this.redis.target.prefix}bucket:${kind}:${name}`],
      [capacity, perSecond, 1],
    );
    return { wait: Number(wait), left: Number(left) };
  }

  async giveBack(kind: BucketKind, name: string, capacity: number, perSecond: number): Promise<void> {
    if (!this.enforce) return;
    await this.redis.run<[number, string]>(
      'takeToken',
      [`${this.redis.target.prefix}bucket:${kind}:${name}`],
      [capacity, perSecond, -1],
    );
  }

  async peek(kind: BucketKind, name: string, capacity: number, perSecond: number): Promise<number> {
    if (!this.enforce) return 0;
    const [wait] = await this.redis.run<[number, string]>(
      'takeToken',
      [`${this.redis.target.prefix}bucket:${kind}:${name}`],
      [capacity, perSecond, 0],
    );
    return Number(wait);
  }
}
