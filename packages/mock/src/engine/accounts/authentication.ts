/**
 * Who is calling: the key behind an Authorization header, or the 401 that says why not; and each
 * client address's budget of calls without a valid key (DECISIONS.md#failed-authentication), spent
 * before a key is even looked at once it is gone.
 */
import { failedAuth } from '@investor-graph/contract/plans';
import { ProblemError } from '../problems.ts';
import { constantTimeEqual, sha256Hex } from '../hash.ts';
import type { KeyRecord } from './key-records.ts';
import type { RateLimiter } from './rate-limiter.ts';

/** The part of a key store authentication reads. */
export interface KeyDirectory {
  byHash(hash: string): KeyRecord | undefined | Promise<KeyRecord | undefined>;
}

/** Keys met, kept by hash: whether a key exists and its plan never change (what does is read afresh when charging). */
const REMEMBERED = 50_000;

export class Authenticator {
  private readonly seen = new Map<string, KeyRecord>();
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
    if (!header) throw new ProblemError('missing_key', 'Send Authorization: Bearer <API_KEY>. A trial key is one call away.');
    const match = /^Bearer[ ]+([\x21-\x7e]{1,200})$/i.exec(header.trim());
    if (!match) throw new ProblemError('invalid_key', 'The Authorization header must be "Bearer <API_KEY>".');
    const presented = await sha256Hex(match[1]!);
    const record = this.seen.get(presented) ?? this.remember(await this.directory.byHash(presented));
    // The map lookup finds a candidate; the comparison that decides is constant-time.
    if (!record || !constantTimeEqual(record.hash, presented)) throw new ProblemError('invalid_key', 'This API key is not known.');
    // One revoked since it was met, by this or another process, is caught when the call is charged.
    if (record.revokedAt !== null) throw new ProblemError('revoked_key', 'This API key has been revoked.');
    // A trial long past its end is forgotten (DECISIONS.md#trial-key-response), whether or not it is pruned yet.
    if (record.plan === 'trial' && record.expiresAt !== null && now >= record.expiresAt + this.trialKeptMs) throw new ProblemError('invalid_key', 'This API key is not known.');
    return record;
  }

  /**
   * Authenticates for a client address whose calls without a valid key are budgeted: an address
   * that spent its budget gets 429 before its key is even looked at.
   */
  async authenticateFrom(header: string | null, client: string, now: number): Promise<KeyRecord> {
    const wait = await this.limiter.peek('failed-auth', client, failedAuth.burst, failedAuth.perSecond);
    if (wait) throw new ProblemError('too_many_failures', `Too many calls without a valid key from this address; retry after ${wait} second${wait === 1 ? '' : 's'}.`, { headers: { 'retry-after': String(wait) } });
    try {
      return await this.authenticate(header, now);
    } catch (error) {
      await this.limiter.take('failed-auth', client, failedAuth.burst, failedAuth.perSecond);
      throw error;
    }
  }

  /** Forgets a key met before (it is no longer in the store). */
  forget(hash: string): void {
    this.seen.delete(hash);
  }

  private remember(record: KeyRecord | undefined): KeyRecord | undefined {
    if (!record) return undefined;
    // Bounded like the address tables: the key met longest ago goes first.
    if (this.seen.size >= REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(record.hash, record);
    return record;
  }
}
