/**
 * Trial keys for an e-mail address: one live trial per address (compared case-insensitively, kept
 * only as a hash), and at most `trial_keys_per_minute` of the plan table issued a minute by a
 * process, since anyone can ask (DECISIONS.md#trial-key-response).
 */
import { trialKeysPerMinute } from '@investor-graph/contract/plans';
import { ProblemError } from '../problems.ts';
import { sha256Hex } from '../hash.ts';
import { keyStatus, newKeyText, newRecord, type IssuedKey, type KeyRecord, type KeyTransactions } from './key-records.ts';

/** The part of a key store that issues trials: the look-up of a live one and the insert are one atomic step. */
export interface TrialStore {
  /**
   * Inserts `record` unless its e-mail hash has a live trial at `now` (false then); `beforeInsert`
   * runs between the two, and may refuse by throwing.
   */
  insertTrial(record: KeyRecord, now: number, beforeInsert: () => void): boolean;
}

/** A key store's insertTrial as one of its transactions (the memory and SQLite stores). */
export function insertTrialIn(store: Pick<KeyTransactions, 'transaction' | 'trialByEmail' | 'insert'>, record: KeyRecord, now: number, beforeInsert: () => void): boolean {
  return store.transaction(() => {
    const live = store.trialByEmail(record.emailHash!);
    if (live && keyStatus(live, now) === 'active') return false;
    beforeInsert();
    return store.insert(record);
  });
}

export class Trials {
  /** Trial keys issued in the current minute, by this process (mocks sharing a database each have their own cap). */
  private window = { start: -Infinity, count: 0 };

  private readonly store: TrialStore;
  private readonly realNow: () => number;
  private readonly enforce: boolean;

  constructor(store: TrialStore, realNow: () => number, enforce = true) {
    this.store = store;
    this.realNow = realNow;
    this.enforce = enforce;
  }

  /** A trial for an e-mail address: 409 while that address has a live one, 429 past the minute's cap. */
  async issue(email: string, now: number): Promise<IssuedKey> {
    const emailHash = await sha256Hex(`trial-email:${email.trim().toLowerCase()}`);
    const key = newKeyText('trial');
    const record = newRecord('trial', key, await sha256Hex(key), now, emailHash, 0);
    const inserted = this.store.insertTrial(record, now, () => this.countOne());
    if (!inserted) throw new ProblemError('trial_exists', 'This e-mail address already has a live trial key. Keys are shown only once, when issued.');
    return { key, record };
  }

  /** Anyone can call this: past the cap for the minute (per process), everyone waits. */
  private countOne(): void {
    const at = this.realNow();
    if (at - this.window.start >= 60_000) this.window = { start: at, count: 0 };
    if (this.enforce && this.window.count >= trialKeysPerMinute) {
      const wait = Math.max(1, Math.ceil((this.window.start + 60_000 - at) / 1000));
      throw new ProblemError('rate_limited', `The service issues at most ${trialKeysPerMinute} trial keys a minute; retry after ${wait} seconds.`, { headers: { 'retry-after': String(wait) } });
    }
    this.window.count++;
  }
}

