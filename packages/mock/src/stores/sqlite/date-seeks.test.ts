import { expect, test } from 'vitest';
import { collectDataset, type Row } from '@investor-graph/dataset-tools';
import { memoryDatabase } from '@investor-graph/dataset-tools/database';
import type { DateRange } from '@investor-graph/engine/adapter';
import { DateSeeks } from './date-seeks.ts';

const dataset = collectDataset({ seed: 'date-seeks', scale: 3_000, asOf: '2026-11-20T03:00:00Z' });
const rows = dataset.rows;
const db = memoryDatabase({
  manifest: {
    generator: 'test',
    seed: '',
    scale: 0,
    as_of: dataset.asOf,
    rows: {},
    total_rows: 0,
    changes: 0,
    pending: 0,
  },
  ...dataset,
});

/** Every key of a range, a page of `n` at a time, as a DateSeeks reads them. */
function walk(seeks: DateSeeks, range: DateRange, n: number): string[] {
  const { fetch } = seeks.keys(range);
  const keys: string[] = [];
  for (let batch = fetch('', n); batch.length; batch = fetch(batch.at(-1)!, n)) keys.push(...batch);
  return keys;
}

const inRange = (range: DateRange) => (r: Row) =>
  (range.from === null || (r.announced_on as string) >= range.from) &&
  (range.to === null || (r.announced_on as string) <= range.to);

test.each([
  ['past every round', { column: 'announced_on', from: '2099-01-01', to: null }],
  ['since a recent date', { column: 'announced_on', from: '2026-01-01', to: null }],
  ['up to a lag cutoff', { column: 'announced_on', from: null, to: '2026-09-06' }],
  ['since a date up to a cutoff', { column: 'announced_on', from: '2020-01-01', to: '2026-09-06' }],
] as [string, DateRange][])(
  'rounds %s come in key order, the same whether read by date or walked by key',
  (_, range) => {
    const expected = rows.round
      .filter(inRange(range))
      .map((r) => r.id as string)
      .sort();
    // A count of 1 takes the key-order walk for any range holding a round; a huge one sorts by date.
    for (const seeks of [new DateSeeks(db, 1), new DateSeeks(db, 1e9)])
      expect(walk(seeks, range, 37)).toEqual(expected);
  },
);
