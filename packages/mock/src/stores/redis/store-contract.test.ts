// @module-tag servers
import { afterAll } from 'vitest';
import { runStoreContract } from '../store-contract.test-support.ts';
import { openRedisState } from './open.ts';
import { missing, startRedis, type RedisServer } from './servers.test-support.ts';

// The store contract on a redis-server of this file's own (each test under a prefix of its own):
// the Lua scripts, the metering table's generated rows among them, through the same cases as
// the memory and SQLite stores (../store-contract.test.ts).
const skip = missing('redis-server');
let server: Promise<RedisServer> | undefined;
let prefixes = 0;
afterAll(async () => void (await (await server)?.close()));

runStoreContract({
  name: 'Redis',
  skip,
  open: async () => {
    const { url } = await (server ??= startRedis());
    const { keyStore, limiter } = await openRedisState(`${url}?prefix=contract${++prefixes}:`, { waitMs: 5000 });
    return { keyStore, limiter, close: () => keyStore.close() };
  },
});
