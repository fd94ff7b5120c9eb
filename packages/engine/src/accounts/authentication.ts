/**
 * Who is calling: the key behind an Authorization header, or the 401 that says why not; and each
 * client address's budget of calls without a valid key (DECISIONS.md#failed-authentication): a key
 * is looked up only with a token of it in hand, and once it is gone nothing is looked at.
 */
import { failedAuth } from '@investor-graph/contract/plans';
import { bearerOf } from '@investor-graph/cli/redact';
import { ProblemError } from '../problems.ts';
import { constantTimeEqual, sha256Hex } from '../hash.ts';
import type { KeyDirectory, KeyRecord } from '../stores/key-store.ts';
import type { RateLimiter } from '../stores/rate-limiter.ts';

/** Keys met, kept by hash: whether a key exists and its plan never change (what does is read afresh when charging). */
const REMEMBERED = 50_000;

/** What a look-up of one key ended in: the address's budget was gone (seconds to wait), or the record, if any. */
type LookUp = { wait: number } | { record: KeyRecord | undefined };

export class Authenticator {
  private readonly seen = new Map<string, KeyRecord>();
  /** Look-ups under way, by the presented key's hash: calls sending one key at once share one (and its token). */
  private readonly pending = new Map<string, Promise<LookUp>>();
  private readonly directory: KeyDirectory;
  private readonly limiter: RateLimiter;
  private readonly trialKeptMs: number;

  /** `trialKeptMs`: how long past its end a trial's key is still known (trialKeptAfterEnd). */
  constructor(directory: KeyDirectory, limiter: RateLimiter, trialKeptMs: number) {
    this.directory = directory;
    this.limiter = limiter;
    this.trialKeptMs = trialKeptMs;
  }

  /** The key behind an Authorization header at `now` (the service's clock), or the 401 that says why not. */
  async authenticate(header: string | null, now: number): Promise<KeyRecord> {
    const presented = await presentedHash(header);
    const record = this.seen.get(presented) ?? this.remember(await this.directory.byHash(presented));
    const refused = this.refusal(record, presented, now);
    if (refused) throw refused;
    return record!;
  }

  /**
   * Authenticates for a client address whose calls without a valid key are budgeted
   * (DECISIONS.md#failed-authentication). Every decision to look a key up is taken in one atomic
   * step of the limiter before the look-up: a key not met before spends a token first (given back
   * when it is found valid), so calls sent together (pipelined on one connection, in parallel, or
   * to replicas on one store) cannot all pass a budget only some of them fit in. A key met before
   * and still valid only needs the budget not to be gone; one that is no longer valid, or a header
   * that holds no key, spends a token like any failed call.
   */
  async authenticateFrom(header: string | null, client: string, now: number): Promise<KeyRecord> {
    let presented: string;
    try {
      presented = await presentedHash(header);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      return this.failed(client, error);
    }
    const met = this.seen.get(presented);
    if (met) {
      const refused = this.refusal(met, presented, now);
      if (refused) return this.failed(client, refused);
      const wait = await this.limiter.peek('failed-auth', client, failedAuth.burst, failedAuth.perSecond);
      if (wait) throw tooManyFailures(wait);
      return met;
    }
    let lookUp = this.pending.get(presented);
    const first = lookUp === undefined;
    if (!lookUp) {
      lookUp = this.lookUp(presented, client);
      this.pending.set(presented, lookUp);
      void lookUp.finally(() => this.pending.delete(presented)).catch(() => {});
    }
    const outcome = await lookUp;
    if ('wait' in outcome) throw tooManyFailures(outcome.wait);
    const refused = this.refusal(outcome.record, presented, now);
    // The call that looked the key up spent its token already; one that shared the look-up spends
    // its own now (it looked nothing up, but it is a call without a valid key all the same).
    if (refused) return first ? Promise.reject(refused) : this.failed(client, refused);
    if (first) await this.limiter.giveBack('failed-auth', client, failedAuth.burst, failedAuth.perSecond);
    return outcome.record!;
  }

  /** Forgets a key met before (it is no longer in the store). */
  forget(hash: string): void {
    this.seen.delete(hash);
  }

  /**
   * A token of the address's budget, taken before the key is looked up (the caller gives it back
   * when the key admits); a store that fails to answer is not the client's failure: its token goes back.
   */
  private async lookUp(presented: string, client: string): Promise<LookUp> {
    const { wait } = await this.limiter.take('failed-auth', client, failedAuth.burst, failedAuth.perSecond);
    if (wait) return { wait };
    try {
      return { record: this.seen.get(presented) ?? this.remember(await this.directory.byHash(presented)) };
    } catch (error) {
      await this.limiter.giveBack('failed-auth', client, failedAuth.burst, failedAuth.perSecond);
      throw error;
    }
  }

  /**
   * A call without a valid key: it spends a token of the address's
   * budget, and is its 401 (or, once the budget is gone, 429).
   */
  private async failed(client: string, problem: ProblemError): Promise<never> {
    const { wait } = await this.limiter.take('failed-auth', client, failedAuth.burst, failedAuth.perSecond);
    throw wait ? tooManyFailures(wait) : problem;
  }

  /** Why a record found for a presented key does not admit it at `now`, or null. */
  private refusal(record: KeyRecord | undefined, presented: string, now: number): ProblemError | null {
    // The map lookup finds a candidate; the comparison that decides is constant-time.
    if (!record || !constantTimeEqual(record.hash, presented))
      return new ProblemError('invalid_key', 'This API key is not known.');
    // One revoked since it was met, by this or another process, is caught when the call is charged.
    if (record.revokedAt !== null) return new ProblemError('revoked_key', 'This API key has been revoked.');
    // A trial long past its end is forgotten (DECISIONS.md#trial-key-response), whether or not it is pruned yet.
    if (record.plan === 'trial' && record.expiresAt !== null && now >= record.expiresAt + this.trialKeptMs)
      return new ProblemError('invalid_key', 'This API key is not known.');
    return null;
  }

  private remember(record: KeyRecord | undefined): KeyRecord | undefined {
    if (!record) return undefined;
    // Bounded like the address tables: the key met longest ago goes first.
    if (this.seen.size >= REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(record.hash, record);
    return record;
  }
}

/** The SHA-256 of the key an Authorization header presents, or the 401 for a header that presents none. */
async function presentedHash(header: string | null): Promise<string> {
  if (!header)
    throw new ProblemError('missing_key', 'Send Authorization: Bearer <API_KEY>. A trial key is one call away.');
  const key = bearerOf(header);
  if (key === undefined || !/^[\x21-\x7e]{1,200}$/.test(key))
    throw new ProblemError('invalid_key', 'The Authorization header must be "Bearer <API_KEY>".');
  return await sha256Hex(key);
}

function tooManyFailures(wait: number): ProblemError {
  return new ProblemError(
    'too_many_failures',
    `Too many calls without a valid key from this address; retry after ${wait} second${wait === 1 ? '' : 's'}.`,
    { headers: { 'retry-after': String(wait) } },
  );
}
