/**
 * Rounds by announcement date, in key order, from indexes (issue #39: `announced_since` past every
 * round read all of them, 3 s at a million rows). A page is in key order but the filter is on the
 * date, so no one index gives both; which one is cheaper depends on how many rounds the range
 * holds, counted (up to a bound) on the date index once per range:
 * - few: their keys are read from the date index alone and sorted (at most `FEW` of them);
 * - many: keys are read in key order from an index that carries the date, skipping those outside,
 *   and since at least `FEW` of the rounds match, a page is found within (rounds / FEW) x its size.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import type { DateRange } from '@investor-graph/engine/adapter';
import { arrays, keysOf } from './merged-reads.ts';

/** The most rounds sorted by key at a call; more and the key-order walk is the cheaper. */
const FEW = 20_000;
/** Past every date the dataset has (ISO dates compare as text). */
const LAST = '9999-12-31';

export class DateSeeks {
  private readonly counted: StatementSync;
  private readonly byDate: StatementSync;
  private readonly byKey: StatementSync;
  /** Whether a range holds few rounds: the database never changes, so neither does the answer. */
  private readonly few = new LRUCache<string, boolean>({ max: 10_000 });
  private readonly fewest: number;

  /** `fewest`: the count from which the key-order walk is taken (tests set it low to reach both ways). */
  constructor(db: DatabaseSync, fewest = FEW) {
    this.fewest = fewest;
    // INDEXED BY: the planner cannot know how many rows a range holds, and a wrong guess is a scan.
    this.counted = db.prepare(
      'SELECT count(*) AS n FROM (SELECT 1 FROM round INDEXED BY round_announced WHERE announced_on >= ? AND ' +
        'announced_on <= ? LIMIT ?)',
    );
    this.byDate = arrays(
      db.prepare(
        'SELECT key FROM round INDEXED BY round_announced WHERE announced_on >= ? AND announced_on <= ? AND key ' +
          '> ? ORDER BY key LIMIT ?',
      ),
    );
    this.byKey = arrays(
      db.prepare(
        'SELECT key FROM round INDEXED BY round_key_announced WHERE announced_on >= ? AND announced_on <= ? AND ' +
          'key > ? ORDER BY key LIMIT ?',
      ),
    );
  }

  /** The keys of a range's rounds after a key, and a name for the range (its batches are remembered under it). */
  keys(range: DateRange): { scope: string; fetch: (after: string, n: number) => string[] } {
    const from = range.from ?? '';
    const to = range.to ?? LAST;
    const scope = `round\n${from}\n${to}`;
    let few = this.few.get(scope);
    if (few === undefined)
      this.few.set(scope, (few = (this.counted.get(from, to, this.fewest) as { n: number }).n < this.fewest));
    const statement = few ? this.byDate : this.byKey;
    return { scope, fetch: (after, n) => keysOf(statement.all(from, to, after, n)) };
  }
}
