/**
 * Trial keys for an e-mail address: one live trial per address (compared case-insensitively, kept
 * only as a hash), and at most `trial_keys_per_minute` of the plan table issued a minute, since
 * anyone can ask (DECISIONS.md#trial-key-response): by all mocks on one Redis together, by each
 * process on a memory or SQLite store.
 */
import { trialKeyKeptDays, trialKeysPerMinute } from '@investor-graph/contract/plans';
import { ProblemError } from '../problems.ts';
import { sha256Hex } from '../hash.ts';
import {
  DAY,
  keyStatus,
  newKeyText,
  newRecord,
  type IssuedKey,
  type KeyRecord,
  type KeyTransactions,
} from './key-records.ts';

/** The cap on trial keys a minute: null when not enforced; `at` is real time (ms). */
export interface TrialCap {
  perMinute: number | null;
  at: number;
}

/** Inserted; or not, as the e-mail hash has a live trial; or the whole seconds until the minute's cap allows one. */
export type TrialInsert = 'inserted' | 'live' | { wait: number };

/**
 * How long a trial key is known after it ended (`trial_key_kept_days` of the plan table): a call
 * with it meanwhile is told the trial expired (402 trial_expired, with what to buy); past it, the
 * key is unknown (401) and is pruned from the store.
 */
export const trialKeptAfterEnd = trialKeyKeptDays * DAY;

/**
 * The part of a key store that issues trials: the look-up of a live one, the minute's cap and the
 * insert are one atomic step, so neither two mocks nor two calls issue two live trials for one
 * address or pass the cap together.
 */
export interface TrialStore {
  insertTrial(record: KeyRecord, now: number, cap: TrialCap): TrialInsert | Promise<TrialInsert>;
}

/**
 * A key store's insertTrial as one of its transactions (the memory and SQLite stores); `capped`
 * counts one against the minute's cap, or says how long to wait.
 */
export function insertTrialIn(
  store: Pick<KeyTransactions, 'transaction' | 'trialByEmail' | 'insert'>,
  record: KeyRecord,
  now: number,
  capped: () => number,
): TrialInsert {
  return store.transaction(() => {
    const live = store.trialByEmail(record.emailHash!);
    if (live && keyStatus(live, now) === 'active') return 'live';
    const wait = capped();
    if (wait) return { wait };
    return store.insert(record) ? 'inserted' : 'live';
  });
}

export class Trials {
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
    const inserted = await this.store.insertTrial(record, now, {
      perMinute: this.enforce ? trialKeysPerMinute : null,
      at: this.realNow(),
    });
    if (inserted === 'live')
      throw new ProblemError(
        'trial_exists',
        'This e-mail address already has a live trial key. Keys are shown only once, when issued.',
      );
    if (inserted !== 'inserted') {
      throw new ProblemError(
        'rate_limited',
        `The service issues at most ${trialKeysPerMinute} trial keys a minute; retry after ${inserted.wait} seconds.`,
        { headers: { 'retry-after': String(inserted.wait) } },
      );
    }
    return { key, record };
  }
}
