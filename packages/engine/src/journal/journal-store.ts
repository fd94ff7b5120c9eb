/**
 * Where the request journal is kept: the one interface the engine writes it through and the
 * control plane reads it through. Two implement it: `Journal` (journal.ts), a ring in this
 * process's memory (the engine's default; the MSW API reads it synchronously), and the mock's
 * `RedisJournal` (its stores/redis/journal.ts), one capped stream that every mock on a Redis
 * server writes to, so that replicas behind a balancer answer with one journal. The mock's
 * stores/journal-contract suite holds both to the same cases.
 */
import type { AnsweredCall, JournalEntry, JournalPage } from './entry.ts';
import type { JournalFilter } from './match.ts';

/** The journal as one reading sees it: what a verification counts and reports on (verify.ts). */
export interface JournalView {
  /** How many entries it holds at most (0: off). */
  readonly capacity: number;
  /** Every entry held, oldest first. */
  entries(): JournalEntry[];
  /** Entries pushed out by the bound since the journal was started or cleared. */
  dropped(): number;
}

export interface JournalStore {
  readonly capacity: number;
  /**
   * Keeps one answered call, its target blanked first (`kept`, journal.ts). Never throws. A store
   * in memory keeps it at once; a store on a server gives back its write, which the engine awaits
   * before the answer goes out, so a test that reads the journal through another replica right
   * after its calls finds every one (under load, a write left behind the answer was seen missing).
   * That promise never rejects: a write that fails is the store's to count and log, never the
   * call's failure.
   */
  record(call: AnsweredCall): void | Promise<void>;
  /** The entries matching `filter`, oldest first, `limit` at most, after the entry whose seq is `cursor`. */
  page(filter: JournalFilter, limit: number, cursor?: number): JournalPage | Promise<JournalPage>;
  /** Every entry held and how many were pushed out, read together. */
  snapshot(): JournalView | Promise<JournalView>;
  /** Forgets every entry, for every reader of the store; returns how many it held. The seq goes on. */
  clear(): number | Promise<number>;
}
