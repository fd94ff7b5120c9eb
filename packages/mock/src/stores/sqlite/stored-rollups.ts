/**
 * The statistics' counts of the SQLite store (issue #39): read from the tables the dataset was built
 * with (@investor-graph/dataset-tools' database-rollups.ts), so no call reads every row. Two things are
 * applied on top, each small: what a round lag leaves out (the rounds, and edges of rounds,
 * announced after the cutoff: seeks on indexes by date, a lag's worth of days), and what rebuilds
 * changed (the overlay: each row it touched taken out as the database has it and put in as it is
 * now, and the edges of a round whose visibility changed). The busiest firms, whose order those
 * changes may move, are found apart (stored-firm-counts.ts). Held to the counts of every row by
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
} from '@investor-graph/dataset-tools';
import type { RollupSource } from '@investor-graph/engine/adapter';
import { roundVisible } from '@investor-graph/engine/adapter';
import { arrays, type Overlay } from './merged-reads.ts';
import { StoredFirmCounts, type Read } from './stored-firm-counts.ts';

/** What a round lag takes from the stored counts: the database never changes, so it depends on the cutoff alone. */
interface Lagged {
  rounds: RoundCounts;
  firms: Map<string, FirmCount>;
}

export class StoredRollups implements RollupSource {
  private readonly statements: Record<
    'years' | 'stageAmounts' | 'laterRounds' | 'laterEdges' | 'vintages' | 'fundReturns',
    StatementSync
  >;
  private readonly overlay: Map<ResourceName, Overlay>;
  private readonly base: Read;
  /** The busiest firms: stored-firm-counts.ts. */
  private readonly busiestFirms: StoredFirmCounts;
  /**
   * The lag's part by cutoff (a trial's moves once a day): read again after every rebuild, it was
   * most of a trial's first call at ten million rows (54,000 edges), and a rebuild changes the overlay only.
   */
  private readonly lagged = new LRUCache<string, Lagged>({ max: 4 });

  /**
   * `base` reads a row as the database has it, `current` as it is now (the overlay's when it has
   * it); `firmBatch`: busiest firms read at a time (tests set it low to reach the walk's end).
   */
  constructor(db: DatabaseSync, overlay: Map<ResourceName, Overlay>, base: Read, current: Read, firmBatch?: number) {
    this.overlay = overlay;
    this.base = base;
    this.busiestFirms = new StoredFirmCounts(db, overlay, base, current, firmBatch);
    const s = (sql: string) => arrays(db.prepare(sql));
    this.statements = {
      years: s('SELECT year, rounds, amount_usd FROM rollup_year'),
      stageAmounts: s('SELECT stage, amount_usd, rounds FROM rollup_stage_amount'),
      laterRounds: s('SELECT announced_on, stage, amount_usd FROM round WHERE announced_on > ?'),
      laterEdges: s('SELECT firm_slug, role FROM investment WHERE round_on > ?'),
      vintages: s('SELECT vintage_year, funds FROM rollup_vintage'),
      fundReturns: s('SELECT vintage_year, field, value, funds FROM rollup_fund_return'),
    };
  }

  async rounds(cutoff: string | null): Promise<RoundCounts> {
    return this.countRounds(cutoff);
  }

  async firms(cutoff: string | null, top: number): Promise<Map<string, FirmCount>> {
    return this.busiestFirms.top(cutoff, top, cutoff === null ? undefined : this.lag(cutoff).firms);
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
