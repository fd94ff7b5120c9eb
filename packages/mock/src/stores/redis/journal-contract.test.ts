// @module-tag servers
import { afterAll } from 'vitest';
import { runJournalContract } from '../journal-contract.test-support.ts';
import { openRedisState } from './open.ts';
import { missing, startRedis, type RedisServer } from './servers.test-support.ts';

// The journal store contract on a redis-server of this file's own (each test under a prefix of its
// own): the stream, its scripts and its reading through the same cases as the memory ring
// (../journal-contract.test.ts).
const skip = missing('redis-server');
let server: Promise<RedisServer> | undefined;
let prefixes = 0;
afterAll(async () => void (await (await server)?.close()));

runJournalContract({
  name: 'Redis',
  skip,
  open: async (capacity) => {
    const { url } = await (server ??= startRedis());
    const state = await openRedisState(`${url}?prefix=journal${++prefixes}:`, { waitMs: 5000, journal: capacity });
    return { journal: state.journal, close: () => state.keyStore.close() };
  },
});
