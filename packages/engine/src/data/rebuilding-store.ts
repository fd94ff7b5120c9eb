/**
 * What every store shares: how a page is cut from rows in key order (`cutPage`), and what a
 * rebuild does (`RebuildingStore`: create, update when the content hash moved, unpublish, one
 * change each).
 */
import type { Observation, ResourceName, Row } from '@investor-graph/dataset-tools';
import { keepDerived, rederive, type DerivedRows } from './derived-fields.ts';
import { contentHash } from '../hash.ts';
import { Revisions } from './revisions.ts';
import type { Change, IndexName, Page } from './store.ts';

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
 * keep the pending observations and the change log; this says which change an observation makes,
 * and applies what keeps the fields computed from other records true (derived-fields.ts says which
 * records move, and to what): a round that comes, changes or goes updates its company's total and
 * last round, an edge its firm's portfolio count, each an update of its own in the feed. An
 * observation of such a record keeps them as they are.
 */
export abstract class RebuildingStore {
  version = 0;
  asOf: number;
  /** The as-of of the rows the store was opened with: none of them was first seen after it. */
  readonly rowsAsOf: number;
  /** The versions rebuilds replaced, for a past day's dump. */
  private readonly revisions = new Revisions();
  private readonly hashes = new Map<string, string>();
  protected sequence: number;
  /**
   * The next pending observation and its time as a number: every call asks whether it
   * is due (Date.parse of the same text on every call showed in a record's profile).
   */
  private due: { observation: Observation | undefined; at: number } = { observation: undefined, at: NaN };
  /** The changes applyDue is collecting, while it runs. */
  private made: Change[] | null = null;
  /** What derived-fields.ts reads of this store and how it replaces a record's derived fields. */
  private readonly derived: DerivedRows = {
    get: (resource, key) => this.get(resource, key),
    nestedRows: (index, parentKey) => this.nestedRows(index, parentKey),
    replaceDerived: (resource, key, current, fields, at) => this.replaceDerived(resource, key, current, fields, at),
  };

  constructor(asOf: string, changes: number) {
    this.asOf = Date.parse(asOf);
    this.rowsAsOf = this.asOf;
    this.sequence = changes;
  }

  abstract get(resource: ResourceName, key: string): Row | undefined;
  abstract nestedRows(index: IndexName, parentKey: string): Row[];
  protected abstract put(resource: ResourceName, key: string, row: Row, previous: Row | undefined): void;
  protected abstract delete(resource: ResourceName, key: string, row: Row): void;
  /** The next pending observation (in time order) without taking it, or undefined when none is left. */
  protected abstract peekPending(): Observation | undefined;
  protected abstract takePending(): void;
  protected abstract appendChange(change: Change): void;

  applyDue(now: number): Change[] {
    // Each observation's change, and the updates of the records computed from it (record() adds them).
    const made: Change[] = (this.made = []);
    for (let next = this.peekPending(); next && this.dueAt(next) <= now; next = this.peekPending()) {
      this.takePending();
      this.observe(next);
    }
    this.made = null;
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

  revisionAt(resource: ResourceName, key: string, at: number): { row: Row | undefined } | undefined {
    return this.revisions.at(resource, key, at);
  }

  observe(observation: Observation): Change | null {
    const { resource, key, at } = observation;
    const current = this.get(resource, key);
    if (observation.row === null) {
      if (!current) return null;
      this.hashes.delete(`${resource}:${key}`);
      this.revisions.keep(resource, key, current, at);
      this.delete(resource, key, current);
      const change = this.record('unpublish', resource, key, at);
      rederive(this.derived, resource, current, undefined, at);
      return change;
    }
    const row = keepDerived(this.derived, resource, key, observation.row, current);
    if (!current) {
      const created = { ...row, first_seen_at: at, updated_at: at };
      this.revisions.keep(resource, key, undefined, at);
      this.put(resource, key, created, undefined);
      const change = this.record('create', resource, key, at);
      rederive(this.derived, resource, undefined, created, at);
      return change;
    }
    if (this.hashOf(resource, key, current) === contentHash(row)) return null;
    this.hashes.delete(`${resource}:${key}`);
    // A new object, never the old one edited: what was served (and remembered) stays true.
    const updated = { ...row, first_seen_at: current.first_seen_at, updated_at: at };
    this.revisions.keep(resource, key, current, at);
    this.put(resource, key, updated, current);
    const change = this.record('update', resource, key, at);
    rederive(this.derived, resource, current, updated, at);
    return change;
  }

  private replaceDerived(resource: ResourceName, key: string, current: Row, fields: object, at: string): void {
    this.hashes.delete(`${resource}:${key}`);
    this.revisions.keep(resource, key, current, at);
    this.put(resource, key, { ...current, ...fields, updated_at: at }, current);
    this.record('update', resource, key, at);
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
    this.made?.push(change);
    this.version++;
    return change;
  }
}
