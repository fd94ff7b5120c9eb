/**
 * What a mock owes the Redis server after an outage: the steps (a charge, a trial issued) whose
 * answer never came, taken back once the server is there again.
 */
import type { RedisConnection } from './connection.ts';

/**
 * How long a charge is remembered, to be taken back by its id: far longer than any call, and than
 * an outage of a few seconds whose lost answers are voided once Redis is back. Not longer: a key a
 * counted call (10,000 calls a second keep ~600,000 of them, ~55 MB). A call cut off by an outage
 * longer than this may stay counted though its client got 503 (DECISIONS.md).
 */
export const CHARGE_KEPT_MS = 60_000;
/** Steps waiting to be taken back at most (`later`). */
const PENDING = 100_000;

export class TakeBacks {
  private readonly redis: Pick<RedisConnection, 'reachable'>;
  /** Charges whose answer never came (the server went away mid-call): taken back once it is there again. */
  private readonly steps = new Map<string, { step: () => Promise<unknown>; at: number }>();

  private flushing: ReturnType<typeof setInterval> | undefined;

  constructor(redis: Pick<RedisConnection, 'reachable'>) {
    this.redis = redis;
  }

  /** Tries, every second, to take back what waits (never holding the process open). */
  start(): void {
    this.flushing = setInterval(() => void this.flush(), 1000);
    this.flushing.unref();
  }

  /** Stops trying on its own, after one last try. */
  async stop(): Promise<void> {
    clearInterval(this.flushing);
    await this.flush();
  }

  /**
   * Keeps a step to take back (a charge, a trial issued) whose answer never came, to run once the
   * server is there again. Bounded: the calls in flight when it went away are a few (a call meets
   * a server away at once, unsent); past the bound, the oldest is dropped and said so.
   */
  later(name: string, step: () => Promise<unknown>, sentAt: number): void {
    if (this.steps.size >= PENDING) {
      const [oldest] = this.steps.keys();
      this.steps.delete(oldest!);
      console.error(
        `[investor-graph mock] more than ${PENDING} calls cut off by the state store's outage are waiting ` +
          `to be taken back; the oldest (${oldest}) stays counted`,
      );
    }
    this.steps.set(name, { step, at: sentAt });
  }

  /** Takes back what waits to be (`later`), now that the server may be there again. */
  async flush(): Promise<void> {
    if (!this.steps.size || !this.redis.reachable) return;
    for (const [name, { step, at }] of [...this.steps]) {
      // Past a charge's own life on the server there is nothing left to take back.
      if (Date.now() - at > CHARGE_KEPT_MS) {
        this.steps.delete(name);
        continue;
      }
      try {
        await step();
        this.steps.delete(name);
      } catch {
        return;
      }
    }
  }
}
