/**
 * When the suite's next call may go (client.ts sends it): a little under the plan's rate, so its
 * own calls never meet a 429, and after the Retry-After of one that did.
 */
import { plans, type PlanId } from '@investor-graph/contract';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class Pacer {
  #nextSlot = 0;
  readonly #spacing: number;

  constructor(plan: PlanId) {
    this.#spacing = 1000 / (plans[plan].rate_per_second * 0.9);
  }

  /** Waits for the next call's slot: one every `spacing` ms, whoever asks. */
  async slot(): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.#nextSlot);
    this.#nextSlot = at + this.#spacing;
    if (at > now) await sleep(at - now);
  }

  /** Waits out a 429's Retry-After (seconds; 1 when it says none it can be read as), at most `maxWait` seconds. */
  async waitOut(retryAfter: string | null, maxWait: number): Promise<void> {
    const wait = Number(retryAfter);
    await sleep(Math.min(Number.isFinite(wait) && wait >= 0 ? wait : 1, maxWait) * 1000);
  }
}
