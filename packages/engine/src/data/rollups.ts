/**
 * The rollups, one entry each, named as the contract names them (the getStatistic path parameter's
 * enum): each reads counts from a `RollupSource` and writes the rows from them. Two sources give
 * the same counts: the SQLite store's (src/stores/sqlite/stored-rollups.ts: counts stored with the dataset,
 * what a round lag leaves out sought by date, what rebuilds changed applied from the overlay), and
 * `scanningSource` here, which counts every row it is fed (the memory store's). The rows are written
 * from the counts by the same functions either way; both are held to the rollups as computed before
 * the counts (rollups-reference.test-support.ts).
 */
import { parameterEnum, resolveRef } from '@investor-graph/contract/document';
import {
  rollupCount as count,
  type FirmCount,
  type FundCounts,
  type ResourceName,
  type RoundCounts,
  type Row,
} from '@investor-graph/dataset-tools';
import { roundVisible } from './round-lag.ts';
import type { RollupSource } from './store.ts';

export const statisticNames: readonly string[] = parameterEnum('getStatistic', 'name');

export type { RollupSource } from './store.ts';

/** Stages in the contract's order (the Round schema's enum), the order rounds-by-stage lists them in. */
const stageOrder = (resolveRef({ $ref: '#/components/schemas/Round' }) as { properties: { stage: { enum: string[] } } })
  .properties.stage.enum;

/** The median of counted values (value -> how many): the middle one, or the mean of the middle two. */
function median(counted: Map<number, number>): number | null {
  const values = [...counted.keys()].sort((a, b) => a - b);
  let total = 0;
  for (const v of values) total += counted.get(v)!;
  if (!total) return null;
  const nth = (i: number): number => {
    for (const v of values) if ((i -= counted.get(v)!) < 0) return v;
    throw new Error('unreachable: index past the counted values');
  };
  const mid = total >> 1;
  return total % 2 ? nth(mid) : (nth(mid - 1) + nth(mid)) / 2;
}

const round3 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000);

const TOP_INVESTORS = 25;

const rollups = {
  async 'rounds-by-year'(source: RollupSource, cutoff: string | null): Promise<Row[]> {
    const { years } = await source.rounds(cutoff);
    return [...years]
      .filter(([, y]) => y.rounds > 0)
      .sort((a, b) => a[0] - b[0])
      .map(([year, y]) => ({ year, rounds: y.rounds, amount_usd: y.amount }));
  },
  async 'rounds-by-stage'(source: RollupSource, cutoff: string | null): Promise<Row[]> {
    const { stages } = await source.rounds(cutoff);
    return stageOrder.flatMap((stage) => {
      const amounts = stages.get(stage);
      let rounds = 0,
        amount = 0;
      const known = new Map<number, number>();
      for (const [value, n] of amounts ?? []) {
        rounds += n;
        if (value !== null && n > 0) {
          amount += value * n;
          known.set(value, n);
        }
      }
      if (!rounds) return [];
      const med = median(known);
      return [{ stage, rounds, amount_usd: amount, median_amount_usd: med === null ? null : Math.round(med) }];
    });
  },
  async 'most-active-investors'(source: RollupSource, cutoff: string | null): Promise<Row[]> {
    const firms = await source.firms(cutoff, TOP_INVESTORS);
    return [...firms]
      .filter(([, f]) => f.investments > 0)
      .sort((a, b) => b[1].investments - a[1].investments || b[1].leads - a[1].leads || a[0].localeCompare(b[0]))
      .slice(0, TOP_INVESTORS)
      .map(([slug, f], i) => ({
        rank: i + 1,
        firm_slug: slug,
        firm_name: f.name,
        investments: f.investments,
        leads: f.leads,
      }));
  },
  async 'fund-returns-by-vintage'(source: RollupSource): Promise<Row[]> {
    const vintages = await source.funds();
    return [...vintages]
      .filter(([, v]) => v.funds > 0)
      .sort((a, b) => a[0] - b[0])
      .map(([vintage_year, v]) => ({
        vintage_year,
        funds: v.funds,
        median_irr: round3(median(v.values.irr)),
        median_tvpi: round3(median(v.values.tvpi)),
        median_dpi: round3(median(v.values.dpi)),
      }));
  },
} satisfies Record<string, (source: RollupSource, cutoff: string | null) => Promise<Row[]>>;

export type StatisticName = keyof typeof rollups;

const missing = statisticNames.filter((n) => !Object.hasOwn(rollups, n));
const extra = Object.keys(rollups).filter((n) => !statisticNames.includes(n));
if (missing.length || extra.length)
  throw new Error(
    `[investor-graph] the contract's statistics and the mock's rollups differ: ` +
      [...missing.map((n) => `no rollup for ${n}`), ...extra.map((n) => `${n} is not in the contract`)].join('; '),
  );

export const rollup = (name: StatisticName, source: RollupSource, cutoff: string | null): Promise<Row[]> =>
  rollups[name](source, cutoff);

/**
 * Counts made by reading every row fed (`feed` may pause between slices): what the memory store
 * answers with, and the reference for the stored counts. An edge counts when it names no round or a
 * round the key may see (one not published is not).
 */
export function scanningSource(
  feed: (resource: ResourceName, each: (row: Row) => void) => Promise<void>,
): RollupSource {
  return {
    async rounds(cutoff) {
      const counts: RoundCounts = { years: new Map(), stages: new Map() };
      const visible = roundVisible(cutoff);
      await feed('round', (r) => visible(r) && count.round(counts, r, 1));
      return counts;
    },
    async firms(cutoff) {
      const seen = new Set<string>();
      const visible = roundVisible(cutoff);
      await feed('round', (r) => visible(r) && seen.add(r.id as string));
      const firms = new Map<string, FirmCount>();
      await feed('investment', (i) => {
        if (i.round_id === null || seen.has(i.round_id as string))
          count.edge(firms, i.firm_slug as string, i.firm_name as string, i.role === 'lead', 1);
      });
      return firms;
    },
    async funds() {
      const counts: FundCounts = new Map();
      await feed('fund', (f) => count.fund(counts, f, 1));
      return counts;
    },
  };
}
