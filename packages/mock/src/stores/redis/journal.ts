/**
 * The request journal of every mock on one Redis server (`--state redis://...`): one stream under
 * the state's prefix (layout.ts `journal`), so that a test whose calls went through a balancer to
 * several replicas reads, verifies and clears every one of them through any replica, in the order
 * the server received them. Each entry is the entry as the journal shows it (`entryOf`, the target
 * blanked before anything leaves the process), as JSON: a member added to entries reaches it as it
 * is. Its seq is its stream id (`0-N` is seq N-1: journal-scripts.ts), so a cursor is a seq here too.
 *
 * A call's entry is written behind its answer, never before it: `record` sends the XADD and
 * returns. One that fails (the server away, slow past the command timeout) is counted and logged,
 * at most twice a minute, and the call is not the worse for it. Reads and clears wait for the
 * server, and are 503 `state_unavailable` while it does not answer, as every read of shared state.
 *
 * The stream is capped with `MAXLEN ~ capacity`: Redis then trims whole nodes of entries (100 by
 * default) rather than one entry on every write, so it holds up to a node more than the capacity.
 * What a reader shows is exact all the same: the newest `capacity` seqs, counted from the stream's
 * own last id, and `dropped` from its count of entries added since the last clear.
 */
import { defaultJournalSize, entryOf, kept } from '@investor-graph/engine/adapter';
import type { AnsweredCall, JournalEntry, JournalPage } from '@investor-graph/engine/adapter';
import type { JournalStore, JournalView } from '@investor-graph/engine/adapter';
import { matches, type JournalFilter } from '@investor-graph/engine/adapter';
import { createHash } from 'node:crypto';
import type { RedisConnection } from './connection.ts';
import { names } from './layout.ts';

/** Entries read a round trip. */
const BATCH = 500;
/** How often at most a failed write is logged (real ms). */
const LOG_EVERY_MS = 30_000;

/** The journal as one reader sees it, in seqs: [oldest, next) are shown. */
interface Window {
  next: number;
  oldest: number;
  dropped: number;
}

export class RedisJournal implements JournalStore {
  readonly capacity: number;
  private readonly redis: RedisConnection;
  private readonly key: string;
  private readonly k: ReturnType<typeof names>;
  private readonly log: (line: string) => void;
  /** Entries this mock could not write, since it started. */
  private lost = 0;
  private loggedAt = -Infinity;

  constructor(redis: RedisConnection, capacity = defaultJournalSize, log = (line: string) => console.warn(line)) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw new RangeError('a journal holds 0 or more entries');
    this.redis = redis;
    this.capacity = capacity;
    this.k = names(redis.target.prefix);
    this.key = this.k.journal;
    this.log = log;
  }

  /** Calls this mock answered whose entries never reached the server. */
  get unwritten(): number {
    return this.lost;
  }

  record(call: AnsweredCall): Promise<void> {
    if (this.capacity === 0) return Promise.resolve();
    // Its seq is the id the server gives it: the rest of the entry is what is kept.
    const { seq: _byServer, ...shown } = entryOf(kept(0, call));
    return this.write(shown).catch((error: unknown) => this.failed(error));
  }

  /**
   * Writes an entry, first blanking any text of it that is a key made on another mock (which this
   * one cannot know by its text: the server keeps keys by hash), so none reaches the shared stream.
   */
  private async write(entry: Omit<JournalEntry, 'seq'>): Promise<void> {
    const texts = keyLike(entry);
    const hashes = texts.map((text) => this.k.hash(createHash('sha256').update(text).digest('hex')));
    const found = await this.redis.run<number[]>(
      'recordJournal',
      [this.key, ...hashes],
      [this.capacity, JSON.stringify(entry)],
    );
    if (found.length === 0) return;
    const keys = new Set(found.map((place) => texts[place - 1]!));
    const blanked = blankTexts(entry, keys);
    await this.redis.call((c) =>
      c.xadd(this.key, 'MAXLEN', '~', this.capacity, '0-*', 'entry', JSON.stringify(blanked)),
    );
  }

  async page(filter: JournalFilter = {}, limit = 100, cursor?: number): Promise<JournalPage> {
    const { next, oldest, dropped } = await this.window();
    const entries: JournalEntry[] = [];
    let more = false;
    // Up to the journal as it stood when asked: calls still coming are the next page's.
    let from = Math.max(oldest, cursor === undefined ? 0 : cursor + 1);
    walk: while (from < next) {
      const batch = await this.read(from, next);
      for (const entry of batch) {
        if (!matches(entry, filter)) continue;
        // A cursor only when a match is left: a walk ends on a page of its own, never on an empty one after it.
        if (entries.length === limit) {
          more = true;
          break walk;
        }
        entries.push(entry);
      }
      if (batch.length < BATCH) break;
      from = batch.at(-1)!.seq + 1;
    }
    return { entries, next_cursor: more ? String(entries.at(-1)!.seq) : null, capacity: this.capacity, dropped };
  }

  async snapshot(): Promise<JournalView> {
    const { next, oldest, dropped } = await this.window();
    const entries: JournalEntry[] = [];
    for (let from = oldest; from < next;) {
      const batch = await this.read(from, next);
      entries.push(...batch);
      if (batch.length < BATCH) break;
      from = batch.at(-1)!.seq + 1;
    }
    return { capacity: this.capacity, entries: () => entries, dropped: () => dropped };
  }

  async clear(): Promise<number> {
    const was = this.shown(await this.redis.run<[number, number, number]>('clearJournal', [this.key], []));
    return was.next - was.oldest;
  }

  private async window(): Promise<Window> {
    return this.shown(await this.redis.run<[number, number, number]>('journalWindow', [this.key], []));
  }

  /** What this mock shows of the stream: its newest `capacity` entries, the rest added since the clear dropped. */
  private shown([next, first, added]: [number, number, number]): Window {
    const oldest = Math.max(first, next - this.capacity);
    return { next, oldest, dropped: Math.max(0, added - (next - oldest)) };
  }

  /** Up to BATCH entries from seq `from` on, before seq `next`. */
  private async read(from: number, next: number): Promise<JournalEntry[]> {
    const replies = await this.redis.call((c) => c.xrange(this.key, `0-${from + 1}`, `0-${next}`, 'COUNT', BATCH));
    return replies.map(([id, fields]) => ({
      seq: Number(id.slice(id.indexOf('-') + 1)) - 1,
      ...(JSON.parse(fields[fields.indexOf('entry') + 1]!) as Omit<JournalEntry, 'seq'>),
    }));
  }

  /** Counts an entry not written, and says so now and then: never a failure of the call it journals. */
  private failed(error: unknown): void {
    this.lost++;
    const now = Date.now();
    if (now - this.loggedAt < LOG_EVERY_MS) return;
    this.loggedAt = now;
    const why = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'unknown error';
    this.log(
      `[investor-graph mock] the request journal on ${this.redis.target.shown} could not be written (${why}): ` +
        `${this.lost} answered call${this.lost === 1 ? ' is' : 's are'} missing from it so far ` +
        '(said at most every 30 s)',
    );
  }
}

/** What a key of the user's own form may be (8 to 200 characters, as the control API takes one). */
const ownForm = (text: string): boolean => text.length >= 8 && text.length <= 200 && text !== '***';

const decoded = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The texts a request put in an entry that could be a whole key: path segments, query names and values. */
function keyLike(entry: Omit<JournalEntry, 'seq'>): string[] {
  const texts = new Set(entry.path.split('/').map(decoded));
  for (const [name, value] of Object.entries(entry.query)) texts.add(name).add(value);
  return [...texts].filter(ownForm);
}

/** The entry with each of `keys` blanked where it stands (a path segment, a query name or value). */
function blankTexts(entry: Omit<JournalEntry, 'seq'>, keys: Set<string>): Omit<JournalEntry, 'seq'> {
  const blank = (text: string): string => (keys.has(text) ? '***' : text);
  const path = entry.path
    .split('/')
    .map((segment) => (keys.has(decoded(segment)) ? '***' : segment))
    .join('/');
  const query = Object.fromEntries(Object.entries(entry.query).map(([name, value]) => [blank(name), blank(value)]));
  return { ...entry, path, query };
}
