/**
 * The mock's state on a Redis server (`--state redis://...`), shared by every mock pointed at it:
 * keys (hashes only), counters, balances, trial e-mail hashes, the clock and the cursor secret.
 * Each step of Accounts is one script on the server (scripts.ts), so N replicas keep counts exact.
 * What it keeps on the server, and under which names: layout.ts. It holds the keys and meters the
 * calls (each call's steps); trials (trials.ts) and the clock and cursor secret (meta.ts) are small
 * objects it is composed of, run rarely.
 */
import { LRUCache } from 'lru-cache';
import { plans, type PlanId } from '@investor-graph/contract/plans';
import { monthBounds } from '@investor-graph/engine/adapter';
import type { ChargeOutcome, ChargeStep, KeyRecord, KeyStore, MetaName } from '@investor-graph/engine/adapter';
import type { Refusal, StoreInfo, TrialCap, TrialInsert } from '@investor-graph/engine/adapter';
import type { RedisConnection } from './connection.ts';
import { ProblemError } from '@investor-graph/engine/adapter';
import { changedFields, fromFields, recordFields } from './record-fields.ts';
import { checkLayout, names, trialKeptAfterEnd } from './layout.ts';
import { RedisMeta, TRIES } from './meta.ts';
import { RedisTrials } from './trials.ts';
import { CHARGE_KEPT_MS, TakeBacks } from './take-backs.ts';

export class RedisKeyStore implements KeyStore {
  private readonly redis: RedisConnection;
  /** Charges whose answer never came (the server went away mid-call): taken back once it is there again. */
  private readonly takeBacks: TakeBacks;
  /** Each key's plan, as last read (bounded: a plan is looked up again when forgotten). */
  private readonly plans = new LRUCache<string, PlanId>({ max: 50_000 });

  private readonly k: ReturnType<typeof names>;
  /** The named values beside the keys (the clock, the cursor secret): meta.ts. */
  private readonly meta: RedisMeta;
  /** Trials issued and pruned: trials.ts. */
  private readonly trials: RedisTrials;

  constructor(redis: RedisConnection) {
    this.redis = redis;
    this.takeBacks = new TakeBacks(redis);
    this.k = names(redis.target.prefix);
    this.meta = new RedisMeta(redis, this.k);
    this.trials = new RedisTrials(redis, this.k, this.takeBacks);
  }

  /** Checks the layout on the server is one this mock reads (and marks an empty server as this layout). */
  async open(): Promise<void> {
    await checkLayout(this.redis, this.k.version);
    this.takeBacks.start();
  }

  async byHash(hash: string): Promise<KeyRecord | undefined> {
    return fromFields(await this.redis.run<string[] | null>('byHash', [this.k.hash(hash)], [this.k.record('')]))
      ?.record;
  }

  async byId(keyId: string): Promise<KeyRecord | undefined> {
    const record = fromFields(await this.redis.call((c) => c.hgetall(this.k.record(keyId))))?.record;
    if (record) this.plans.set(keyId, record.plan);
    return record;
  }

  async insert(record: KeyRecord): Promise<boolean> {
    // A trial made through the control API (no e-mail) ends too: listed by its end, and kept in
    // real time at least as long as it is known (from its making, which is no later than the clock).
    const trial = record.plan === 'trial' && record.expiresAt !== null;
    const keep = trial ? Math.max(1, record.expiresAt! - record.createdAt + trialKeptAfterEnd) : '';
    const keys = [this.k.hash(record.hash), this.k.record(record.keyId), this.k.list, this.k.sequence, this.k.trials];
    return (
      (await this.redis.run<number>('insert', keys, [
        record.keyId,
        trial ? record.expiresAt! : '',
        keep,
        ...recordFields(record),
      ])) === 1
    );
  }

  async admitAndCharge(step: ChargeStep): Promise<ChargeOutcome> {
    // A key's plan never changes: known from its last read (the call's admission read it), one round trip saved.
    const plan = this.plans.get(step.keyId) ?? (await this.byId(step.keyId))?.plan;
    if (!plan) throw new ProblemError('invalid_key', 'This API key is not known.');
    const rule = plans[plan];
    const [monthStart, monthEnd] = monthBounds(step.now);
    const chargeId = step.chargeId ?? `${step.keyId}.${step.now}.${Math.random()}`;
    const args = [
      step.now,
      step.counted ? 1 : 0,
      step.rows ?? -1,
      monthStart,
      monthEnd,
      rule.calls_limit ?? -1,
      rule.calls_period === 'P1M' ? 1 : 0,
      plan === 'trial' ? 1 : 0,
      plan === 'payg' ? 1 : 0,
      plans.payg.min_rows_per_call ?? 0,
      CHARGE_KEPT_MS,
    ];
    // Sent but not answered, it may have run: taken back (or barred) once the server is there again.
    const sentAt = Date.now();
    const reply = await this.redis.run<[string, number?, string[]?]>(
      'admitAndCharge',
      [this.k.record(step.keyId), this.k.charge(chargeId)],
      args,
      () => this.voidLater(step.keyId, chargeId, sentAt),
    );
    const [refusal, cost = 0, fields] = reply;
    // Gone between its admission and its charge (a trial pruned, expired in Redis): unknown, as admission would say.
    if (refusal === 'missing') throw new ProblemError('invalid_key', 'This API key is not known.');
    if (refusal === 'seen') throw new Error(`[investor-graph mock] charge ${chargeId} was already made or taken back`);
    const record = fromFields(fields)!.record;
    return refusal === '' ? { record, cost, refusal: null } : { record, cost, refusal: refusal as Refusal };
  }

  async refund(keyId: string, _counted: boolean, _cost: number, chargeId?: string): Promise<void> {
    // What the charge itself recorded is taken back, by its id: never twice, never one not made.
    if (!chargeId) throw new Error('[investor-graph mock] a refund on the Redis store names its charge');
    const sentAt = Date.now();
    try {
      await this.redis.run('voidCharge', [this.k.record(keyId), this.k.charge(chargeId)], [CHARGE_KEPT_MS]);
    } catch (error) {
      // Whether it ran or not, running it again later is safe: it takes back a charge once.
      this.voidLater(keyId, chargeId, sentAt);
      throw error;
    }
  }

  insertTrial(record: KeyRecord, now: number, cap: TrialCap): Promise<TrialInsert> {
    return this.trials.insert(record, now, cap);
  }

  async update(keyId: string, edit: (current: KeyRecord) => void): Promise<KeyRecord | undefined> {
    for (let i = 0; i < TRIES; i++) {
      const read = fromFields(await this.redis.call((c) => c.hgetall(this.k.record(keyId))));
      if (!read) return undefined;
      edit(read.record);
      if (
        (await this.redis.run<number>(
          'updateIfUnchanged',
          [this.k.record(keyId)],
          [read.version, ...changedFields(read.record)],
        )) === 1
      )
        return read.record;
    }
    throw new Error(`[investor-graph mock] key ${keyId} kept changing under ${TRIES} tries to change it`);
  }

  async list(): Promise<KeyRecord[]> {
    const ids = await this.redis.call((c) => c.zrange(this.k.list, '0', '-1'));
    const replies = await Promise.all(ids.map((id) => this.redis.call((c) => c.hgetall(this.k.record(id)))));
    const records = replies.map((reply) => fromFields(reply)?.record);
    // A trial that expired in Redis (its TTL) leaves its id in the list: dropped as met.
    const gone = ids.filter((_, i) => !records[i]);
    if (gone.length) await this.redis.call((c) => c.zrem(this.k.list, ...gone));
    return records.filter((r): r is KeyRecord => r !== undefined);
  }

  getMeta(name: MetaName): Promise<string | undefined> {
    return this.meta.get(name);
  }

  claimMeta(name: MetaName, initial: string): Promise<string> {
    return this.meta.claim(name, initial);
  }

  changeMeta(name: MetaName, edit: (current: string | undefined) => string): Promise<string> {
    return this.meta.change(name, edit);
  }

  pruneTrials(before: number): Promise<number> {
    return this.trials.prune(before);
  }

  describe(): StoreInfo {
    return { store: 'redis', location: this.redis.target.shown, reachable: this.redis.reachable };
  }

  async close(): Promise<void> {
    await this.takeBacks.stop();
    await this.redis.close();
  }

  private voidLater(keyId: string, chargeId: string, sentAt: number): void {
    this.takeBacks.later(
      `charge:${chargeId}`,
      () => this.redis.run('voidCharge', [this.k.record(keyId), this.k.charge(chargeId)], [CHARGE_KEPT_MS]),
      sentAt,
    );
  }
}
