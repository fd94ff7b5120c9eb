/**
 * What a key store is: the one interface the engine reads and writes keys, counters, balances, trial
 * e-mail hashes and a few named values (the clock, the cursor secret) through, so a backend is one
 * room of stores/. The stores hold state and decide nothing of their own: what an atomic step
 * decides is the table of stores/metering-table.ts, which each of them runs. Three implement it:
 * `MemoryKeyStore` (stores/memory/, browser-safe: tests and MSW), `SqliteKeyStore` (the mock's
 * stores/sqlite/: a database file several mock processes share) and `RedisKeyStore` (the mock's
 * stores/redis/: a server mocks on many machines share). Every step may answer later (a Promise):
 * a store on a server is a round trip. The mock's stores/store-contract suite holds all three to it.
 */
import { planIds, type PlanId } from '@investor-graph/contract/plans';
import type { components } from '../control/generated/api.ts';

/** A value now, or later from a store on a server. */
export type Awaitable<T> = T | Promise<T>;

/** A key as kept: its text never, only its hash. */
export interface KeyRecord {
  keyId: string;
  /** SHA-256 of the key's text: the text itself is never kept. */
  hash: string;
  plan: PlanId;
  prefix: string;
  last4: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  emailHash: string | null;
  callsUsed: number;
  periodStart: number | null;
  periodEnd: number | null;
  balanceRows: number | null;
}

/**
 * What of a key's text may be shown and kept: the kit's `igk_<plan>_`, never more. (A key of another
 * form, preset by a user, has none: its text up to the last '_' was most of the key. Regression.)
 */
export function keyPrefix(key: string): string {
  // A plan's name, not any word: `igk_mysecretword_…` keeps nothing of its secret word.
  return planIds.map((plan) => `igk_${plan}_`).find((prefix) => key.startsWith(prefix)) ?? '';
}

/** Named values kept beside the keys. */
export type MetaName = 'clock' | 'cursor_secret';

/** Which store holds the state, where (never a password), and whether it answers (the banner, /__control/state). */
export type StoreInfo = components['schemas']['StoreInfo'];

/** One call to admit and charge: what the store needs to decide it on the key as it stands. */
export interface ChargeStep {
  keyId: string;
  /** The service's clock (quotas, periods and expiry follow it). */
  now: number;
  /** Counted against the quota (every call but the free ones: the account). */
  counted: boolean;
  /** Rows served; null when nothing was (a 304), so nothing is charged. */
  rows: number | null;
  /**
   * Names this charge once (a random part per process and a count), so a store on a server can
   * take back a charge whose answer it never saw, and never apply one twice.
   */
  chargeId?: string;
}

export type Refusal = 'revoked_key' | 'trial_expired' | 'trial_exhausted' | 'quota_exhausted' | 'insufficient_balance';

/**
 * What a store answers for a step: the key as it now stands (as stored, when refused: a refused
 * call changes nothing), and what the call cost or why it is refused.
 */
export type ChargeOutcome =
  { record: KeyRecord; cost: number; refusal: null } | { record: KeyRecord; cost: number; refusal: Refusal };

/** The cap on trial keys a minute: null when not enforced; `at` is real time (ms). */
export interface TrialCap {
  perMinute: number | null;
  at: number;
}

/** Inserted; or not, as the e-mail hash has a live trial; or the whole seconds until the minute's cap allows one. */
export type TrialInsert = 'inserted' | 'live' | { wait: number };

/** The part of a key store authentication reads. */
export interface KeyDirectory {
  byHash(hash: string): Awaitable<KeyRecord | undefined>;
}

/** The part of a key store that admits and charges a call, and refunds one never answered. */
export interface MeterStore {
  /** Decides `step` on the key as stored (the metering table); admitted, keeps what it changed: one atomic step. */
  admitAndCharge(step: ChargeStep): Awaitable<ChargeOutcome>;
  /** Takes back an admitted call whose answer could not be made: not counted, not charged. */
  refund(keyId: string, counted: boolean, cost: number, chargeId?: string): Awaitable<void>;
}

/**
 * The part of a key store that issues trials: the look-up of a live one, the minute's cap and the
 * insert are one atomic step, so neither two mocks nor two calls issue two live trials for one
 * address or pass the cap together.
 */
export interface TrialStore {
  insertTrial(record: KeyRecord, now: number, cap: TrialCap): Awaitable<TrialInsert>;
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

/** What the atomic steps are made of, in a store with transactions (memory, SQLite). */
export interface KeyTransactions {
  /**
   * Runs `work` as one transaction and returns what it returns: what it reads is current (in a
   * shared database, every process's commits), what it writes is kept only if it returns, and it
   * is durable before this returns. Nothing else writes in between.
   */
  transaction<T>(work: () => T): T;
  byId(keyId: string): KeyRecord | undefined;
  /** The latest key issued for a trial e-mail hash. */
  trialByEmail(emailHash: string): KeyRecord | undefined;
  /** Adds a new key; false when its hash is already there. */
  insert(record: KeyRecord): boolean;
  /** Writes what may change of a key: counters, period, balance, revocation. */
  save(record: KeyRecord): void;
}
