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
import type { IncidentKind, IncidentParameter } from './kinds.ts';

/** Which calls an incident changes: every member given must hold (none given: every call). */
export interface IncidentMatch {
  /** The contract's operationId. */
  operation?: string;
  /** `*` matches any run of characters, as the journal's filter does. */
  path?: string;
  /** In any case. */
  method?: string;
  /** The key's id, never the key. */
  key_id?: string;
}

/** An incident as asked for (parse.ts reads it from a control call's body). */
export interface IncidentInput {
  kind: IncidentKind;
  match: IncidentMatch;
  calls?: number;
  /** Wall-clock milliseconds from now. */
  durationMs?: number;
  /** A time on the simulated clock (ms). */
  until?: number;
  parameters: Partial<Record<IncidentParameter, number>>;
}

/** An incident as the control API shows it. */
export interface Incident extends Partial<Record<IncidentParameter, number>> {
  id: string;
  kind: IncidentKind;
  match: IncidentMatch;
  /** Matching calls it will still change; null: no count given. */
  calls_left: number | null;
  /** When it ends by the wall clock; null: no duration given. */
  ends_at: string | null;
  /** When it ends by the simulated clock; null: none given. */
  until: string | null;
  created_at: string;
  /** Calls it has changed. */
  hits: number;
}

/** What an incident is matched against: the call once routed and its key known. */
export interface CallFacts {
  operation: string;
  method: string;
  path: string;
  keyId: string | null;
}

interface Held {
  id: string;
  input: IncidentInput;
  createdAt: number;
  endsAt: number | null;
  callsLeft: number | null;
  hits: number;
}

export class Incidents {
  /** Oldest first. */
  private held: Held[] = [];

  private readonly wallNow: () => number;

  constructor(wallNow: () => number = Date.now) {
    this.wallNow = wallNow;
  }

  /** Whether any incident is held: a call pays for nothing more than this while none is. */
  get any(): boolean {
    return this.held.length > 0;
  }

  add(input: IncidentInput): Incident {
    const now = this.wallNow();
    const held: Held = {
      id: `inc_${randomToken(12, '0123456789abcdef')}`,
      input,
      createdAt: now,
      endsAt: input.durationMs === undefined ? null : now + input.durationMs,
      callsLeft: input.calls ?? null,
      hits: 0,
    };
    this.held.push(held);
    return shown(held);
  }

  /** Those in force at `serviceNow` (the simulated clock), oldest first. */
  list(serviceNow: number): Incident[] {
    this.prune(serviceNow);
    return this.held.map(shown);
  }

  /** Ends every incident; how many there were. */
  clear(): number {
    const count = this.held.length;
    this.held = [];
    return count;
  }

  /** Ends one, as it stood; undefined when no incident in force has that id. */
  end(id: string, serviceNow: number): Incident | undefined {
    this.prune(serviceNow);
    const at = this.held.findIndex((h) => h.id === id);
    if (at === -1) return undefined;
    const [ended] = this.held.splice(at, 1);
    return shown(ended!);
  }

  /** The newest incident in force that `call` matches, one of its calls taken; null when none. */
  take(call: CallFacts, serviceNow: number): Incident | null {
    if (this.held.length === 0) return null;
    this.prune(serviceNow);
    for (let i = this.held.length - 1; i >= 0; i--) {
      const held = this.held[i]!;
      if (!matchesCall(held.input.match, call)) continue;
      held.hits++;
      if (held.callsLeft !== null && --held.callsLeft === 0) this.held.splice(i, 1);
      return shown(held);
    }
    return null;
  }

  private prune(serviceNow: number): void {
    const wall = this.wallNow();
    this.held = this.held.filter(
      (h) => (h.endsAt === null || wall < h.endsAt) && (h.input.until === undefined || serviceNow < h.input.until),
    );
  }
}

export function matchesCall(match: IncidentMatch, call: CallFacts): boolean {
  return (
    (match.operation === undefined || match.operation === call.operation) &&
    (match.method === undefined || match.method.toUpperCase() === call.method) &&
    (match.path === undefined || globMatches(match.path, call.path)) &&
    (match.key_id === undefined || match.key_id === call.keyId)
  );
}

function shown(held: Held): Incident {
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
