/**
 * The simulated clock. It runs with real time from a chosen start, or stands still (frozen) for
 * tests; `advance` jumps it forward so a trial can expire or a month roll over without waiting.
 * Rate limiting does not use it: request rates are real-time by nature.
 */
import type { components } from './control/generated/api.ts';
import type { KeyStore } from './stores/key-store.ts';
import { ProblemError } from './problems.ts';

/** The clock as the control API shows it. */
export type ClockState = components['schemas']['ClockState'];

/**
 * A clock as a state store keeps it: the simulated time `at` at the real (wall-clock) time `real`,
 * so a running clock has run on when another process, or a restart, reads it.
 */
export interface SavedClock {
  at: number;
  real: number;
  frozen: boolean;
}

export class Clock {
  private base: number;
  private realAtBase: number;
  private frozenFlag: boolean;
  private readonly realNow: () => number;

  constructor(start: number, frozen = false, realNow: () => number = () => Date.now()) {
    this.realNow = realNow;
    this.base = start;
    this.realAtBase = realNow();
    this.frozenFlag = frozen;
  }

  now(): number {
    return this.frozenFlag ? this.base : this.base + (this.realNow() - this.realAtBase);
  }

  /**
   * Sets the time; moving it backwards is refused (counters and the feed only go forward). Whole
   * milliseconds only, as `Date` keeps them: `PT0.0005S` would otherwise leave a fraction that the
   * state database (INTEGER columns) refuses on every later call.
   */
  set(ms: number, frozen = this.frozenFlag): void {
    if (ms < this.now() - 1000) throw new RangeError('the clock only moves forward');
    this.base = Math.round(Math.max(ms, this.now()));
    this.realAtBase = this.realNow();
    this.frozenFlag = frozen;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('advance takes a non-negative duration');
    this.set(this.now() + ms);
  }

  saved(): SavedClock {
    return { at: this.base, real: this.realAtBase, frozen: this.frozenFlag };
  }

  /** Takes up a clock saved by this or another process. */
  restore(saved: SavedClock): void {
    // Whole ms, also from a state file an earlier version wrote with a fraction.
    this.base = Math.round(saved.at);
    this.realAtBase = saved.real;
    this.frozenFlag = saved.frozen;
  }

  state(): ClockState {
    return { now: new Date(this.now()).toISOString(), frozen: this.frozenFlag };
  }
}

/** How long a clock set through another process on the same state store may take to reach this one. */
const SYNC_MS = 250;
/** How long a call waits for that look on a store on a server before it goes on with the clock as last seen. */
const SYNC_WAIT_MS = 50;

/**
 * The clock as the key store keeps it, shared by every mock on the same state. The first process on
 * a store decides it (`claim`); the others take it up when it changes, looking no more than every
 * SYNC_MS (a read of the store per call was 9% of a call).
 */
export class SharedClock {
  private text = '';
  private syncedAt = -Infinity;
  readonly clock: Clock;
  private readonly keyStore: KeyStore;
  private readonly realNow: () => number;

  constructor(clock: Clock, keyStore: KeyStore, realNow: () => number) {
    this.clock = clock;
    this.keyStore = keyStore;
    this.realNow = realNow;
  }

  /** Keeps this clock as the store's when it has none yet, and takes up the store's otherwise. */
  async claim(): Promise<void> {
    this.take(await this.keyStore.claimMeta('clock', JSON.stringify(this.clock.saved())));
    this.syncedAt = this.realNow();
  }

  /**
   * Takes up the clock as last saved, by this process or another, when SYNC_MS have passed since
   * the last look. A store on a server is waited for SYNC_WAIT_MS at most: past that (or when it
   * does not answer) the call goes on with the clock as last seen, and the look lands when it
   * comes, so a slow server never holds a call (a probe of the contract, say) that needs no state.
   */
  async sync(): Promise<void> {
    const at = this.realNow();
    if (at - this.syncedAt < SYNC_MS) return;
    this.syncedAt = at;
    // Settles without rejecting: a failure after the wait has no call left to fail.
    let failure: unknown;
    const look = Promise.resolve()
      .then(() => this.keyStore.getMeta('clock'))
      .then((text) => void (text !== undefined && this.take(text)))
      .catch((error: unknown) => {
        // A server away: the clock runs on as last seen; the call meets the store where it must (its charge: 503).
        if (!(error instanceof ProblemError && error.code === 'state_unavailable')) failure = error;
      });
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([look, new Promise<void>((resolve) => (timer = setTimeout(resolve, SYNC_WAIT_MS)))]);
    clearTimeout(timer);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- what the store threw, rethrown as it was
    if (failure) throw failure;
  }

  /**
   * Changes the clock as stored now, not as this process last looked (up to SYNC_MS ago): read,
   * changed and saved in one atomic step of the store, so two mocks on it advancing it at once both count.
   */
  async change(edit: (clock: Clock) => void): Promise<void> {
    const before = this.clock.saved();
    let kept: string;
    try {
      kept = await this.keyStore.changeMeta('clock', (text) => {
        // On a store on a server, the step may run again on a newer clock: each run starts from the store's.
        if (text !== undefined) this.clock.restore(JSON.parse(text) as SavedClock);
        edit(this.clock);
        return JSON.stringify(this.clock.saved());
      });
    } catch (error) {
      // Not kept: this process's clock goes back to what it was, and the next look takes up the store's.
      this.clock.restore(before);
      this.text = '';
      this.syncedAt = -Infinity;
      throw error;
    }
    this.take(kept);
    this.syncedAt = this.realNow();
  }

  private take(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.clock.restore(JSON.parse(text) as SavedClock);
  }
}

/** Parses `PT1H`, `P1D`, `P1M`-free ISO durations (days, hours, minutes, seconds) into ms. */
export function parseDuration(text: string): number | null {
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [, w = '0', d = '0', h = '0', min = '0', s = '0'] = m;
  return ((Number(w) * 7 + Number(d)) * 86_400 + Number(h) * 3600 + Number(min) * 60 + Number(s)) * 1000;
}
