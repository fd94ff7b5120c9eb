import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { MemoryKeyStore } from '@investor-graph/engine/adapter';
import { MemoryRateLimiter } from '@investor-graph/engine/adapter';
import { SqliteKeyStore } from './sqlite/key-store.ts';
import { runStoreContract } from './store-contract.test-support.ts';

// The stores that start nothing: in this process's memory, and SQLite (in memory and in a file).
// The Redis store runs the same suite against a redis-server of its own: redis/store-contract.test.ts.
const temp = mkdtempSync(join(tmpdir(), 'ig-store-contract-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let files = 0;

runStoreContract({
  name: 'memory',
  open: () => Promise.resolve({ keyStore: new MemoryKeyStore(), limiter: new MemoryRateLimiter(), close: () => {} }),
});

runStoreContract({
  name: 'SQLite in memory',
  open: () => {
    const keyStore = new SqliteKeyStore(':memory:', 'normal');
    return Promise.resolve({ keyStore, limiter: keyStore.buckets(), close: () => keyStore.close() });
  },
});

runStoreContract({
  name: 'SQLite file',
  open: () => {
    const keyStore = SqliteKeyStore.open(join(temp, `state-${++files}.db`));
    return Promise.resolve({ keyStore, limiter: keyStore.buckets(), close: () => keyStore.close() });
  },
});
