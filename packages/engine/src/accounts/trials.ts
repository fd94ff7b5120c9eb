/**
 * Trial keys for an e-mail address: one live trial per address (compared case-insensitively, kept
 * only as a hash), and at most `trial_keys_per_minute` of the plan table issued a minute, since
 * anyone can ask (DECISIONS.md#trial-key-response): by all mocks on one Redis together, by each
 * process on a memory or SQLite store.
 */
import { trialKeyKeptDays, trialKeysPerMinute } from '@investor-graph/contract/plans';
import { ProblemError } from '../problems.ts';
import { sha256Hex } from '../hash.ts';
import type { TrialStore } from '../stores/key-store.ts';
import { DAY, newKeyText, newRecord, type IssuedKey } from './key-records.ts';

/**
 * How long a trial key is known after it ended (`trial_key_kept_days` of the plan table): a call
 * with it meanwhile is told the trial expired (402 trial_expired, with what to buy); past it, the
 * key is unknown (401) and is pruned from the store.
 */
export const trialKeptAfterEnd = trialKeyKeptDays * DAY;

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
