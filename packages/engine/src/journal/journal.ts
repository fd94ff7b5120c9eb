/**
 * The request journal: the last N calls of the data API as a test asks about them afterwards
 * ("what did my app call, with which key, and what did it get?"), as WireMock's request journal
 * does. The engine writes one entry per call once it is answered (engine.ts), from what the steps
 * noted (`CallNote`); the control plane (control/journal-routes.ts) and the MSW API read it. The
 * request target is blanked exactly as the log blanks it (`redactPath` with the same known keys)
 * before it is kept: no key is ever held here, so no page or report made of it can show one.
 * `Journal` keeps it in this process's memory; a store on a server keeps the same entries
 * (journal-store.ts).
 */
import { iso } from '../answer.ts';
import { redactPath } from '@investor-graph/cli/redact';
import type { AnsweredCall, JournalEntry, JournalPage } from './entry.ts';
import type { JournalStore, JournalView } from './journal-store.ts';

export type { AnsweredCall, JournalEntry, JournalPage } from './entry.ts';
import { matches, type JournalFilter } from './match.ts';

/** How many calls a journal holds unless told: a test file's calls, with room to spare. */
export const defaultJournalSize = 1_000;
/** The most entries one page of the journal gives. */
export const maxJournalPage = 1_000;

/** A problem's code read off its body (JSON text), when the steps did not note one. */
const problemIn = (status: number, body: unknown): string | null =>
  status >= 400 && typeof body === 'string' ? (/"code"\s*:\s*"([a-z_]+)"/.exec(body)?.[1] ?? null) : null;

/**
 * A call as recorded: its target already blanked, the rest as the engine had it. Made an entry
 * (ISO times, the query parsed) when first read, so a call pays only for the blanking.
 */
export interface Kept {
  seq: number;
  call: Omit<AnsweredCall, 'known' | 'body'>;
  problem: string | null;
  entry?: JournalEntry;
}

/** A call as kept at `seq`: blanked now, with the keys known now (the request's own among them). */
export function kept(seq: number, call: AnsweredCall): Kept {
  const { known: _blanked, body, ...rest } = call;
  return {
    seq,
    call: { ...rest, target: redactPath(call.target, call.known) },
    problem: call.note.problem ?? problemIn(call.status, body),
  };
}

/**
 * The entry a kept call shows, made once: what every journal store shows (a store on a server
 * keeps this, as JSON, so every member of an entry reaches it without more work).
 */
export function entryOf(kept: Kept): JournalEntry {
  if (kept.entry) return kept.entry;
  const { call, seq } = kept;
  const { note, target } = call;
  const at = target.indexOf('?');
  // Frozen: every page hands out the same entry, which no reader may change for the next.
  return (kept.entry = Object.freeze({
    seq,
    at: new Date(call.at).toISOString(),
    service_time: iso(call.serviceTime),
    request_id: call.requestId,
    method: call.method,
    path: at === -1 ? target : target.slice(0, at),
    // Decoded after blanking: a piece redact let through decodes to nothing key-like (redact.ts).
    query: Object.freeze(at === -1 ? {} : Object.fromEntries(new URLSearchParams(target.slice(at + 1)))),
    operation: note.operation ?? null,
    key_id: note.keyId ?? null,
    plan: note.plan ?? null,
    status: call.status,
    problem: kept.problem,
    rows_served: note.rowsServed ?? 0,
    calls_counted: note.counted ? 1 : 0,
    rows_charged: note.rowsCharged ?? 0,
    duration_ms: Math.round(call.durationMs * 100) / 100,
    incident: note.incident ?? null,
  }));
}

/** A bounded ring of entries in this process's memory, oldest first; 0 entries keeps none. */
export class Journal implements JournalStore, JournalView {
  readonly capacity: number;
  private readonly ring: (Kept | undefined)[];
  /** The seq the next entry gets, and the first one still counted (entries before it were cleared). */
  private next = 0;
  private first = 0;

  constructor(capacity = defaultJournalSize) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw new RangeError('a journal holds 0 or more entries');
    this.capacity = capacity;
    this.ring = new Array<Kept | undefined>(capacity);
  }

  /** Keeps one answered call, pushing out the oldest when full. */
  record(call: AnsweredCall): void {
    if (this.capacity === 0) return;
    const seq = this.next++;
    this.ring[seq % this.capacity] = kept(seq, call);
  }

  /** Every entry held, oldest first. */
  entries(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let seq = this.oldest(); seq < this.next; seq++) out.push(entryOf(this.ring[seq % this.capacity]!));
    return out;
  }

  /** The entries matching `filter`, oldest first, `limit` at most, after the entry `cursor` names. */
  page(filter: JournalFilter = {}, limit = 100, cursor?: number): JournalPage {
    const entries: JournalEntry[] = [];
    let seq = Math.max(this.oldest(), cursor === undefined ? 0 : cursor + 1);
    for (; seq < this.next && entries.length < limit; seq++) {
      const entry = entryOf(this.ring[seq % this.capacity]!);
      if (matches(entry, filter)) entries.push(entry);
    }
    // A cursor only when a match is left: a walk ends on a page of its own, never on an empty one after it.
    let more = false;
    for (let rest = seq; rest < this.next && !more; rest++)
      more = matches(entryOf(this.ring[rest % this.capacity]!), filter);
    return {
      entries,
      next_cursor: more ? String(entries.at(-1)!.seq) : null,
      capacity: this.capacity,
      dropped: this.dropped(),
    };
  }

  /** Entries pushed out by the bound since the start or the last clear. */
  dropped(): number {
    return this.oldest() - this.first;
  }

  /** Every entry and how many were pushed out, as they stand: the ring itself, read at once. */
  snapshot(): this {
    return this;
  }

  /** Forgets every entry (returns how many it held); the seq goes on, so a cursor from before names nothing held. */
  clear(): number {
    const held = this.next - this.oldest();
    this.first = this.next;
    return held;
  }

  private oldest(): number {
    return Math.max(this.first, this.next - this.capacity);
  }
}
