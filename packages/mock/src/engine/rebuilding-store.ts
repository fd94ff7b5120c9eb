/**
 * What every store shares: how a page is cut from rows in key order (`cutPage`), and what a
 * rebuild does (`RebuildingStore`: create, update when the content hash moved, unpublish, one
 * change each).
 */
import type { Observation, ResourceName, Row } from '@investor-graph/fixtures';
import { contentHash } from './hash.ts';
import type { Change, Page } from './store.ts';

/**
 * Cuts a page from rows in key order (`next` gives the next one, or undefined at the end): `limit`
 * rows that pass `keep`, then a look ahead for one more kept row, so that the last page says
 * next_cursor: null exactly at the end.
 */
export function cutPage(next: () => [string, Row] | undefined, limit: number, keep?: (row: Row) => boolean): Page {
  const rows: Row[] = [];
  let lastKey: string | null = null;
  let entry: [string, Row] | undefined;
  while (rows.length < limit && (entry = next())) {
    if (!keep || keep(entry[1])) {
      rows.push(entry[1]);
      lastKey = entry[0];
    }
  }
  let more = false;
  if (rows.length === limit) {
    while ((entry = next())) {
      if (!keep || keep(entry[1])) {
        more = true;
        break;
      }
    }
  }
  return { rows, nextKey: more ? lastKey : null };
}

/**
 * What a rebuild does, on any store: the store says how to read, put and remove a row and how to
 * keep the pending observations and the change log; this says which change an observation makes.
 */
export abstract class RebuildingStore {
  version = 0;
  asOf: number;
  private readonly hashes = new Map<string, string>();
  protected sequence: number;
  /** The next pending observation and its time as a number: every call asks whether it is due (Date.parse of the same text on every call showed in a record's profile). */
  private due: { observation: Observation | undefined; at: number } = { observation: undefined, at: NaN };

  constructor(asOf: string, changes: number) {
    this.asOf = Date.parse(asOf);
    this.sequence = changes;
  }

  abstract get(resource: ResourceName, key: string): Row | undefined;
  protected abstract put(resource: ResourceName, key: string, row: Row, previous: Row | undefined): void;
  protected abstract delete(resource: ResourceName, key: string, row: Row): void;
  /** The next pending observation (in time order) without taking it, or undefined when none is left. */
  protected abstract peekPending(): Observation | undefined;
  protected abstract takePending(): void;
  protected abstract appendChange(change: Change): void;

  applyDue(now: number): Change[] {
    const made: Change[] = [];
    for (let next = this.peekPending(); next && this.dueAt(next) <= now; next = this.peekPending()) {
      this.takePending();
      const change = this.observe(next);
      if (change) made.push(change);
    }
    // as_of is the latest rebuild that has run: rebuilds run on the hour.
    const lastRebuild = Math.floor(now / 3_600_000) * 3_600_000;
    if (lastRebuild > this.asOf) this.asOf = lastRebuild;
    return made;
  }

  /** The time of an observation (the next one's, asked again on every call) as a number, parsed once. */
  private dueAt(observation: Observation): number {
    if (this.due.observation !== observation) this.due = { observation, at: Date.parse(observation.at) };
    return this.due.at;
  }

  changeCount(): number {
    return this.sequence;
  }

  observe(observation: Observation): Change | null {
    const { resource, key, at } = observation;
    const current = this.get(resource, key);
    if (observation.row === null) {
      if (!current) return null;
      this.hashes.delete(`${resource}:${key}`);
      this.delete(resource, key, current);
      return this.record('unpublish', resource, key, at);
    }
    if (!current) {
      this.put(resource, key, { ...observation.row, first_seen_at: at, updated_at: at }, undefined);
      return this.record('create', resource, key, at);
    }
    if (this.hashOf(resource, key, current) === contentHash(observation.row)) return null;
    this.hashes.delete(`${resource}:${key}`);
    // A new object, never the old one edited: what was served (and remembered) stays true.
    this.put(resource, key, { ...observation.row, first_seen_at: current.first_seen_at, updated_at: at }, current);
    return this.record('update', resource, key, at);
  }

  private hashOf(resource: ResourceName, key: string, row: Row): string {
    const id = `${resource}:${key}`;
    let hash = this.hashes.get(id);
    if (!hash) this.hashes.set(id, (hash = contentHash(row)));
    return hash;
  }

  private record(kind: Change['kind'], resource: ResourceName, key: string, at: string): Change {
    const change: Change = { sequence: ++this.sequence, kind, resource, key, changed_at: at };
    this.appendChange(change);
    this.version++;
    return change;
  }
}
