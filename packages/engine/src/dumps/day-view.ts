/**
 * A day's dump is the data as of the day's generated_at (DECISIONS.md#exports-manifest-and-files):
 * the rows stored now, with every record the changes feed lists as changed since put back as it
 * was then, and no row first seen after it. A rebuild's earlier version is the store's
 * (`revisionAt`); a change the dataset came with keeps none, so such a record is as the dataset
 * holds it, unless it was created since (absent) or unpublished since (absent: no row is kept).
 * The fields made from other records are made again from the rows of that day.
 */
import { resources, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import { companyFromRounds, portfolioCount, sameCompanyDerived } from '../data/derived-fields.ts';
import { nested, type Change, type IndexName, type Store } from '../data/store.ts';

/** The records of a resource whose version at the day's time is not the one stored now: each row then (null: none). */
export type Corrections = Map<string, Row | null>;

export interface DayView {
  /** The day's generated_at (ms). */
  at: number;
  /**
   * `at` when rows the store was opened with may have been first seen after it without the
   * changes feed saying so: each row is looked at. Null: the feed's creates say which.
   */
  seenBy: number | null;
  /** Two days with the same identity hold the same data: nothing changed between them. */
  identity: string;
  /** The corrections of each resource as the store stands now, keys in order. */
  corrections(resource: ResourceName): Corrections;
}

const CHANGES_PER_READ = 1_000;

/** Whether a row was first seen by `at` (a row without the time, or with one that does not parse, was). */
export const seenBy = (row: Row, at: number): boolean =>
  typeof row.first_seen_at !== 'string' || !(Date.parse(row.first_seen_at) > at);

/** The view of the store as of `at` (ms). */
export function dayView(store: Store, at: number): DayView {
  const { first } = changesAfter(store, at);
  const filter = at < store.rowsAsOf && !feedReaches(store, at) ? at : null;
  let made: { version: number; all: Map<ResourceName, Corrections> } | null = null;
  return {
    at,
    seenBy: filter,
    // The first change after `at` (the next sequence, when none came yet) names what the day holds.
    identity: `${first}${filter === null ? '' : `@${at}`}`,
    corrections(resource) {
      if (made?.version !== store.version) made = { version: store.version, all: correctionsAt(store, at) };
      return made.all.get(resource) ?? new Map();
    },
  };
}

/**
 * Whether the changes feed reaches back to `at`: it lists every change from its first on, so then a
 * row first seen after `at` is a create in it, and no row needs looking at (a dump read back has none).
 */
function feedReaches(store: Store, at: number): boolean {
  const first = store.changePage('', 0, 1).items[0];
  return first !== undefined && Date.parse(first.changed_at) <= at;
}

/** The changes after `at` in sequence order, and the sequence of the first (the next one when none came yet). */
function changesAfter(store: Store, at: number): { changes: Change[]; first: number } {
  // A second early, then by time: a change's time may carry a fraction, which a text compares wrongly.
  const since = new Date(at - 1_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const changes: Change[] = [];
  for (let after = 0, more = true; more;) {
    const page = store.changePage(since, after, CHANGES_PER_READ);
    changes.push(...page.items.filter((change) => Date.parse(change.changed_at) > at));
    more = page.more && page.items.length > 0;
    after = page.items.at(-1)?.sequence ?? after;
  }
  return { changes, first: changes[0]?.sequence ?? store.changeCount() + 1 };
}

function correctionsAt(store: Store, at: number): Map<ResourceName, Corrections> {
  const all = new Map<ResourceName, Corrections>();
  const of = (resource: ResourceName): Corrections => all.get(resource) ?? all.set(resource, new Map()).get(resource)!;
  for (const { resource, key } of changesAfter(store, at).changes) {
    const fixes = of(resource);
    if (fixes.has(key)) continue;
    const now = store.get(resource, key) ?? null;
    const revision = store.revisionAt(resource, key, at);
    const then = revision ? (revision.row ?? null) : now;
    const kept = then && seenBy(then, at) ? then : null;
    if (kept !== now) fixes.set(key, kept);
  }
  remakeCompanies(store, at, of('round'), of('company'));
  remakeFirms(store, at, of('investment'), of('firm'));
  for (const [resource, fixes] of all) all.set(resource, new Map([...fixes].sort(([a], [b]) => (a < b ? -1 : 1))));
  return all;
}

/** A record as it was at `at`: its correction, or the row stored now if first seen by then. */
function rowThen(store: Store, resource: ResourceName, key: string, fixes: Corrections, at: number): Row | null {
  if (fixes.has(key)) return fixes.get(key)!;
  const now = store.get(resource, key);
  return now && seenBy(now, at) ? now : null;
}

/** A nested list's rows as they were at `at`: those stored now, and corrected ones under the parent then. */
function nestedThen(store: Store, index: IndexName, parent: string, fixes: Corrections, at: number): Row[] {
  const { child, field } = nested[index];
  const rows: Row[] = [];
  const keyField = resources.find((r) => r.name === child)!.key;
  for (const row of store.nestedRows(index, parent)) {
    const then = rowThen(store, child, row[keyField] as string, fixes, at);
    if (then && then[field] === parent) rows.push(then);
  }
  for (const [key, then] of fixes)
    if (then && then[field] === parent && store.get(child, key)?.[field] !== parent) rows.push(then);
  return rows;
}

/** The parents named by the corrected rows (as they are now and as they were): whose derived fields may differ. */
function parentsOf(store: Store, resource: ResourceName, fixes: Corrections, field: string): Set<string> {
  const parents = new Set<string>();
  for (const [key, then] of fixes)
    for (const row of [then, store.get(resource, key)]) if (typeof row?.[field] === 'string') parents.add(row[field]);
  return parents;
}

function remakeCompanies(store: Store, at: number, rounds: Corrections, companies: Corrections): void {
  for (const slug of parentsOf(store, 'round', rounds, 'company_slug')) {
    const company = rowThen(store, 'company', slug, companies, at);
    if (!company) continue;
    const derived = companyFromRounds(nestedThen(store, 'listCompanyRounds', slug, rounds, at));
    if (!sameCompanyDerived(company, derived)) companies.set(slug, { ...company, ...derived });
  }
}

function remakeFirms(store: Store, at: number, edges: Corrections, firms: Corrections): void {
  for (const slug of parentsOf(store, 'investment', edges, 'firm_slug')) {
    const firm = rowThen(store, 'firm', slug, firms, at);
    if (typeof firm?.portfolio_count !== 'number') continue;
    const count = portfolioCount(nestedThen(store, 'listFirmPortfolio', slug, edges, at));
    if (count !== firm.portfolio_count) firms.set(slug, { ...firm, portfolio_count: count });
  }
}
