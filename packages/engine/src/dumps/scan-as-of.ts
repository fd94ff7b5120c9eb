/**
 * A resource's rows as a day's dump holds them (day-view.ts), from the rows stored now: the
 * corrected records in their version of that day, and no row first seen after it. Used where the
 * engine writes a file itself; the Node server's worker merges the same corrections in (its
 * src/dumps/disk/).
 */
import type { Row } from '@investor-graph/dataset-tools';
import type { RowScan } from '../data/store.ts';
import { seenBy, type Corrections } from './day-view.ts';

/** Rows read from the scan at a time. */
const READ = 256;

/** `scan` (the rows stored now, in key order of `key`) as of the day: untouched when nothing is to change. */
export function scanAsOf(scan: RowScan, key: string, fixes: Corrections, firstSeenBy: number | null): RowScan {
  if (fixes.size === 0 && firstSeenBy === null) return scan;
  const lines = merged(scan, key, [...fixes], firstSeenBy);
  return {
    next(max) {
      const out: string[] = [];
      while (out.length < max) {
        const line = lines.next();
        if (line.done) break;
        out.push(line.value);
      }
      return out;
    },
  };
}

function* merged(
  scan: RowScan,
  key: string,
  fixes: [string, Row | null][],
  firstSeenBy: number | null,
): Generator<string, void, undefined> {
  let f = 0;
  for (let texts = scan.next(READ); texts.length; texts = scan.next(READ)) {
    for (const text of texts) {
      const row = JSON.parse(text) as Row;
      const at = row[key] as string;
      // The corrected records before this one, then this one's correction in its place.
      for (; f < fixes.length && fixes[f]![0] < at; f++) if (fixes[f]![1]) yield JSON.stringify(fixes[f]![1]);
      if (f < fixes.length && fixes[f]![0] === at) {
        const then = fixes[f++]![1];
        if (then) yield JSON.stringify(then);
      } else if (firstSeenBy === null || seenBy(row, firstSeenBy)) yield text;
    }
  }
  for (; f < fixes.length; f++) if (fixes[f]![1]) yield JSON.stringify(fixes[f]![1]);
}
