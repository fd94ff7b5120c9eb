/**
 * The trial keys on the Redis server: one live trial an e-mail hash and the minute's cap, issued in
 * one script (scripts.ts `insertTrial`), and the ended ones dropped with what points at them. Apart
 * from the key store's records and metering, which every call runs: a trial is issued rarely.
 */
import { plans } from '@investor-graph/contract/plans';
import type { KeyRecord, TrialCap, TrialInsert } from '@investor-graph/engine/adapter';
import type { RedisConnection } from './connection.ts';
import { recordFields } from './record-fields.ts';
import { DAY, trialKeptAfterEnd, type names } from './layout.ts';
import type { TakeBacks } from './take-backs.ts';

export class RedisTrials {
  private readonly redis: RedisConnection;
  private readonly k: ReturnType<typeof names>;
  private readonly takeBacks: TakeBacks;

  constructor(redis: RedisConnection, k: ReturnType<typeof names>, takeBacks: TakeBacks) {
    this.redis = redis;
    this.k = k;
    this.takeBacks = takeBacks;
  }

  /** The look-up of a live trial, the minute's cap and the insert, in one script. */
  async insert(record: KeyRecord, now: number, cap: TrialCap): Promise<TrialInsert> {
    // Kept in Redis as long as the trial and the days after its end it is still told apart (real
    // time, which the service clock never runs slower than unless frozen); prune drops it
    // sooner when the clock is moved past that.
    const keepMs = Math.max(1, (record.expiresAt ?? now + 7 * DAY) - now + trialKeptAfterEnd);
    const reply = await this.redis.run<string | [string, number]>(
      'insertTrial',
      [
        this.k.email(record.emailHash!),
        this.k.hash(record.hash),
        this.k.record(record.keyId),
        this.k.list,
        this.k.sequence,
        this.k.trials,
        this.k.trialCap,
      ],
      [
        now,
        plans.trial.calls_limit ?? 0,
        cap.perMinute ?? -1,
        keepMs,
        this.k.record(''),
        record.keyId,
        record.expiresAt ?? now,
        ...recordFields(record),
      ],
      // Issued but not answered, no one holds its key: taken back once the server is there again,
      // or the address would be told it has a live trial it never saw (409) for 7 days.
      () => this.takeBacks.later(`trial:${record.keyId}`, () => this.void(record), Date.now()),
    );
    if (Array.isArray(reply)) return { wait: Number(reply[1]) };
    if (reply !== 'inserted') return 'live';
    // Trials that expired in Redis by their TTL leave their ids listed: cleared as new ones come.
    void this.prune(now - trialKeptAfterEnd).catch(() => undefined);
    return 'inserted';
  }

  /** Drops the trials that ended before `before` (service clock), 500 a script; returns how many. */
  async prune(before: number): Promise<number> {
    let pruned = 0;
    for (;;) {
      const n = await this.redis.run<number>(
        'pruneTrials',
        [this.k.trials, this.k.list],
        [before, this.k.record(''), this.k.hash(''), this.k.email('')],
      );
      pruned += n;
      if (n < 500) return pruned;
    }
  }

  /** Takes back a trial issued whose answer never came: its record and what points at it. */
  private void(record: KeyRecord): Promise<unknown> {
    return this.redis.run(
      'voidTrial',
      [
        this.k.record(record.keyId),
        this.k.hash(record.hash),
        this.k.email(record.emailHash!),
        this.k.list,
        this.k.trials,
      ],
      [record.keyId],
    );
  }
}
