/**
 * Keys, plans and what they have used. A key is shown once and stored only as its SHA-256; e-mail
 * addresses are kept only as a hash too, enough to allow one live trial per address. What is kept
 * lives in a KeyStore; every check and count of a call runs inside one of its transactions
 * (`transact`), so no request, in this process or another on the same database, can come between
 * "is there quota left?" and "count this call".
 */
import { failedAuth, nextPlanUp, planIds, plans, trialKeysPerMinute, type PlanId, type PlanRule } from '@investor-graph/contract/plans';
import type { Schema } from '@investor-graph/contract';
import { iso } from './answer.ts';
import { ProblemError } from './problems.ts';
import { constantTimeEqual, randomToken, sha256Hex } from './hash.ts';
import { MemoryKeyStore, type KeyRecord, type KeyStore } from './key-store.ts';

export type { KeyRecord } from './key-store.ts';

const DAY = 86_400_000;

/** `usage` of the envelope, as the contract defines it. */
export type Usage = Schema<'Usage'>;

export interface IssuedKey {
  key: string;
  record: KeyRecord;
}

/** Prepaid rows of a pay-as-you-go key preset at start (`--key payg=...`, the banner's, MSW's), unless told otherwise. */
export const presetPrepaidRows = 100_000;

/** A new key's text: the plan is in it, so a leaked key is easy to recognise (DECISIONS.md#key-scopes-expiry-and-revocation). */
export function newKeyText(plan: PlanId): string {
  return `igk_${plan}_${randomToken(32)}`;
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

function monthBounds(now: number): [number, number] {
  const d = new Date(now);
  return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)];
}

export function planView(plan: PlanRule): Record<string, unknown> {
  return {
    id: plan.id, name: plan.name, rows_per_page: plan.rows_per_page, rate_per_second: plan.rate_per_second,
    round_lag_days: plan.round_lag_days, changes_feed: plan.changes_feed, exports: plan.exports,
  };
}

interface Bucket {
  tokens: number;
  /** When it was last filled (real time, ms). */
  filledAt: number;
}

export class Accounts {
  readonly store: KeyStore;
  private readonly realNow: () => number;
  /** Each key's rate bucket, in this process only (several processes on one database each have their own). */
  private readonly keyBuckets = new Map<string, Bucket>();
  /** The unauthenticated trial call has its own bucket per client address (bounded: oldest go first). */
  private readonly openBuckets = new Map<string, Bucket>();
  /** Per address: what is left of its budget of calls without a valid key (bounded like openBuckets). */
  private readonly failureBuckets = new Map<string, Bucket>();
  /**
   * Keys met by hash, so a call need not read the store twice: whether a key exists and its plan
   * never change, and what does (counters, revocation) is read afresh inside `transact`.
   */
  private readonly seen = new Map<string, KeyRecord>();
  /** Trial keys issued in the current minute, by this process (mocks sharing a database each have their own cap). */
  private trialWindow = { start: -Infinity, count: 0 };
  /** false: no limit answers 429 (each key's rate, the trial cap, the budget of failed keys); for measuring the mock itself. */
  private readonly enforceLimits: boolean;

  constructor(store: KeyStore = new MemoryKeyStore(), realNow: () => number = () => performance.now(), enforceLimits = true) {
    this.store = store;
    this.realNow = realNow;
    this.enforceLimits = enforceLimits;
  }

  /** Creates a key of any plan (a preset key text may be given); the text is returned this once. */
  async create(plan: PlanId, now: number, options: { key?: string; prepaidRows?: number } = {}): Promise<IssuedKey> {
    const key = options.key ?? newKeyText(plan);
    const { record, added } = await this.add(plan, key, now, options.prepaidRows ?? 0);
    if (!added) throw new ProblemError('invalid_body', 'That key already exists.', { extra: { errors: [{ pointer: '/key', detail: 'already exists' }] } });
    return { key, record };
  }

  /** Adds a key not bound to an e-mail address; `added` is false when its text is already a key. */
  private async add(plan: PlanId, key: string, now: number, prepaidRows: number): Promise<{ record: KeyRecord; added: boolean }> {
    const record = newRecord(plan, key, await sha256Hex(key), now, null, prepaidRows);
    return { record, added: this.store.transaction(() => this.store.insert(record)) };
  }

  /** A trial for an e-mail address: 409 while that address has a live one. */
  async issueTrial(email: string, now: number): Promise<IssuedKey> {
    const emailHash = await sha256Hex(`trial-email:${email.trim().toLowerCase()}`);
    const key = newKeyText('trial');
    const record = newRecord('trial', key, await sha256Hex(key), now, emailHash, 0);
    // The look-up and the insert are one transaction: two processes on one database cannot both
    // find no live trial for an address and both issue one.
    this.store.transaction(() => {
      const live = this.store.trialByEmail(emailHash);
      if (live && this.status(live, now) === 'active') {
        throw new ProblemError('trial_exists', 'This e-mail address already has a live trial key. Keys are shown only once, when issued.');
      }
      // Anyone can call this: past the cap for the minute (per process), everyone waits.
      const at = this.realNow();
      if (at - this.trialWindow.start >= 60_000) this.trialWindow = { start: at, count: 0 };
      if (this.enforceLimits && this.trialWindow.count >= trialKeysPerMinute) {
        const wait = Math.max(1, Math.ceil((this.trialWindow.start + 60_000 - at) / 1000));
        throw new ProblemError('rate_limited', `The service issues at most ${trialKeysPerMinute} trial keys a minute; retry after ${wait} seconds.`, { headers: { 'retry-after': String(wait) } });
      }
      this.store.insert(record);
      this.trialWindow.count++;
    });
    return { key, record };
  }

  /**
   * Runs `work` on the key as it is stored now, in one transaction of the store, and saves what it
   * changed: the admission checks and the count of a call, or a control call's change, are atomic.
   */
  transact<T>(record: KeyRecord, work: (current: KeyRecord) => T): T {
    return this.store.transaction(() => {
      const stored = this.store.byId(record.keyId);
      if (!stored) throw new Error(`[investor-graph mock] key ${record.keyId} is no longer in the state store`);
      // A copy: what `work` changes reaches the store only through save, when `work` has returned.
      const current = { ...stored };
      const result = work(current);
      this.store.save(current);
      return result;
    });
  }

  /** The key behind an Authorization header, or the 401 that says why not. */
  async authenticate(header: string | null): Promise<KeyRecord> {
    if (!header) throw new ProblemError('missing_key', 'Send Authorization: Bearer <API_KEY>. A trial key is one call away.');
    const match = /^Bearer[ ]+([\x21-\x7e]{1,200})$/i.exec(header.trim());
    if (!match) throw new ProblemError('invalid_key', 'The Authorization header must be "Bearer <API_KEY>".');
    const presented = await sha256Hex(match[1]!);
    const record = this.seen.get(presented) ?? this.remember(this.store.byHash(presented));
    // The map lookup finds a candidate; the comparison that decides is constant-time.
    if (!record || !constantTimeEqual(record.hash, presented)) throw new ProblemError('invalid_key', 'This API key is not known.');
    this.checkNotRevoked(record);
    return record;
  }

  /** The 401 of a revoked key (one revoked since it was met, by this or another process, is caught by `admit` inside `transact`). */
  private checkNotRevoked(record: KeyRecord): void {
    if (record.revokedAt !== null) throw new ProblemError('revoked_key', 'This API key has been revoked.');
  }

  private remember(record: KeyRecord | undefined): KeyRecord | undefined {
    if (!record) return undefined;
    // Bounded like the address tables: the key met longest ago goes first.
    if (this.seen.size >= 50_000) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(record.hash, record);
    return record;
  }

  status(record: KeyRecord, now: number): 'active' | 'expired' | 'exhausted' | 'revoked' {
    if (record.revokedAt !== null) return 'revoked';
    if (record.expiresAt !== null && now >= record.expiresAt) return 'expired';
    const limit = plans[record.plan].calls_limit;
    if (record.plan === 'trial' && limit !== null && record.callsUsed >= limit) return 'exhausted';
    return 'active';
  }

  /** Rolls a monthly period over when the clock has passed its end. */
  private roll(record: KeyRecord, now: number): void {
    if (plans[record.plan].calls_period !== 'P1M' || record.periodEnd === null || now < record.periodEnd) return;
    [record.periodStart, record.periodEnd] = monthBounds(now);
    record.callsUsed = 0;
  }

  /** Throws the 402 a call would meet, or returns when the key may make one more counted call. */
  private checkQuota(record: KeyRecord, now: number): void {
    this.roll(record, now);
    const rule = plans[record.plan];
    if (record.plan === 'trial') {
      if (record.expiresAt !== null && now >= record.expiresAt) {
        throw new ProblemError('trial_expired', `The trial ended at ${isoOrNull(record.expiresAt)}.`, { plan: 'trial', suggested: nextPlanUp('trial') });
      }
      if (record.callsUsed >= rule.calls_limit!) {
        throw new ProblemError('trial_exhausted', `The trial's ${rule.calls_limit!.toLocaleString('en')} calls are used up.`, { plan: 'trial', suggested: nextPlanUp('trial') });
      }
      return;
    }
    if (rule.calls_limit !== null && record.callsUsed >= rule.calls_limit) {
      throw new ProblemError('quota_exhausted', `The ${rule.name} plan includes ${rule.calls_limit.toLocaleString('en')} calls a month; the quota renews at ${isoOrNull(record.periodEnd)}.`, { plan: record.plan });
    }
  }

  /**
   * Whether the key, as stored now, may make this call: not revoked since it was met, and, for a
   * counted call, within its quota (or trial). Inside `transact`; throws the 401 or 402.
   */
  admit(record: KeyRecord, now: number, counted: boolean): void {
    this.checkNotRevoked(record);
    if (counted) this.checkQuota(record, now);
  }

  /**
   * Counts the call and charges what it served (`rows`; null when nothing was, as for a 304):
   * the 402 of a balance too low, or the usage for its envelope. Inside `transact`.
   */
  charge(record: KeyRecord, counted: boolean, rows: number | null): { cost: number; usage: Usage } {
    const cost = rows === null || !counted ? 0 : this.cost(record, rows);
    this.checkBalance(record, cost);
    return { cost, usage: this.commit(record, counted, cost) };
  }

  /** Rows a pay-as-you-go call serving `rows` costs. */
  private cost(record: KeyRecord, rows: number): number {
    return record.plan === 'payg' ? Math.max(rows, plans.payg.min_rows_per_call!) : 0;
  }

  /** Checks the balance for a pay-as-you-go call; throws 402 (and costs nothing) if it is too low. */
  private checkBalance(record: KeyRecord, cost: number): void {
    if (record.plan !== 'payg' || cost <= (record.balanceRows ?? 0)) return;
    throw new ProblemError('insufficient_balance', `This call costs ${cost} rows; the prepaid balance is ${record.balanceRows ?? 0} rows.`, { plan: 'payg' });
  }

  /** Counts an accepted call and charges it; returns the usage that goes in its envelope. */
  private commit(record: KeyRecord, counted: boolean, cost: number): Usage {
    if (counted) record.callsUsed++;
    if (record.plan === 'payg') record.balanceRows = (record.balanceRows ?? 0) - cost;
    return this.usage(record, cost);
  }

  /** Takes back a commit whose answer could not be made: a call not answered is not counted or charged. */
  uncommit(record: KeyRecord, counted: boolean, cost: number): void {
    this.transact(record, (current) => {
      if (counted) current.callsUsed = Math.max(0, current.callsUsed - 1);
      if (current.plan === 'payg') current.balanceRows = (current.balanceRows ?? 0) + cost;
    });
  }

  usage(record: KeyRecord, charged = 0): Usage {
    const limit = plans[record.plan].calls_limit;
    return {
      period_start: isoOrNull(record.periodStart), period_end: isoOrNull(record.periodEnd), calls_used: record.callsUsed,
      calls_limit: limit, calls_remaining: limit === null ? null : Math.max(0, limit - record.callsUsed),
      rows_charged: charged, balance_rows: record.balanceRows,
    };
  }

  /**
   * Token bucket: `rate` tokens a second, holding at most one second's worth. Returns the headers
   * of the IETF ratelimit draft; throws 429 with Retry-After when the bucket is empty. With the
   * limits off (benchmarks of the mock itself) the bucket is always full.
   */
  takeToken(record: KeyRecord | null, client: string, rate: number): Record<string, string> {
    const bucket = record ? this.keyBucket(record.keyId, rate) : this.bucketOf(this.openBuckets, client, rate);
    if (!this.enforceLimits) bucket.tokens = rate;
    const wait = this.refill(bucket, rate, rate);
    const headers = { 'ratelimit-policy': `"default";q=${rate};w=1` };
    if (wait) {
      throw new ProblemError('rate_limited', `The ${record ? plans[record.plan].name : 'trial key'} limit is ${rate} requests a second; retry after ${wait} second${wait === 1 ? '' : 's'}.`, {
        plan: record?.plan ?? null,
        headers: { ...headers, 'retry-after': String(wait), ratelimit: `"default";r=0;t=${wait}` },
      });
    }
    bucket.tokens -= 1;
    return { ...headers, ratelimit: `"default";r=${Math.floor(bucket.tokens)};t=${Math.ceil((rate - bucket.tokens) / rate)}` };
  }

  /**
   * Authenticates as `authenticate` does, for a client address whose calls without a valid key are
   * budgeted: an address that spent its budget gets 429 before its key is even looked at.
   */
  async authenticateFrom(header: string | null, client: string): Promise<KeyRecord> {
    const bucket = this.bucketOf(this.failureBuckets, client, failedAuth.burst);
    const wait = this.refill(bucket, failedAuth.burst, failedAuth.perSecond);
    if (wait && this.enforceLimits) {
      throw new ProblemError('too_many_failures', `Too many calls without a valid key from this address; retry after ${wait} second${wait === 1 ? '' : 's'}.`, { headers: { 'retry-after': String(wait) } });
    }
    try {
      return await this.authenticate(header);
    } catch (error) {
      bucket.tokens -= 1;
      throw error;
    }
  }

  /**
   * Tops a token bucket up for the time since it was last filled, to at most `capacity`; returns 0
   * when a token is there to take, else the whole seconds until one is (for Retry-After).
   */
  private refill(bucket: Bucket, capacity: number, perSecond: number): number {
    const now = this.realNow();
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.filledAt) / 1000) * perSecond);
    bucket.filledAt = now;
    return bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }

  /** A key's bucket, full when the key is first used in this process. */
  private keyBucket(keyId: string, rate: number): Bucket {
    let bucket = this.keyBuckets.get(keyId);
    if (!bucket) this.keyBuckets.set(keyId, (bucket = { tokens: rate, filledAt: this.realNow() }));
    return bucket;
  }

  /** An address's bucket in `table`, full when new; the table drops its oldest address when full. */
  private bucketOf(table: Map<string, Bucket>, client: string, capacity: number): Bucket {
    let bucket = table.get(client);
    if (!bucket) {
      // Bounded: the address seen longest ago goes, not the whole table (which reset everyone).
      if (table.size >= 10_000) table.delete(table.keys().next().value!);
      table.set(client, (bucket = { tokens: capacity, filledAt: this.realNow() }));
    }
    return bucket;
  }

  /**
   * A key given at start (`--key`): created once. A key already in the store keeps its counters,
   * also when another mock on the same database created it a moment ago.
   */
  async preset(plan: PlanId, key: string, now: number, prepaidRows = 0): Promise<void> {
    await this.add(plan, key, now, prepaidRows);
  }

  byKeyId(keyId: string): KeyRecord | undefined {
    return this.store.byId(keyId);
  }

  /** Revokes a key (once: a revoked key keeps its first revocation time). */
  revoke(keyId: string, now: number): KeyRecord | undefined {
    const record = this.store.byId(keyId);
    return record && this.transact(record, (current) => {
      current.revokedAt ??= now;
      return current;
    });
  }

  topUp(record: KeyRecord, rows: number): KeyRecord {
    return this.transact(record, (current) => {
      if (current.plan === 'payg') current.balanceRows = (current.balanceRows ?? 0) + rows;
      return current;
    });
  }

  /** Sets a key's count of calls (control: reach "999 used" without 999 calls). */
  setCallsUsed(record: KeyRecord, calls: number): KeyRecord {
    return this.transact(record, (current) => {
      current.callsUsed = calls;
      return current;
    });
  }

  summary(record: KeyRecord, now: number): Record<string, unknown> {
    return {
      key_id: record.keyId, plan: record.plan, prefix: record.prefix, last4: record.last4, status: this.status(record, now),
      created_at: isoOrNull(record.createdAt), expires_at: isoOrNull(record.expiresAt), revoked_at: isoOrNull(record.revokedAt),
    };
  }

  list(): KeyRecord[] {
    return this.store.list();
  }
}

/**
 * What of a key's text may be shown and kept: the kit's `igk_<plan>_`, never more. (A key of another
 * form, preset by a user, has none: its text up to the last '_' was most of the key. Regression.)
 */
export function keyPrefix(key: string): string {
  // A plan's name, not any word: `igk_mysecretword_…` keeps nothing of its secret word.
  return planIds.map((plan) => `igk_${plan}_`).find((prefix) => key.startsWith(prefix)) ?? '';
}

/** A new key's record: nothing used yet, the period and lifetime its plan gives. */
function newRecord(plan: PlanId, key: string, hash: string, now: number, emailHash: string | null, prepaidRows: number): KeyRecord {
  const rule = plans[plan];
  const [start, end] = rule.calls_period === 'P1M' ? monthBounds(now) : rule.calls_period === 'P7D' ? [now, now + 7 * DAY] : [null, null];
  return {
    keyId: `key_${randomToken(12, '0123456789abcdef')}`, hash, plan, prefix: keyPrefix(key), last4: key.slice(-4), createdAt: now,
    expiresAt: rule.key_lifetime_days ? now + rule.key_lifetime_days * DAY : null, revokedAt: null, emailHash,
    callsUsed: 0, periodStart: start, periodEnd: end, balanceRows: plan === 'payg' ? prepaidRows : null,
  };
}
