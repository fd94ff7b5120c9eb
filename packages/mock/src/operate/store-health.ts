/**
 * The state store's health into the metrics: on Redis, the connection's commands (time, failures)
 * and reconnects, told by stores/redis/connection.ts; on SQLite, its failed transactions by kind.
 */
import type { KeyStore } from '@investor-graph/engine/adapter';
import { SqliteKeyStore } from '../stores/sqlite/key-store.ts';
import type { MockMetrics } from './metrics.ts';

/** Watches `keyStore` into `metrics` until the function returned is called (the memory store: nothing to watch). */
export async function watchStore(keyStore: KeyStore | undefined, metrics: MockMetrics): Promise<() => void> {
  const info = keyStore?.describe();
  if (info?.store === 'redis' && info.location !== null) {
    // Loaded only when the store is on Redis, whose client open.ts has loaded already.
    const { watchRedis } = await import('../stores/redis/connection.ts');
    return watchRedis(info.location, metrics.storeWatcher('redis'));
  }
  if (keyStore instanceof SqliteKeyStore) {
    keyStore.onError = metrics.storeWatcher('sqlite').error;
    return () => (keyStore.onError = undefined);
  }
  return () => undefined;
}
