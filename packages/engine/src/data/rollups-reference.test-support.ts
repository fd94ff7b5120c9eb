/**
 * The rollups as the mock computed them before issue #39, from every row, kept word for word as the
 * reference the served statistics are held to (stored-rollups.test.ts; the bench at every scale):
 * sorted arrays for the medians and sums in feed order, sharing nothing with the counting the
 * stores do now (rollups.ts), so that a mistake there cannot hide in both. Not on any request path.
 */
import { resolveRef } from '@investor-graph/contract/document';
import type { ResourceName, Row } from '@investor-graph/dataset-tools';
import { roundVisible } from './round-lag.ts';
import type { StatisticName } from './rollups.ts';

/** Stages in the contract's order (the Round schema's enum), the order rounds-by-stage lists them in. */
const stageOrder = (resolveRef({ $ref: '#/components/schemas/Round' }) as { properties: { stage: { enum: string[] } } })
  .properties.stage.enum;

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round3 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000);

/** Feeds every row of a resource to `each`. */
type Feed = (resource: ResourceName, each: (row: Row) => void) => Promise<void>;

/**
 * One function per rollup, reading rows as they are fed (never all of them at once: at ten
 * million rows that is gigabytes), keeping only the rounds a key may see (`visible`: the round lag).
 */
const reference = {
  async 'rounds-by-year'(feed: Feed, visible: (row: Row) => boolean): Promise<Row[]> {
    const years = new Map<number, { rounds: number; amount: number }>();
    await feed('round', (r) => {
      if (!visible(r)) return;
      const year = Number((r.announced_on as string).slice(0, 4));
      const y = years.get(year) ?? { rounds: 0, amount: 0 };
      y.rounds++;
      y.amount += (r.amount_usd as number | null) ?? 0;
      years.set(year, y);
    });
    return [...years]
      .sort((a, b) => a[0] - b[0])
      .map(([year, y]) => ({ year, rounds: y.rounds, amount_usd: y.amount }));
  },
  async 'rounds-by-stage'(feed: Feed, visible: (row: Row) => boolean): Promise<Row[]> {
    const stages = new Map<string, number[]>();
    const counts = new Map<string, number>();
    await feed('round', (r) => {
      if (!visible(r)) return;
      const stage = r.stage as string;
      counts.set(stage, (counts.get(stage) ?? 0) + 1);
      if (!stages.has(stage)) stages.set(stage, []);
      if (r.amount_usd !== null) stages.get(stage)!.push(r.amount_usd as number);
    });
    return stageOrder
      .filter((s) => counts.has(s))
      .map((stage) => {
        const amounts = stages.get(stage)!;
        const med = median(amounts);
        return {
          stage,
          rounds: counts.get(stage)!,
          amount_usd: amounts.reduce((a, b) => a + b, 0),
          median_amount_usd: med === null ? null : Math.round(med),
        };
      });
  },
  async 'most-active-investors'(feed: Feed, visible: (row: Row) => boolean): Promise<Row[]> {
    // An edge counts when it names no round or a round the key may see (one not published is not).
    const seen = new Set<string>();
    await feed('round', (r) => {
      if (visible(r)) seen.add(r.id as string);
    });
    const firms = new Map<string, { name: string; investments: number; leads: number }>();
    await feed('investment', (i) => {
      if (i.round_id !== null && !seen.has(i.round_id as string)) return;
      const f = firms.get(i.firm_slug as string) ?? { name: i.firm_name as string, investments: 0, leads: 0 };
      f.investments++;
      if (i.role === 'lead') f.leads++;
      firms.set(i.firm_slug as string, f);
    });
    return [...firms]
      .sort((a, b) => b[1].investments - a[1].investments || b[1].leads - a[1].leads || a[0].localeCompare(b[0]))
      .slice(0, 25)
      .map(([slug, f], i) => ({
        rank: i + 1,
        firm_slug: slug,
        firm_name: f.name,
        investments: f.investments,
        leads: f.leads,
      }));
  },
  async 'fund-returns-by-vintage'(feed: Feed): Promise<Row[]> {
    const vintages = new Map<number, { funds: number; irr: number[]; tvpi: number[]; dpi: number[] }>();
    await feed('fund', (f) => {
      const v = f.vintage_year as number;
      let vintage = vintages.get(v);
      if (!vintage) vintages.set(v, (vintage = { funds: 0, irr: [], tvpi: [], dpi: [] }));
      vintage.funds++;
      const returns = f.returns as Row | null;
      for (const field of ['irr', 'tvpi', 'dpi'] as const) {
        const x = returns?.[field] as number | null | undefined;
        if (x !== null && x !== undefined) vintage[field].push(x);
      }
    });
    return [...vintages]
      .sort((a, b) => a[0] - b[0])
      .map(([vintage_year, v]) => ({
        vintage_year,
        funds: v.funds,
        median_irr: round3(median(v.irr)),
        median_tvpi: round3(median(v.tvpi)),
        median_dpi: round3(median(v.dpi)),
      }));
  },
} satisfies Record<StatisticName, (feed: Feed, visible: (row: Row) => boolean) => Promise<Row[]>>;

/** A rollup of rows given whole, computed as before issue #39 (the bench and tests hold the served bytes to it). */
export function rollupFromRows(
  name: string,
  rows: (resource: ResourceName) => Iterable<Row>,
  cutoff: string | null,
): Promise<Row[]> {
  if (!Object.hasOwn(reference, name)) throw new Error(`[investor-graph] no rollup named ${name}`);
  // Every rollup awaits its feed, so a row source that throws fails the rollup as a rejection would.
  const feed: Feed = (resource, each) => {
    for (const row of rows(resource)) each(row);
    return Promise.resolve();
  };
  return reference[name as StatisticName](feed, roundVisible(cutoff));
}
