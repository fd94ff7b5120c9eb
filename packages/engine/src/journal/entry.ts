/** A call as the journal shows it: journal.ts keeps them, match.ts filters them, journal-store.ts stores them. */
import type { PlanId } from '@investor-graph/contract/plans';
import type { CallNote } from '../context.ts';

/** One call as the journal keeps it (the JSON a page shows: `JournalPage.entries`). */
export interface JournalEntry {
  /** Its place in the journal, counted from its start (a page's cursor is one). */
  seq: number;
  /** When it came, by the wall clock (ISO 8601). */
  at: string;
  /** The simulated clock when it came (ISO 8601): what quotas and trials followed. */
  service_time: string;
  request_id: string;
  method: string;
  /** The path, keys blanked as the log blanks them. */
  path: string;
  /** The query's parameters, decoded, keys blanked (a cursor shortened) as the log blanks them. */
  query: Record<string, string>;
  /** The contract's operationId, or null for a path it has no operation at. */
  operation: string | null;
  /** The key's id and plan (never the key), or null when no valid key came. */
  key_id: string | null;
  plan: PlanId | null;
  /** 0: no answer, the connection was cut (an incident's reset). */
  status: number;
  /** The problem's code when the answer was one. */
  problem: string | null;
  rows_served: number;
  /** 1 when the call counted against the quota, else 0. */
  calls_counted: number;
  /** Rows charged to a prepaid balance. */
  rows_charged: number;
  duration_ms: number;
  /** The id of the incident that changed the call (`/__control/incidents`), or null. */
  incident: string | null;
}

/** What the engine hands the journal of one answered call. */
export interface AnsweredCall {
  /** The request's path and query as sent: blanked here, before anything is kept. */
  target: string;
  /** Keys of forms no pattern knows (the presets, the request's own), blanked as the log blanks them. */
  known: readonly string[];
  method: string;
  requestId: string;
  status: number;
  /** The answer's body: a documented problem example (Prefer) is answered as written, its code only in it. */
  body?: unknown;
  note: CallNote;
  /** Wall and simulated time it came (ms), and how long it took (ms). */
  at: number;
  serviceTime: number;
  durationMs: number;
}

export interface JournalPage {
  entries: JournalEntry[];
  /** Give it as `cursor` for the entries after these; null at the end of the journal as it stands. */
  next_cursor: string | null;
  /** How many entries the journal holds at most (0: off). */
  capacity: number;
  /** Entries pushed out by the bound since the journal was started or cleared. */
  dropped: number;
}
