/**
 * The named values beside the keys on the Redis server (the clock, the cursor secret: `meta:<name>`),
 * read at start and when the clock is set: apart from the key store's records and metering.
 */
import type { MetaName } from '@investor-graph/engine/adapter';
import type { RedisConnection } from './connection.ts';
import type { names } from './layout.ts';

/** Tries of a read-change-write step (a named value, a key) that met another mock's write in between. */
export const TRIES = 20;

export class RedisMeta {
  private readonly redis: RedisConnection;
  private readonly k: ReturnType<typeof names>;

  constructor(redis: RedisConnection, k: ReturnType<typeof names>) {
    this.redis = redis;
    this.k = k;
  }

  async get(name: MetaName): Promise<string | undefined> {
    return (await this.redis.call((c) => c.get(this.k.meta(name)))) ?? undefined;
  }

  /** The value as kept; `initial` kept first when there is none (the first mock on the server decides). */
  async claim(name: MetaName, initial: string): Promise<string> {
    return (await this.redis.call((c) => c.set(this.k.meta(name), initial, 'NX', 'GET'))) ?? initial;
  }

  /** Read, `edit`, and written only if no other mock wrote it in between (tried again then). */
  async change(name: MetaName, edit: (current: string | undefined) => string): Promise<string> {
    for (let i = 0; i < TRIES; i++) {
      const read = await this.get(name);
      const next = edit(read);
      if (
        (await this.redis.run<number>(
          'setIfUnchanged',
          [this.k.meta(name)],
          [read ?? '', next, read === undefined ? 0 : 1],
        )) === 1
      )
        return next;
    }
    throw new Error(`[investor-graph mock] ${name} kept changing under ${TRIES} tries to change it`);
  }
}
