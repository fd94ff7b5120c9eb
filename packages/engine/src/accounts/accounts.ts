/**
 * Keys, plans and what they have used, as one door for the engine and the control API. Each concern
 * is a part of its own under accounts/: who is calling (authentication.ts), how fast
 * (rate-policy.ts), whether the quota or balance allows a call and what it costs (metering.ts),
 * trials (trials.ts), and the key records they share (key-records.ts). What is kept lives in a
 * KeyStore, which implements each part's store interface; a call is admitted and charged in one
 * atomic step of it, so no request, in this process or another on the same store, comes between
 * "is there quota left?" and "count this call".
 */
import { LRUCache } from 'lru-cache';
import { KnownKeys } from '@investor-graph/cli/redact';
import type { PlanId } from '@investor-graph/contract/plans';
import { ProblemError } from '../problems.ts';
import { sha256Hex } from '../hash.ts';
import type { KeyRecord, KeyStore } from '../stores/key-store.ts';
import { MemoryKeyStore } from '../stores/memory/key-store.ts';
import { MemoryRateLimiter } from '../stores/memory/rate-limiter.ts';
import type { RateLimiter } from '../stores/rate-limiter.ts';
import { Authenticator } from './authentication.ts';
import { keyStatus, keySummary, newKeyText, newRecord, type IssuedKey, type KeyStatus } from './key-records.ts';
import { refusalOf, refusalProblem, usageOf, type Usage } from './metering.ts';
import { keysApart, overTheRate, rateHeaders } from './rate-policy.ts';
import { trialKeptAfterEnd, Trials } from './trials.ts';

export type { KeyRecord } from '../stores/key-store.ts';
export type { Usage } from './metering.ts';
export { keyPrefix, newKeyText, planView, presetPrepaidRows, type IssuedKey } from './key-records.ts';

export interface AccountsOptions {
  /** Real time for the limiter and the trial cap (ms, monotonic); performance.now() unless given. */
  realNow?: () => number;
  /**
   * false: no limit answers 429 (each key's rate, the trial cap,
   * the budget of failed keys); for measuring the mock itself.
   */
  enforceLimits?: boolean;
  /** The store's own buckets, shared by every mock on it (Redis); in this process's memory otherwise. */
  limiter?: RateLimiter;
  /** The store's buckets for client addresses alone (SQLite), keys' buckets staying in this process. */
  addressLimiter?: RateLimiter;
  /** How long past its end a trial's key is known (trialKeptAfterEnd; only a fault sets another). */
  trialKeptMs?: number;
}

/** How long a key's last charge here lets a call pass admission without reading the key again. */
const RECENT_MS = 1000;

export class Accounts {
  readonly store: KeyStore;
  readonly limiter: RateLimiter;
  /**
   * Key texts no pattern finds (preset, or made through control with a text of the caller's): never echoed or logged.
   */
  readonly known = new KnownKeys();
  private readonly authenticator: Authenticator;
  private readonly trials: Trials;
  /**
   * Each key as its last charge in this process left it, and when
   * (performance.now(), whatever clock the limiter runs on).
   */
  private readonly charged = new LRUCache<string, { record: KeyRecord; at: number }>({ max: 50_000 });

  constructor(store: KeyStore = new MemoryKeyStore(), options: AccountsOptions = {}) {
    const { realNow = () => performance.now(), enforceLimits = true } = options;
    this.store = store;
    const own = new MemoryRateLimiter(realNow, enforceLimits);
    this.limiter = options.limiter ?? (options.addressLimiter ? keysApart(own, options.addressLimiter) : own);
    this.authenticator = new Authenticator(store, this.limiter, options.trialKeptMs ?? trialKeptAfterEnd);
    this.trials = new Trials(store, realNow, enforceLimits);
  }

  /** Creates a key of any plan (a preset key text may be given); the text is returned this once. */
  async create(plan: PlanId, now: number, options: { key?: string; prepaidRows?: number } = {}): Promise<IssuedKey> {
    const key = options.key ?? newKeyText(plan);
    const { record, added } = await this.add(plan, key, now, options.prepaidRows ?? 0);
    if (!added)
      throw new ProblemError('invalid_body', 'That key already exists.', {
        extra: { errors: [{ pointer: '/key', detail: 'already exists' }] },
      });
    return { key, record };
  }

  /**
   * A key given at start (`--key`): created once. A key already in the store keeps its counters,
   * also when another mock on the same database created it a moment ago.
   */
  async preset(plan: PlanId, key: string, now: number, prepaidRows = 0): Promise<void> {
    await this.add(plan, key, now, prepaidRows);
  }

  /** Adds a key not bound to an e-mail address; `added` is false when its text is already a key. */
  private async add(
    plan: PlanId,
    key: string,
    now: number,
    prepaidRows: number,
  ): Promise<{ record: KeyRecord; added: boolean }> {
    this.known.add(key);
    const record = newRecord(plan, key, await sha256Hex(key), now, null, prepaidRows);
    return { record, added: await this.store.insert(record) };
  }

  /** A trial for an e-mail address: 409 while that address has a live one. */
  issueTrial(email: string, now: number): Promise<IssuedKey> {
    return this.trials.issue(email, now);
  }

  /** The key behind an Authorization header at `now` (the service's clock), or the 401 that says why not. */
  authenticate(header: string | null, now: number): Promise<KeyRecord> {
    return this.authenticator.authenticate(header, now);
  }

  /** As `authenticate`, for a client address whose calls without a valid key are budgeted. */
  authenticateFrom(header: string | null, client: string, now: number): Promise<KeyRecord> {
    return this.authenticator.authenticateFrom(header, client, now);
  }

  /**
   * A token from the key's bucket (or, without a key, the client address's trial-call bucket):
   * `rate` a second, holding one second's worth. Returns the headers of the IETF ratelimit draft;
   * throws 429 with Retry-After when the bucket is empty.
   */
  async takeToken(record: KeyRecord | null, client: string, rate: number): Promise<Record<string, string>> {
    const { wait, left } = await (record
      ? this.limiter.take('key', record.keyId, rate, rate)
      : this.limiter.take('trial-call', client, rate, rate));
    const headers = { 'ratelimit-policy': rateHeaders.policy(rate) };
    if (wait) throw overTheRate(record?.plan ?? null, rate, wait, headers);
    return { ...headers, ratelimit: rateHeaders.left(Math.floor(left), Math.ceil((rate - left) / rate)) };
  }

  /**
   * Refuses, before any work, a call the key as stored now may not make (revoked; a counted call
   * past its trial or quota). A key this process charged within the last second, and that would
   * pass, passes without a read: the charge after the work decides again, atomically, on the key
   * as stored then, so a pass on a record a moment old changes no count or charge (only, in that
   * second, which refusal comes first: a missing plan feature before a quota another process used
   * up), and saves a round trip a call on a store on a server. A refusal is always read afresh.
   */
  async admit(record: KeyRecord, now: number, counted: boolean): Promise<void> {
    const recent = this.charged.get(record.keyId);
    if (recent && performance.now() - recent.at < RECENT_MS && refusalOf({ ...recent.record }, now, counted) === null)
      return;
    const found = await this.store.byId(record.keyId);
    if (!found) {
      // Gone since it was met (a trial pruned long after its end): unknown from now on.
      this.authenticator.forget(record.hash);
      throw new ProblemError('invalid_key', 'This API key is not known.');
    }
    const stored = { ...found };
    const refusal = refusalOf(stored, now, counted);
    if (refusal) throw refusalProblem(refusal, stored, 0);
  }

  /** Admits the call and counts and charges what it served, in one atomic step of the store; throws its 401 or 402. */
  async admitAndCharge(
    record: KeyRecord,
    now: number,
    counted: boolean,
    rows: number | null,
    chargeId?: string,
  ): Promise<{ record: KeyRecord; cost: number; usage: Usage }> {
    const outcome = await this.store.admitAndCharge({
      keyId: record.keyId,
      now,
      counted,
      rows,
      ...(chargeId ? { chargeId } : {}),
    });
    this.charged.set(record.keyId, { record: outcome.record, at: performance.now() });
    if (outcome.refusal) throw refusalProblem(outcome.refusal, outcome.record, outcome.cost);
    return { record: outcome.record, cost: outcome.cost, usage: usageOf(outcome.record, outcome.cost) };
  }

  /** Takes back a call whose answer could not be made: a call not answered is not counted or charged. */
  async refund(record: KeyRecord, counted: boolean, cost: number, chargeId?: string): Promise<void> {
    await this.store.refund(record.keyId, counted, cost, chargeId);
  }

  usage(record: KeyRecord, charged = 0): Usage {
    return usageOf(record, charged);
  }

  status(record: KeyRecord, now: number): KeyStatus {
    return keyStatus(record, now);
  }

  summary(record: KeyRecord, now: number): Record<string, unknown> {
    return keySummary(record, now);
  }

  async byKeyId(keyId: string): Promise<KeyRecord | undefined> {
    return await this.store.byId(keyId);
  }

  async list(): Promise<KeyRecord[]> {
    return await this.store.list();
  }

  /**
   * Drops trial keys whose trial ended longer than trialKeptAfterEnd before `now` (after the clock
   * moved). Best effort: the clock has moved by then, and a store away now is pruned at the next
   * move (a Redis store's trials expire by themselves too), so the move is not answered 503.
   */
  async pruneTrials(now: number): Promise<number> {
    try {
      return await this.store.pruneTrials(now - trialKeptAfterEnd);
    } catch (error) {
      if (error instanceof ProblemError && error.code === 'state_unavailable') return 0;
      throw error;
    }
  }

  // ---- control operations: each one atomic step of the store on the key as stored now

  /** Revokes a key (once: a revoked key keeps its first revocation time). */
  async revoke(keyId: string, now: number): Promise<KeyRecord | undefined> {
    return this.forgetCharge(keyId, await this.store.update(keyId, (current) => void (current.revokedAt ??= now)));
  }

  async topUp(record: KeyRecord, rows: number): Promise<KeyRecord | undefined> {
    return this.forgetCharge(
      record.keyId,
      await this.store.update(
        record.keyId,
        (current) => void (current.plan === 'payg' && (current.balanceRows = (current.balanceRows ?? 0) + rows)),
      ),
    );
  }

  /** Sets a key's count of calls (control: reach "999 used" without 999 calls). */
  async setCallsUsed(record: KeyRecord, calls: number): Promise<KeyRecord | undefined> {
    return this.forgetCharge(
      record.keyId,
      await this.store.update(record.keyId, (current) => void (current.callsUsed = calls)),
    );
  }

  /** A key changed by a control call is read afresh at its next admission, whatever its last charge here said. */
  private forgetCharge(keyId: string, changed: KeyRecord | undefined): KeyRecord | undefined {
    this.charged.delete(keyId);
    return changed;
  }
}
