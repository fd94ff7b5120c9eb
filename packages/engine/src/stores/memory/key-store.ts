/**
 * Keys in this process's memory, gone when it ends: the default store of the engine, of tests and
 * of MSW (browser-safe). The same interface and atomic steps as the SQLite and Redis stores.
 */
import type { KeyRecord, MetaName, StoreInfo } from '../key-store.ts';
import { TransactionalKeyStore } from '../transactional-key-store.ts';

/**
 * State in this process's memory, gone when it ends. JavaScript runs one request's synchronous
 * part at a time, so a transaction needs no lock; what it changes is kept by `save`, which copies a
 * record's fields into the stored one, so a transaction that throws before saving changed nothing.
 */
export class MemoryKeyStore extends TransactionalKeyStore {
  private readonly hashes = new Map<string, KeyRecord>();
  private readonly ids = new Map<string, KeyRecord>();
  private readonly trials = new Map<string, KeyRecord>();
  private readonly meta = new Map<MetaName, string>();

  transaction<T>(work: () => T): T {
    return work();
  }

  byHash(hash: string): KeyRecord | undefined {
    return this.hashes.get(hash);
  }

  byId(keyId: string): KeyRecord | undefined {
    return this.ids.get(keyId);
  }

  trialByEmail(emailHash: string): KeyRecord | undefined {
    return this.trials.get(emailHash);
  }

  insert(record: KeyRecord): boolean {
    if (this.hashes.has(record.hash)) return false;
    this.hashes.set(record.hash, record);
    this.ids.set(record.keyId, record);
    if (record.emailHash) this.trials.set(record.emailHash, record);
    return true;
  }

  save(record: KeyRecord): void {
    const stored = this.ids.get(record.keyId);
    if (stored && stored !== record) Object.assign(stored, record);
  }

  list(): KeyRecord[] {
    return [...this.ids.values()];
  }

  getMeta(name: MetaName): string | undefined {
    return this.meta.get(name);
  }

  setMeta(name: MetaName, value: string): void {
    this.meta.set(name, value);
  }

  pruneTrials(before: number): number {
    let pruned = 0;
    for (const [hash, record] of this.hashes) {
      if (record.plan !== 'trial' || record.expiresAt === null || record.expiresAt >= before) continue;
      this.hashes.delete(hash);
      this.ids.delete(record.keyId);
      if (record.emailHash !== null && this.trials.get(record.emailHash) === record)
        this.trials.delete(record.emailHash);
      pruned++;
    }
    return pruned;
  }

  describe(): StoreInfo {
    return { store: 'memory', location: null, reachable: true };
  }

  close(): void {}
}
