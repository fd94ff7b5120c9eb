/**
 * Where keys, their counters and balances, trial e-mail hashes and a few named values (the clock,
 * the cursor secret) are kept: the one interface the engine reads and writes state through, so a
 * backend is one file. `MemoryKeyStore` (here, browser-safe) is the default for tests and MSW;
 * `SqliteKeyStore` (node/sqlite-key-store.ts) keeps them in a database file that several mock
 * processes can share. Rate buckets are not state: they stay in each process's memory.
 */
import type { KeyRecord, KeyTransactions } from './accounts/key-records.ts';
import { admitAndChargeIn, refundIn, type ChargeOutcome, type ChargeStep, type MeterStore } from './accounts/metering.ts';
import { insertTrialIn, type TrialStore } from './accounts/trials.ts';
import type { KeyDirectory } from './accounts/authentication.ts';

export type { KeyRecord } from './accounts/key-records.ts';

/** Named values kept beside the keys. */
export type MetaName = 'clock' | 'cursor_secret';

/**
 * Each part of Accounts reads and writes through its own interface (KeyDirectory, MeterStore,
 * TrialStore); a store implements them all, each step of MeterStore and TrialStore atomic, so a
 * store on a shared server can run each as one round trip.
 */
export interface KeyStore extends KeyTransactions, KeyDirectory, MeterStore, TrialStore {
  list(): KeyRecord[];
  getMeta(name: MetaName): string | undefined;
  setMeta(name: MetaName, value: string): void;
  close(): void;
}

/**
 * A store with transactions (memory, SQLite): the parts' atomic steps each run as one of its
 * transactions, so a store of this kind writes only its reads and writes.
 */
export abstract class TransactionalKeyStore implements KeyStore {
  abstract transaction<T>(work: () => T): T;
  abstract byHash(hash: string): KeyRecord | undefined;
  abstract byId(keyId: string): KeyRecord | undefined;
  abstract trialByEmail(emailHash: string): KeyRecord | undefined;
  abstract insert(record: KeyRecord): boolean;
  abstract save(record: KeyRecord): void;
  abstract list(): KeyRecord[];
  abstract getMeta(name: MetaName): string | undefined;
  abstract setMeta(name: MetaName, value: string): void;
  abstract close(): void;

  admitAndCharge(step: ChargeStep): ChargeOutcome {
    return admitAndChargeIn(this, step);
  }

  refund(keyId: string, counted: boolean, cost: number): void {
    refundIn(this, keyId, counted, cost);
  }

  insertTrial(record: KeyRecord, now: number, beforeInsert: () => void): boolean {
    return insertTrialIn(this, record, now, beforeInsert);
  }
}

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

  close(): void {}
}
