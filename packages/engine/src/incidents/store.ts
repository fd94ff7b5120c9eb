/**
 * Where the incidents in force are kept: this process's memory (incidents.ts, `Incidents`), or a
 * store every replica shares (the mock's `--state redis://...`: one table on the server, a call's
 * count taken there in one step, so N replicas never change more calls than an incident's count).
 * The engine asks it for the incident a call meets (apply.ts) and the control plane adds, lists and
 * ends them (control/incident-routes.ts); each answers at once or later, as the store can.
 */
import type { components } from '../control/generated/api.ts';
import type { IncidentKind, IncidentParameter } from './kinds.ts';

type Schemas = components['schemas'];

/** Which calls an incident changes (the control document's `IncidentMatch`): every member given must hold. */
export type IncidentMatch = Schemas['IncidentMatch'];

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

/** An incident as the control API shows it (its `Incident`: a null bound is one not given). */
export type Incident = Schemas['Incident'];

/** What an incident is matched against: the call once routed and its key known. */
export interface CallFacts {
  operation: string;
  method: string;
  path: string;
  keyId: string | null;
}

type Awaitable<T> = T | Promise<T>;

export interface IncidentStore {
  /**
   * False only while no incident can be in force: a call then pays for nothing more than reading it.
   * A shared store that cannot know without asking says true, and its `take` answers quickly.
   */
  readonly any: boolean;
  /** Starts an incident; a 409 `too_many_incidents` when MAX_INCIDENTS are in force at `serviceNow`. */
  add(input: IncidentInput, serviceNow?: number): Awaitable<Incident>;
  /**
   * Those in force at `serviceNow` (the simulated clock), oldest first, as this process holds them:
   * for a shared store, as of its last `refresh` (the control plane refreshes before it lists).
   */
  list(serviceNow: number): Incident[];
  /** Brings what this process holds up to the shared table (a store in memory has nothing to do). */
  refresh?(serviceNow: number): Promise<void>;
  /** Ends every incident; how many there were. */
  clear(): Awaitable<number>;
  /** Ends one, as it stood; undefined when no incident in force has that id. */
  end(id: string, serviceNow: number): Awaitable<Incident | undefined>;
  /** The newest incident in force that `call` matches, one of its calls taken; null when none. */
  take(call: CallFacts, serviceNow: number): Awaitable<Incident | null>;
}
