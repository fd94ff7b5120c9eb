/** A call as the journal shows it: journal.ts keeps them, match.ts filters them, journal-store.ts stores them. */
import type { CallNote } from '../context.ts';
import type { components } from '../control/generated/api.ts';

type Schemas = components['schemas'];

/** One call as the journal keeps it: the control document's `JournalEntry`, whose descriptions say each member. */
export type JournalEntry = Schemas['JournalEntry'];

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

/** A page of the journal; its `next_cursor` is null at the end of the journal as it stands. */
export type JournalPage = Schemas['JournalPage'];
