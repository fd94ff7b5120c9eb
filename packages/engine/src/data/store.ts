/**
 * The data the mock serves, behind one interface (`Store`) with two homes: `MemoryStore`
 * (stores/memory/dataset-store.ts: each resource as a sorted key list plus a map, for MSW and the browser) and the
 * SQLite store of the Node server (src/stores/sqlite/dataset-store.ts: millions of rows from a database
 * file). Both share what a rebuild does and how a page is cut (rebuilding-store.ts). Pages are
 * keyset seeks, so a page deep in a list costs what the first page costs.
 */
import type {
  FirmCount,
  FundCounts,
  Observation,
  PastChange,
  ResourceName,
  RoundCounts,
  Row,
} from '@investor-graph/dataset-tools';

/**
 * Counts a rollup reads (their shapes: @investor-graph/dataset-tools' rollup-counts.ts);
 * `cutoff` is a round lag's last visible announcement date (null: none).
 */
export interface RollupSource {
  rounds(cutoff: string | null): Promise<RoundCounts>;
  /** Firms by counted edges: at least every firm that can be among the `top` busiest (all of them is fine). */
  firms(cutoff: string | null, top: number): Promise<Map<string, FirmCount>>;
  funds(): Promise<FundCounts>;
}

export interface StoreInput {
  asOf: string;
  rows: Record<ResourceName, Row[]>;
  changes: PastChange[];
  pending: Observation[];
}

export interface Change {
  sequence: number;
  kind: 'create' | 'update' | 'unpublish';
  resource: ResourceName;
  key: string;
  changed_at: string;
}

export interface Page {
  rows: Row[];
  /** The key of the last row served, when there may be more. */
  nextKey: string | null;
}

/** Nested lists: which resource hangs off which parent through which field. */
export const nested = {
  listFirmPortfolio: { parent: 'firm', child: 'investment', field: 'firm_slug' },
  listFirmFilings: { parent: 'firm', child: 'filing', field: 'firm_slug' },
  listFirmFunds: { parent: 'firm', child: 'adv-fund', field: 'firm_slug' },
  listCompanyRounds: { parent: 'company', child: 'round', field: 'company_slug' },
  listCompanyInvestors: { parent: 'company', child: 'investment', field: 'company_slug' },
  listCompanyOfferings: { parent: 'company', child: 'offering', field: 'company_slug' },
} as const satisfies Record<string, { parent: ResourceName; child: ResourceName; field: string }>;

/**
 * A filter on a date the rows carry, which a store may seek on an index instead of reading every
 * row (`keep` still says which rows pass: the memory store and rebuilt rows go by it).
 */
export interface DateRange {
  column: 'announced_on';
  /** The first and last dates kept (inclusive); null: no bound. */
  from: string | null;
  to: string | null;
}

/** A resource's rows in key order as they were at one moment, as JSON texts, a batch at a time. */
export interface RowScan {
  /** Up to `max` more rows' JSON (as JSON.stringify writes them); none left when empty. */
  next(max: number): string[];
}

/** What the engine reads and changes of the data (operations.ts, statistics.ts, exports.ts, control.ts). */
export interface Store {
  /** The latest rebuild that has run (ms). */
  asOf: number;
  /** The as-of of the rows the store was opened with (ms): none of them was first seen after it. */
  readonly rowsAsOf: number;
  /** Bumped on every applied change: caches of derived data (statistics, dumps) key on it. */
  readonly version: number;
  get(resource: ResourceName, key: string): Row | undefined;
  count(resource: ResourceName): number;
  /** Every row of a resource, in no promised order (rollups, where the store keeps no counts). */
  all(resource: ResourceName): Iterable<Row>;
  /** Counts kept with the data, which the statistics read in place of every row (the SQLite store's). */
  readonly rollups?: RollupSource;
  /**
   * One page of a top-level list, after `afterKey`, keeping rows
   * that pass `keep` (which `range`, when given, narrows by date).
   */
  page(
    resource: ResourceName,
    afterKey: string | null,
    limit: number,
    keep?: (row: Row) => boolean,
    range?: DateRange,
  ): Page;
  /** One page of a nested list (a firm's portfolio, a company's rounds...). */
  nestedPage(
    index: IndexName,
    parentKey: string,
    afterKey: string | null,
    limit: number,
    keep?: (row: Row) => boolean,
  ): Page;
  /** Every row of a nested list, for small derived views (a company's latest visible round). */
  nestedRows(index: IndexName, parentKey: string): Row[];
  /** Changes at or after `since`, after sequence `afterSequence`. */
  changePage(since: string, afterSequence: number, limit: number): { items: Change[]; more: boolean };
  changeCount(): number;
  /**
   * A record as it was at `at` (ms) when a rebuild of this store changed it since (`row` undefined:
   * not published then); undefined when none did. The dataset's own past changes keep no versions.
   */
  revisionAt(resource: ResourceName, key: string, at: number): { row: Row | undefined } | undefined;
  /** Applies every pending rebuild observation due at or before `now`; returns the changes made. */
  applyDue(now: number): Change[];
  pendingCount(): number;
  /** One rebuild's view of one record: create, update (only if the content hash moved), unpublish or nothing. */
  observe(observation: Observation): Change | null;
  /**
   * A resource's rows in key order as they are now, for a dump: what later rebuilds change is not
   * in it. `pause` lets other requests in (a store that must copy a million keys first awaits it).
   */
  scan(resource: ResourceName, pause: () => Promise<boolean>): Promise<RowScan>;
}

export type IndexName = keyof typeof nested;
