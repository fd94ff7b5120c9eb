/**
 * The rollups, computed from the rows a key may see and cached until the data changes. Their names
 * are the contract's (the getStatistic path parameter's enum), one function each in `rollups`; a
 * contract naming a rollup the table lacks, or the other way round, is refused at load.
 */
import { parameterEnum, resolveRef } from '@investor-graph/contract/document';
import type { Row } from '@investor-graph/fixtures';
import type { Store } from './store.ts';

export const statisticNames: readonly string[] = parameterEnum('getStatistic', 'name');
export type StatisticName = keyof typeof rollups;

/** Stages in the contract's order (the Round schema's enum), the order rounds-by-stage lists them in. */
const stageOrder = (resolveRef({ $ref: '#/components/schemas/Round' }) as { properties: { stage: { enum: string[] } } }).properties.stage.enum;

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round3 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000);

/** One function per rollup: the rounds a key may see (round lag applied) and the store for the rest. */
const rollups = {
  'rounds-by-year'(rounds: Row[]): Row[] {
    const years = new Map<number, { rounds: number; amount: number }>();
    for (const r of rounds) {
      const year = Number((r.announced_on as string).slice(0, 4));
      const y = years.get(year) ?? { rounds: 0, amount: 0 };
      y.rounds++;
      y.amount += (r.amount_usd as number | null) ?? 0;
      years.set(year, y);
    }
    return [...years].sort((a, b) => a[0] - b[0]).map(([year, y]) => ({ year, rounds: y.rounds, amount_usd: y.amount }));
  },
  'rounds-by-stage'(rounds: Row[]): Row[] {
    const stages = new Map<string, number[]>();
    const counts = new Map<string, number>();
    for (const r of rounds) {
      const stage = r.stage as string;
      counts.set(stage, (counts.get(stage) ?? 0) + 1);
      if (!stages.has(stage)) stages.set(stage, []);
      if (r.amount_usd !== null) stages.get(stage)!.push(r.amount_usd as number);
    }
    return stageOrder.filter((s) => counts.has(s)).map((stage) => {
      const amounts = stages.get(stage)!;
      const med = median(amounts);
      return { stage, rounds: counts.get(stage)!, amount_usd: amounts.reduce((a, b) => a + b, 0), median_amount_usd: med === null ? null : Math.round(med) };
    });
  },
  'most-active-investors'(rounds: Row[], store: Store): Row[] {
    const visible = new Set(rounds.map((r) => r.id as string));
    const firms = new Map<string, { name: string; investments: number; leads: number }>();
    for (const i of store.all('investment')) {
      if (i.round_id !== null && !visible.has(i.round_id as string)) continue;
      const f = firms.get(i.firm_slug as string) ?? { name: i.firm_name as string, investments: 0, leads: 0 };
      f.investments++;
      if (i.role === 'lead') f.leads++;
      firms.set(i.firm_slug as string, f);
    }
    return [...firms]
      .sort((a, b) => b[1].investments - a[1].investments || b[1].leads - a[1].leads || a[0].localeCompare(b[0]))
      .slice(0, 25)
      .map(([slug, f], i) => ({ rank: i + 1, firm_slug: slug, firm_name: f.name, investments: f.investments, leads: f.leads }));
  },
  'fund-returns-by-vintage'(_rounds: Row[], store: Store): Row[] {
    const vintages = new Map<number, Row[]>();
    for (const f of store.all('fund')) {
      const v = f.vintage_year as number;
      if (!vintages.has(v)) vintages.set(v, []);
      vintages.get(v)!.push(f);
    }
    return [...vintages].sort((a, b) => a[0] - b[0]).map(([vintage_year, funds]) => {
      const returns = funds.map((f) => f.returns as Row | null).filter((r): r is Row => r !== null);
      const pick = (field: string): number | null => round3(median(returns.map((r) => r[field] as number | null).filter((x): x is number => x !== null)));
      return { vintage_year, funds: funds.length, median_irr: pick('irr'), median_tvpi: pick('tvpi'), median_dpi: pick('dpi') };
    });
  },
} satisfies Record<string, (rounds: Row[], store: Store) => Row[]>;

const missing = statisticNames.filter((n) => !Object.hasOwn(rollups, n));
const extra = Object.keys(rollups).filter((n) => !statisticNames.includes(n));
if (missing.length || extra.length) throw new Error(`[investor-graph] the contract's statistics and the mock's rollups differ: ${[...missing.map((n) => `no rollup for ${n}`), ...extra.map((n) => `${n} is not in the contract`)].join('; ')}`);

export class Statistics {
  private readonly cache = new Map<string, Row[]>();
  private cacheVersion = -1;
  private readonly store: Store;

  constructor(store: Store) {
    this.store = store;
  }

  /** Rows of one rollup; `visibleRound` applies the trial's round lag. */
  rows(name: StatisticName, lagCutoff: string | null, visibleRound: (row: Row) => boolean): Row[] {
    if (this.cacheVersion !== this.store.version) {
      this.cache.clear();
      this.cacheVersion = this.store.version;
    }
    const id = `${name}:${lagCutoff ?? ''}`;
    let rows = this.cache.get(id);
    if (!rows) this.cache.set(id, (rows = this.compute(name, visibleRound)));
    return rows;
  }

  private compute(name: StatisticName, visibleRound: (row: Row) => boolean): Row[] {
    return rollups[name]([...this.store.all('round')].filter(visibleRound), this.store);
  }
}
