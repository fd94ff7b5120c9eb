/**
 * Incidents in force: what a test asked the mock to do wrong, to which calls, for how long (the
 * next N calls, a wall-clock duration, or until a time on the simulated clock, whichever ends
 * first; none given: until cleared). The request step (apply.ts) asks for the incident that a call
 * meets; the control plane adds, lists and ends them (control/incident-routes.ts). The newest
 * incident a call matches is the one it meets, as WireMock's newest stub is the one that answers:
 * a test narrows a broad incident by adding a narrower one after it.
 */
import { iso } from '../answer.ts';
import { randomToken } from '../hash.ts';
import { globMatches } from '../journal/match.ts';
import { ProblemError } from '../problems.ts';
import type { CallFacts, Incident, IncidentInput, IncidentMatch, IncidentStore } from './store.ts';

export type { CallFacts, Incident, IncidentInput, IncidentMatch, IncidentStore } from './store.ts';

/** An incident as a store holds it (`shownIncident` makes what the control API shows of it). */
export interface HeldIncident {
  id: string;
  input: IncidentInput;
  createdAt: number;
  endsAt: number | null;
  callsLeft: number | null;
  hits: number;
}

interface Held extends HeldIncident {
  /** Order of adding: which of two matching incidents is the newer. */
  seq: number;
}

/**
 * The most incidents in force at once (DECISIONS.md#incidents): far past what a test asks for, and
 * a bound on what a call spends finding its own and on the list's size.
 */
export const MAX_INCIDENTS = 1000;

/** Where an incident is filed: under its operation, or with those that name none (any operation). */
const ANY = '';

/** A new incident's id. */
export const newIncidentId = (): string => `inc_${randomToken(12, '0123456789abcdef')}`;

/** The 409 of one incident more than MAX_INCIDENTS. */
export const tooManyIncidents = (): ProblemError =>
  new ProblemError(
    'too_many_incidents',
    `The mock holds at most ${MAX_INCIDENTS} incidents in force: end some first (DELETE /__control/incidents).`,
  );

/** The incidents in this process's memory: the store of a mock that shares none (store.ts). */
export class Incidents implements IncidentStore {
  /** Oldest first. */
  private held: Held[] = [];
  /**
   * The incidents by the operation they name (ANY: none), oldest first: a call looks only at its
   * operation's and ANY's, so incidents on other operations cost it nothing.
   */
  private byOperation = new Map<string, Held[]>();
  private added = 0;

  private readonly wallNow: () => number;

  constructor(wallNow: () => number = Date.now) {
    this.wallNow = wallNow;
  }

  /** Whether any incident is held: a call pays for nothing more than this while none is. */
  get any(): boolean {
    return this.held.length > 0;
  }

  /**
   * Starts an incident; a 409 `too_many_incidents` when MAX_INCIDENTS are in force at `serviceNow`
   * (the simulated clock; left out, only those ended by the wall clock are pruned first).
   */
  add(input: IncidentInput, serviceNow = -Infinity): Incident {
    this.prune(serviceNow);
    if (this.held.length >= MAX_INCIDENTS) throw tooManyIncidents();
    const now = this.wallNow();
    const held: Held = {
      id: newIncidentId(),
      seq: this.added++,
      input,
      createdAt: now,
      endsAt: input.durationMs === undefined ? null : now + input.durationMs,
      callsLeft: input.calls ?? null,
      hits: 0,
    };
    this.held.push(held);
    this.file(held);
    return shownIncident(held);
  }

  /** Those in force at `serviceNow` (the simulated clock), oldest first. */
  list(serviceNow: number): Incident[] {
    this.prune(serviceNow);
    return this.held.map(shownIncident);
  }

  /** Ends every incident; how many there were. */
  clear(): number {
    const count = this.held.length;
    this.held = [];
    this.byOperation.clear();
    return count;
  }

  /** Ends one, as it stood; undefined when no incident in force has that id. */
  end(id: string, serviceNow: number): Incident | undefined {
    this.prune(serviceNow);
    const at = this.held.findIndex((h) => h.id === id);
    if (at === -1) return undefined;
    const [ended] = this.held.splice(at, 1);
    this.unfile(ended!);
    return shownIncident(ended!);
  }

  /** The newest incident in force that `call` matches, one of its calls taken; null when none. */
  take(call: CallFacts, serviceNow: number): Incident | null {
    if (this.held.length === 0) return null;
    const own = this.byOperation.get(call.operation);
    const any = this.byOperation.get(ANY);
    if (!own && !any) return null;
    this.prune(serviceNow);
    const held = newestMatch(this.byOperation.get(call.operation), this.byOperation.get(ANY), call);
    if (!held) return null;
    held.hits++;
    if (held.callsLeft !== null && --held.callsLeft === 0) {
      this.held.splice(this.held.indexOf(held), 1);
      this.unfile(held);
    }
    return shownIncident(held);
  }

  private file(held: Held): void {
    const at = held.input.match.operation ?? ANY;
    const list = this.byOperation.get(at);
    if (list) list.push(held);
    else this.byOperation.set(at, [held]);
  }

  private unfile(held: Held): void {
    const at = held.input.match.operation ?? ANY;
    const list = this.byOperation.get(at)?.filter((h) => h !== held) ?? [];
    if (list.length) this.byOperation.set(at, list);
    else this.byOperation.delete(at);
  }

  private prune(serviceNow: number): void {
    const wall = this.wallNow();
    const live = (h: Held): boolean =>
      (h.endsAt === null || wall < h.endsAt) && (h.input.until === undefined || serviceNow < h.input.until);
    if (this.held.every(live)) return;
    this.held = this.held.filter(live);
    this.byOperation.clear();
    for (const held of this.held) this.file(held);
  }
}

/** The newest of two lists' incidents (each oldest first) that matches `call`: the newest wins, whichever list. */
function newestMatch(own: Held[] | undefined, any: Held[] | undefined, call: CallFacts): Held | null {
  let i = (own?.length ?? 0) - 1;
  let j = (any?.length ?? 0) - 1;
  while (i >= 0 || j >= 0) {
    const fromOwn = j < 0 || (i >= 0 && own![i]!.seq > any![j]!.seq);
    const held = fromOwn ? own![i--]! : any![j--]!;
    if (matchesCall(held.input.match, call)) return held;
  }
  return null;
}

export function matchesCall(match: IncidentMatch, call: CallFacts): boolean {
  return (
    (match.operation === undefined || match.operation === call.operation) &&
    (match.method === undefined || match.method.toUpperCase() === call.method) &&
    (match.path === undefined || globMatches(match.path, call.path)) &&
    (match.key_id === undefined || match.key_id === call.keyId)
  );
}

/** What the control API shows of an incident. */
export function shownIncident(held: HeldIncident): Incident {
  const { input } = held;
  return {
    id: held.id,
    kind: input.kind,
    match: { ...input.match },
    calls_left: held.callsLeft,
    ends_at: held.endsAt === null ? null : new Date(held.endsAt).toISOString(),
    until: input.until === undefined ? null : iso(input.until),
    ...input.parameters,
    created_at: new Date(held.createdAt).toISOString(),
    hits: held.hits,
  };
}
