/**
 * Where keys, their counters and balances, trial e-mail hashes and a few named values (the clock,
 * the cursor secret) are kept: the one interface the engine reads and writes state through, so a
 * backend is one file. `MemoryKeyStore` (here, browser-safe) is the default for tests and MSW;
 * `SqliteKeyStore` (stores/sqlite/key-store.ts) keeps them in a database file that several mock
 * processes on one machine can share; `RedisKeyStore` (node/redis/) on a Redis server that mocks on
 * many machines share. Every step may answer later (a Promise): a store on a server is a round trip.
 */
import type { KeyRecord, KeyTransactions } from './key-records.ts';
import { admitAndChargeIn, refundIn, type ChargeOutcome, type ChargeStep, type MeterStore } from './metering.ts';
import { insertTrialIn, type TrialCap, type TrialInsert, type TrialStore } from './trials.ts';
import type { KeyDirectory } from './authentication.ts';

export type { KeyRecord } from './key-records.ts';

/** A value now, or later from a store on a server. */
export type Awaitable<T> = T | Promise<T>;

/** Named values kept beside the keys. */
export type MetaName = 'clock' | 'cursor_secret';

/** Which store holds the state, where (never a password), and whether it answers (the banner, /__control/state). */
export interface StoreInfo {
  store: 'memory' | 'sqlite' | 'redis';
  location: string | null;
  reachable: boolean;
}

/**
 * Each part of Accounts reads and writes through its own interface (KeyDirectory, MeterStore,
 * TrialStore); a store implements them all, each step atomic, so a store on a shared server runs
 * each as one round trip (a script on it) and no step of another mock comes between its reads and writes.
 */
export interface KeyStore extends KeyDirectory, MeterStore, TrialStore {
  byId(keyId: string): Awaitable<KeyRecord | undefined>;
  /** Adds a new key; false when its hash is already there. */
  insert(record: KeyRecord): Awaitable<boolean>;
  /** Changes a key as stored now (`edit` on a copy of it), in one atomic step; undefined when there is no such key. */
  update(keyId: string, edit: (current: KeyRecord) => void): Awaitable<KeyRecord | undefined>;
  list(): Awaitable<KeyRecord[]>;
  getMeta(name: MetaName): Awaitable<string | undefined>;
  /** The named value as kept; `initial` is kept first when there is none (the first mock on a store decides). */
  claimMeta(name: MetaName, initial: string): Awaitable<string>;
  /** Changes a named value as stored now (read, `edit`, write) in one atomic step; returns what was kept. */
  changeMeta(name: MetaName, edit: (current: string | undefined) => string): Awaitable<string>;
  /**
   * Drops trial keys (issued or made through control) that ended before
   * `before` (service clock), with what points at them; returns how many.
   */
  pruneTrials(before: number): Awaitable<number>;
  describe(): StoreInfo;
  close(): Awaitable<void>;
}

/**
 * A store with transactions (memory, SQLite): the parts' atomic steps each run as one of their
 * transactions, so a store of this kind writes only its reads and writes. Everything it does is
 * synchronous: its answers are plain values.
 */
export abstract class TransactionalKeyStore implements KeyStore, KeyTransactions {
  /** Trial keys issued in the current minute (real time), by this process. */
  private trialWindow = { start: -Infinity, count: 0 };

  abstract transaction<T>(work: () => T): T;
  abstract byHash(hash: string): KeyRecord | undefined;
  abstract byId(keyId: string): KeyRecord | undefined;
  abstract trialByEmail(emailHash: string): KeyRecord | undefined;
  abstract insert(record: KeyRecord): boolean;
  abstract save(record: KeyRecord): void;
  abstract list(): KeyRecord[];
  abstract getMeta(name: MetaName): string | undefined;
  abstract setMeta(name: MetaName, value: string): void;
  abstract pruneTrials(before: number): number;
  abstract describe(): StoreInfo;
  abstract close(): void;

  admitAndCharge(step: ChargeStep): ChargeOutcome {
    return admitAndChargeIn(this, step);
  }

  refund(keyId: string, counted: boolean, cost: number): void {
    refundIn(this, keyId, counted, cost);
  }

  insertTrial(record: KeyRecord, now: number, cap: TrialCap): TrialInsert {
    return insertTrialIn(this, record, now, () => this.countTrial(cap));
  }

  update(keyId: string, edit: (current: KeyRecord) => void): KeyRecord | undefined {
    return this.transaction(() => {
      const stored = this.byId(keyId);
      if (!stored) return undefined;
      const current = { ...stored };
      edit(current);
      this.save(current);
      return current;
    });
  }

  claimMeta(name: MetaName, initial: string): string {
    return this.transaction(() => {
      const kept = this.getMeta(name);
      if (kept !== undefined) return kept;
      this.setMeta(name, initial);
      return initial;
    });
  }

  changeMeta(name: MetaName, edit: (current: string | undefined) => string): string {
    return this.transaction(() => {
      const next = edit(this.getMeta(name));
      this.setMeta(name, next);
      return next;
    });
  }

  /**
   * Counts one trial key against the minute's cap (in this process; a store
   * shared by processes keeps it where they all count), or the seconds to wait.
   */
  protected countTrial(cap: TrialCap): number {
    if (cap.perMinute === null) return 0;
    if (cap.at - this.trialWindow.start >= 60_000) this.trialWindow = { start: cap.at, count: 0 };
    if (this.trialWindow.count >= cap.perMinute)
      return Math.max(1, Math.ceil((this.trialWindow.start + 60_000 - cap.at) / 1000));
    this.trialWindow.count++;
    return 0;
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
