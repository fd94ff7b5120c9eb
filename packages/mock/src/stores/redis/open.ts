/**
 * The state on a Redis server, as startMock opens it: a key store, the token buckets, the request
 * journal and the incidents, on one connection.
 */
import { RedisConnection } from './connection.ts';
import { parseRedisUrl } from './url.ts';
import { RedisKeyStore } from './key-store.ts';
import { RedisRateLimiter } from './rate-limiter.ts';
import { RedisJournal } from './journal.ts';
import { RedisIncidents } from './incidents.ts';

export { isRedisUrl, parseRedisUrl, RedisStateError } from './url.ts';
export { RedisKeyStore } from './key-store.ts';
export { RedisJournal } from './journal.ts';
export { RedisIncidents } from './incidents.ts';

export interface RedisState {
  keyStore: RedisKeyStore;
  limiter: RedisRateLimiter;
  /** The journal every mock on the server (under the same prefix) writes and reads. */
  journal: RedisJournal;
  /** The incidents every mock on the server (under the same prefix) meets. */
  incidents: RedisIncidents;
}

/**
 * Connects to the server named by a `--state redis://...` URL, waiting up to `waitMs` for it (a
 * replica may start before its Redis), and checks what it holds is this mock's.
 */
export async function openRedisState(
  url: string,
  options: { waitMs?: number; enforceLimits?: boolean; journal?: number | undefined } = {},
): Promise<RedisState> {
  const redis = new RedisConnection(parseRedisUrl(url));
  await redis.connect(options.waitMs ?? 15_000);
  const keyStore = new RedisKeyStore(redis);
  try {
    await keyStore.open();
  } catch (error) {
    await redis.close();
    throw error;
  }
  return {
    keyStore,
    limiter: new RedisRateLimiter(redis, options.enforceLimits !== false),
    journal: new RedisJournal(redis, options.journal),
    incidents: new RedisIncidents(redis),
  };
}
