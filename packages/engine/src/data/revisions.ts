/**
 * The versions of records that rebuilds replaced or removed, each with the time it stopped being
 * the record's: what lets a past day's dump hold a record as it was that day (dumps/day-view.ts).
 * Only rebuilds this store ran are here: the dataset's own past changes come without their earlier
 * versions. Rebuilds change a few thousand rows at most, and a row replaced is a new object (the
 * old one is never edited), so keeping the old objects costs their references.
 */
import type { ResourceName, Row } from '@investor-graph/dataset-tools';

interface Replaced {
  /** When the version stopped being the record's (ms). */
  until: number;
  /** The version; undefined when the record was not published (it was created then). */
  row: Row | undefined;
}

export class Revisions {
  private readonly byRecord = new Map<string, Replaced[]>();

  /** `row` was the record's version until a rebuild changed it at `at` (undefined: it had none). */
  keep(resource: ResourceName, key: string, row: Row | undefined, at: string): void {
    const id = `${resource}\n${key}`;
    const kept = this.byRecord.get(id);
    const replaced = { until: Date.parse(at), row };
    if (kept) kept.push(replaced);
    else this.byRecord.set(id, [replaced]);
  }

  /**
   * The record as it was at `at` when a rebuild changed it since (`row` undefined: not published
   * then); undefined when no rebuild changed it after `at`.
   */
  at(resource: ResourceName, key: string, at: number): { row: Row | undefined } | undefined {
    // Kept in the order rebuilds ran, which is time order: the first replaced after `at` was the one then.
    const first = this.byRecord.get(`${resource}\n${key}`)?.find((replaced) => replaced.until > at);
    return first && { row: first.row };
  }
}
