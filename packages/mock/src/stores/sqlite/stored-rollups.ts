/**
 * The statistics' counts of the SQLite store (issue #39): read from the tables the dataset was built
 * with (@investor-graph/dataset-tools' database-rollups.ts), so no call reads every row. Two things are
 * applied on top, each small: what a round lag leaves out (the rounds, and edges of rounds,
 * announced after the cutoff: seeks on indexes by date, a lag's worth of days), and what rebuilds
 * changed (the overlay: each row it touched taken out as the database has it and put in as it is
 * now, and the edges of a round whose visibility changed). Held to the counts of every row by
 * stored-rollups.test.ts, with lags and rebuilds, and by the bench at every scale.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import {
  addRoundCounts,
  rollupCount as count,
  type FirmCount,
  type FundCounts,
  type ResourceName,
  type RoundCounts,
  type Row,
} from '@investor-graph/dataset-tools';
import type { RollupSource } from '@investor-graph/engine/adapter';
import { roundVisible } from '@investor-graph/engine/adapter';
import { arrays, type Overlay } from './merged-reads.ts';

type Read = (resource: ResourceName, key: string) => Row | undefined;

/** Busiest firms read at a time while looking for the top ones. */
const FIRM_BATCH = 256;

/** What a round lag takes from the stored counts: the database never changes, so it depends on the cutoff alone. */
interface Lagged {
  rounds: RoundCounts;
  firms: Map<string, FirmCount>;
}

export class StoredRollups implements RollupSource {
  private readonly statements: Record<
    | 'years'
    | 'stageAmounts'
    | 'laterRounds'
    | 'laterEdges'
    | 'edgesOfRound'
    | 'edgesOfMissingRound'
    | 'busiest'
    | 'firm'
    | 'vintages'
    | 'fundReturns',
    StatementSync
  >;
  private readonly overlay: Map<ResourceName, Overlay>;
  private readonly base: Read;
  private readonly current: Read;
  private readonly firmBatch: number;
  /**
   * The lag's part by cutoff (a trial's moves once a day): read again after every rebuild, it was
   * most of a trial's first call at ten million rows (54,000 edges), and a rebuild changes the overlay only.
   */
  private readonly lagged = new LRUCache<string, Lagged>({ max: 4 });

  /**
   * `base` reads a row as the database has it, `current` as it is now (the overlay's when it has
   * it); `firmBatch`: busiest firms read at a time (tests set it low to reach the walk's end).
   */
  constructor(
    db: DatabaseSync,
    overlay: Map<ResourceName, Overlay>,
    base: Read,
    current: Read,
    firmBatch = FIRM_BATCH,
  ) {
    this.firmBatch = firmBatch;
    this.overlay = overlay;
    this.base = base;
    this.current = current;
    const s = (sql: string) => arrays(db.prepare(sql));
    this.statements = {
      years: s('SELECT year, rounds, amount_usd FROM rollup_year'),
      stageAmounts: s('SELECT stage, amount_usd, rounds FROM rollup_stage_amount'),
      laterRounds: s('SELECT announced_on, stage, amount_usd FROM round WHERE announced_on > ?'),
      laterEdges: s('SELECT firm_slug, role FROM investment WHERE round_on > ?'),
      // By the round's date on the index, then its id on the rows: only when a rebuild changes a round's visibility.
      edgesOfRound: s('SELECT firm_slug, role, key FROM investment WHERE round_on = ? AND round_id = ?'),
      edgesOfMissingRound: s('SELECT firm_slug, role, key FROM investment WHERE round_on IS NULL AND round_id = ?'),
      busiest: s(
        'SELECT firm_slug, firm_name, investments, leads FROM rollup_firm ORDER BY investments DESC, leads DESC, ' +
          'firm_slug LIMIT ? OFFSET ?',
      ),
      firm: s('SELECT firm_name, investments, leads FROM rollup_firm WHERE firm_slug = ?'),
      vintages: s('SELECT vintage_year, funds FROM rollup_vintage'),
      fundReturns: s('SELECT vintage_year, field, value, funds FROM rollup_fund_return'),
    };
  }

  async rounds(cutoff: string | null): Promise<RoundCounts> {
    return this.countRounds(cutoff);
  }

  async firms(cutoff: string | null, top: number): Promise<Map<string, FirmCount>> {
    return this.countFirms(cutoff, top);
  }

  async funds(): Promise<FundCounts> {
    return this.countFunds();
  }

  private countRounds(cutoff: string | null): RoundCounts {
    const counts: RoundCounts = { years: new Map(), stages: new Map() };
    for (const [year, rounds, amount] of this.statements.years.all() as unknown as [number, number, number][])
      counts.years.set(year, { rounds, amount });
    for (const [stage, amount, n] of this.statements.stageAmounts.all() as unknown as [
      string,
      number | null,
      number,
    ][]) {
      let amounts = counts.stages.get(stage);
      if (!amounts) counts.stages.set(stage, (amounts = new Map<number | null, number>()));
      amounts.set(amount, n);
    }
    if (cutoff !== null) addRoundCounts(counts, this.lag(cutoff).rounds);
    // Rows the lag already took out are not taken out again.
    const visible = roundVisible(cutoff);
    for (const [key, now] of this.overlay.get('round')?.rows ?? []) {
      const was = this.base('round', key);
      if (was && visible(was)) count.round(counts, was, -1);
      if (now && visible(now)) count.round(counts, now, 1);
    }
    return counts;
  }

  private countFirms(cutoff: string | null, top: number): Map<string, FirmCount> {
    const delta = this.firmChanges(cutoff);
    const firms = new Map<string, FirmCount>();
    const adjusted = (slug: string, name: string, investments: number, leads: number): FirmCount => {
      const d = delta.get(slug);
      return { name, investments: investments + (d?.investments ?? 0), leads: leads + (d?.leads ?? 0) };
    };
    // A firm the changes gave more to may pass any other: each is judged on its own.
    for (const [slug, d] of delta) {
      if (d.investments <= 0 && d.leads <= 0) continue;
      const stored = this.statements.firm.get(slug) as unknown as [string, number, number] | undefined;
      firms.set(slug, adjusted(slug, stored?.[0] ?? d.name, stored?.[1] ?? 0, stored?.[2] ?? 0));
    }
    // The others only lose: walk down the busiest until a firm's stored count is below the
    // top'th count found, which neither it nor any after it can reach.
    for (let offset = 0; ; offset += this.firmBatch) {
      const threshold = nthLargest(
        [...firms.values()].map((f) => f.investments),
        top,
      );
      const batch = this.statements.busiest.all(this.firmBatch, offset) as unknown as [
        string,
        string,
        number,
        number,
      ][];
      for (const [slug, name, investments, leads] of batch) {
        if (investments < threshold) return firms;
        firms.set(slug, adjusted(slug, name, investments, leads));
      }
      if (batch.length < this.firmBatch) return firms;
    }
  }

  /**
   * What the stored edge counts lack for this cutoff and the rebuilds so far, by firm (a count taken away is negative).
   */
  private firmChanges(cutoff: string | null): Map<string, FirmCount> {
    const delta = new Map<string, FirmCount>();
    if (cutoff !== null) for (const [slug, f] of this.lag(cutoff).firms) delta.set(slug, { ...f });
    const edge = (slug: string, name: string, role: string, by: 1 | -1) =>
      count.edge(delta, slug, name, role === 'lead', by);
    const visible = roundVisible(cutoff);
    const roundSeen = (read: Read, id: unknown): boolean => {
      if (id === null) return true;
      const round = read('round', id as string);
      return !!round && visible(round);
    };
    const edges = this.overlay.get('investment')?.rows;
    for (const [key, now] of edges ?? []) {
      const was = this.base('investment', key);
      if (was && roundSeen(this.base, was.round_id))
        edge(was.firm_slug as string, was.firm_name as string, was.role as string, -1);
      if (now && roundSeen(this.current, now.round_id))
        edge(now.firm_slug as string, now.firm_name as string, now.role as string, 1);
    }
    // A round a rebuild published, unpublished or moved across the cutoff brings or takes the
    // database's edges naming it (those a rebuild changed too are counted above).
    for (const id of this.overlay.get('round')?.rows.keys() ?? []) {
      const before = roundSeen(this.base, id);
      const after = roundSeen(this.current, id);
      if (before === after) continue;
      const was = this.base('round', id);
      const named = (was
        ? this.statements.edgesOfRound.all(was.announced_on as string, id)
        : this.statements.edgesOfMissingRound.all(id)) as unknown as [string, string, string][];
      for (const [slug, role, key] of named) {
        if (!edges?.has(key))
          edge(slug, after ? (this.base('investment', key)!.firm_name as string) : '', role, after ? 1 : -1);
      }
    }
    return delta;
  }

  /** The rounds announced after the cutoff and the edges naming them, as counts taken away. */
  private lag(cutoff: string): Lagged {
    let lagged = this.lagged.get(cutoff);
    if (lagged) return lagged;
    lagged = { rounds: { years: new Map(), stages: new Map() }, firms: new Map() };
    for (const [announced_on, stage, amount_usd] of this.statements.laterRounds.all(cutoff) as unknown as [
      string,
      string,
      number | null,
    ][])
      count.round(lagged.rounds, { announced_on, stage, amount_usd }, -1);
    for (const [slug, role] of this.statements.laterEdges.all(cutoff) as unknown as [string, string][])
      count.edge(lagged.firms, slug, '', role === 'lead', -1);
    this.lagged.set(cutoff, lagged);
    return lagged;
  }

  private countFunds(): FundCounts {
    const counts: FundCounts = new Map();
    for (const [vintage, funds] of this.statements.vintages.all() as unknown as [number, number][])
      counts.set(vintage, { funds, values: { irr: new Map(), tvpi: new Map(), dpi: new Map() } });
    for (const [vintage, field, value, n] of this.statements.fundReturns.all() as unknown as [
      number,
      'irr' | 'tvpi' | 'dpi',
      number,
      number,
    ][])
      counts.get(vintage)!.values[field].set(value, n);
    for (const [key, now] of this.overlay.get('fund')?.rows ?? []) {
      const was = this.base('fund', key);
      if (was) count.fund(counts, was, -1);
      if (now) count.fund(counts, now, 1);
    }
    return counts;
  }
}

/** The n-th largest of the values, or -Infinity when there are fewer. */
function nthLargest(values: number[], n: number): number {
  if (values.length < n) return -Infinity;
  return values.sort((a, b) => b - a)[n - 1]!;
}
