// @module-tag servers
import { afterAll } from 'vitest';
import { runIncidentStoreContract } from '@investor-graph/engine/testing';
import { openRedisState } from './open.ts';
import { missing, startRedis, type RedisServer } from './servers.test-support.ts';

// The incident store contract on a redis-server of this file's own (each test under a prefix of its
// own): the table, its Lua take and its expiry through the same cases as the memory store
// (packages/engine/src/incidents/store-contract.test.ts).
const skip = missing('redis-server');
let server: Promise<RedisServer> | undefined;
let prefixes = 0;
afterAll(async () => void (await (await server)?.close()));

runIncidentStoreContract({
  name: 'Redis',
  skip,
  open: async () => {
    const { url } = await (server ??= startRedis());
    const state = await openRedisState(`${url}?prefix=incidents${++prefixes}:`, { waitMs: 5000 });
    return { store: state.incidents, close: () => state.keyStore.close() };
  },
});
