/**
 * The incidents of every mock on one Redis server (`--state redis://...`), as the journal is shared:
 * one posted to any replica is in force on all of them, a count of calls is taken on the server in
 * one step (incident-scripts.ts `takeIncident`), so N replicas change no more calls than the count
 * in all, and one ended, run out or past its time is gone everywhere.
 *
 * What each call pays: this process holds a copy of the table, and reads the table's version from
 * the server at most every VERSION_EVERY_MS (waiting at most VERSION_WAIT_MS for it), reloading the
 * table only when the version moved. A call that matches nothing in the copy goes on without asking
 * the server anything; one that matches asks it to take a call of the newest it matches still in
 * force. So an incident posted on another replica is met there within VERSION_EVERY_MS (at once on
 * the replica it was posted to), and one ended is never met again anywhere.
 */
import {
  matchesCall,
  MAX_INCIDENTS,
  newIncidentId,
  shownIncident,
  tooManyIncidents,
  type CallFacts,
  type HeldIncident,
  type Incident,
  type IncidentInput,
  type IncidentStore,
} from '@investor-graph/engine/adapter';
import type { RedisConnection } from './connection.ts';
import { names } from './layout.ts';

/** How old (real ms) this process's copy of the table may be before a call reads the version again. */
export const VERSION_EVERY_MS = 100;
/** How long a call waits for that read at most: past it, it goes on with the copy it has. */
const VERSION_WAIT_MS = 50;

/** A row as listIncidents returns it: id, input, created_at, ends_at, calls_left, hits. */
type Row = [string, string, string, string, string, string];

const orNull = (text: string): number | null => (text === '' ? null : Number(text));

function heldOf([id, input, createdAt, endsAt, callsLeft, hits]: Row): HeldIncident {
  return {
    id,
    input: JSON.parse(input) as IncidentInput,
    createdAt: Number(createdAt),
    endsAt: orNull(endsAt),
    callsLeft: orNull(callsLeft),
    hits: Number(hits),
  };
}

const live = (held: HeldIncident, serviceNow: number, wall: number): boolean =>
  (held.endsAt === null || wall < held.endsAt) && (held.input.until === undefined || serviceNow < held.input.until);

export class RedisIncidents implements IncidentStore {
  private readonly redis: RedisConnection;
  private readonly keys: string[];
  private readonly prefix: string;
  /** This process's copy of the table, oldest first, and the version it is of (-1: none read yet). */
  private held: HeldIncident[] = [];
  private version = -1;
  /** When (performance.now()) the version was last read; -Infinity: read it before the next call. */
  private checkedAt = -Infinity;
  private checking: Promise<void> | undefined;

  constructor(redis: RedisConnection) {
    this.redis = redis;
    const k = names(redis.target.prefix);
    this.keys = [k.incidents, k.incidentSeq, k.incidentVersion];
    this.prefix = k.incident;
  }

  /** False while the copy is fresh and empty: a call then pays a clock read and a comparison, no await. */
  get any(): boolean {
    return this.held.length > 0 || performance.now() - this.checkedAt >= VERSION_EVERY_MS;
  }

  async add(input: IncidentInput, serviceNow = -Infinity): Promise<Incident> {
    const id = newIncidentId();
    const at = Number.isFinite(serviceNow) ? String(serviceNow) : '';
    const made = await this.redis.run<[number, number | ''] | null>('addIncident', this.keys, [
      this.prefix,
      id,
      JSON.stringify(input),
      input.calls ?? '',
      input.durationMs ?? '',
      input.until ?? '',
      at,
      MAX_INCIDENTS,
    ]);
    if (!made) throw tooManyIncidents();
    this.checkedAt = -Infinity;
    const [createdAt, endsAt] = made;
    return shownIncident({
      id,
      input,
      createdAt,
      endsAt: endsAt === '' ? null : endsAt,
      callsLeft: input.calls ?? null,
      hits: 0,
    });
  }

  list(serviceNow: number): Incident[] {
    const wall = Date.now();
    return this.held.filter((held) => live(held, serviceNow, wall)).map(shownIncident);
  }

  async refresh(serviceNow: number): Promise<void> {
    const [version, ...rows] = await this.redis.run<[number, ...Row[]]>('listIncidents', this.keys, [
      this.prefix,
      String(serviceNow),
    ]);
    this.held = rows.map(heldOf);
    this.version = version;
    this.checkedAt = performance.now();
  }

  async clear(): Promise<number> {
    const cleared = await this.redis.run<number>('clearIncidents', this.keys, [this.prefix]);
    this.held = [];
    this.checkedAt = -Infinity;
    return cleared;
  }

  async end(id: string, serviceNow: number): Promise<Incident | undefined> {
    const row = await this.redis.run<Row | null>('endIncident', this.keys, [this.prefix, id, String(serviceNow)]);
    this.checkedAt = -Infinity;
    return row ? shownIncident(heldOf(row)) : undefined;
  }

  take(call: CallFacts, serviceNow: number): Incident | null | Promise<Incident | null> {
    if (performance.now() - this.checkedAt >= VERSION_EVERY_MS) return this.checkThenTake(call, serviceNow);
    if (this.held.length === 0) return null;
    return this.takeShared(call, serviceNow);
  }

  private async checkThenTake(call: CallFacts, serviceNow: number): Promise<Incident | null> {
    this.checking ??= this.check(serviceNow).finally(() => (this.checking = undefined));
    // A slow server holds no call longer than VERSION_WAIT_MS: it goes on with the copy it has.
    await Promise.race([this.checking, new Promise((resolve) => setTimeout(resolve, VERSION_WAIT_MS).unref())]);
    return this.held.length === 0 ? null : this.takeShared(call, serviceNow);
  }

  /** Reads the version, and the table when it moved; a server away leaves the copy as it was. */
  private async check(serviceNow: number): Promise<void> {
    try {
      const version = Number(await this.redis.call((c) => c.get(this.keys[2]!)));
      if (version === this.version) this.checkedAt = performance.now();
      else await this.refresh(serviceNow);
    } catch {
      // Tried again by the next call: what the server holds is unknown until it answers.
    }
  }

  /** Asks the server to take a call of the newest incident in the copy that `call` matches and is still in force. */
  private async takeShared(call: CallFacts, serviceNow: number): Promise<Incident | null> {
    const ids: string[] = [];
    const byId = new Map<string, HeldIncident>();
    for (let i = this.held.length - 1; i >= 0; i--) {
      const held = this.held[i]!;
      if (held.input.until !== undefined && serviceNow >= held.input.until) continue;
      if (!matchesCall(held.input.match, call)) continue;
      ids.push(held.id);
      byId.set(held.id, held);
    }
    if (ids.length === 0) return null;
    const taken = await this.redis.run<[string, number | '', number] | null>('takeIncident', this.keys, [
      this.prefix,
      String(serviceNow),
      ...ids,
    ]);
    if (!taken) {
      // What the copy holds has ended since it was read: read it again before the next call.
      this.checkedAt = -Infinity;
      return null;
    }
    const [id, callsLeft, hits] = taken;
    const held = byId.get(id)!;
    if (callsLeft === 0) this.held = this.held.filter((h) => h !== held);
    return shownIncident({ ...held, callsLeft: callsLeft === '' ? null : callsLeft, hits });
  }
}
