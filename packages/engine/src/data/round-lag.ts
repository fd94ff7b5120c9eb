/**
 * What a plan with a round lag sees (DECISIONS.md#round-lag): a round announced within the lag
 * before the data's as-of is held back, and so are the edges of such a round (an investor in it
 * tells of it); every field computed from them is computed without them: a company's `last_round`
 * and `total_raised_usd`, a firm's `portfolio_count` (derived-fields.ts, the same definitions a
 * rebuild keeps). What is held back is found once per version of the data and cutoff, by a seek
 * on the rounds' dates (a few per cent of them), so a page costs about what it costs without a lag.
 */
import type { PlanRule } from '@investor-graph/contract/plans';
import type { ResourceName, Row } from '@investor-graph/dataset-tools';
import { companyFromRounds, portfolioCount } from './derived-fields.ts';
import type { Store } from './store.ts';

const DAY = 86_400_000;

/** The last announcement date the plan may see, or null when it sees every round. */
export function lagCutoff(store: Store, plan: PlanRule): string | null {
  return plan.round_lag_days > 0 ? new Date(store.asOf - plan.round_lag_days * DAY).toISOString().slice(0, 10) : null;
}

export const roundVisible =
  (cutoff: string | null) =>
  (row: Row): boolean =>
    cutoff === null || (row.announced_on as string) <= cutoff;

/** What a cutoff holds back, for one version of the data. */
interface HeldBack {
  version: number;
  cutoff: string;
  rounds: Set<string>;
  edges: Set<string>;
  /** The companies and firms whose derived fields the held-back rows change. */
  companies: Set<string>;
  firms: Set<string>;
  /**
   * Their rows as the plan sees them, made once, so that a row served
   * again is the same object (serialise.ts remembers by identity).
   */
  views: Map<string, { of: Row; view: Row }>;
}

const held = new WeakMap<Store, HeldBack>();

function heldBack(store: Store, cutoff: string): HeldBack {
  const known = held.get(store);
  if (known && known.version === store.version && known.cutoff === cutoff) return known;
  const made: HeldBack = {
    version: store.version,
    cutoff,
    rounds: new Set(),
    edges: new Set(),
    companies: new Set(),
    firms: new Set(),
    views: new Map(),
  };
  const from = new Date(Date.parse(`${cutoff}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
  const inLag = (row: Row) => (row.announced_on as string) > cutoff;
  for (let after: string | null = null, first = true; first || after !== null; first = false) {
    const page = store.page('round', after, 1000, inLag, { column: 'announced_on', from, to: null });
    for (const round of page.rows) {
      made.rounds.add(round.id as string);
      made.companies.add(round.company_slug as string);
    }
    after = page.nextKey;
  }
  // The edges of those rounds: each round's company's investors, a few each.
  for (const company of made.companies) {
    for (const edge of store.nestedRows('listCompanyInvestors', company)) {
      if (!made.rounds.has(edge.round_id as string)) continue;
      made.edges.add(edge.id as string);
      made.firms.add(edge.firm_slug as string);
    }
  }
  held.set(store, made);
  return made;
}

/**
 * The rows of a list the plan may see: rounds within the cutoff,
 * edges of those rounds; undefined when nothing is held back.
 */
export function lagKeep(
  store: Store,
  resource: ResourceName,
  cutoff: string | null,
): ((row: Row) => boolean) | undefined {
  if (cutoff === null) return undefined;
  if (resource === 'round') return roundVisible(cutoff);
  if (resource !== 'investment') return undefined;
  const { edges } = heldBack(store, cutoff);
  return edges.size ? (row) => !edges.has(row.id as string) : undefined;
}

/**
 * A row as the plan sees it: a company's last round and total
 * raised, a firm's portfolio count, without what the lag holds back.
 */
export function viewRow(store: Store, resource: ResourceName, row: Row, cutoff: string | null): Row {
  if (cutoff === null || (resource !== 'company' && resource !== 'firm')) return row;
  const back = heldBack(store, cutoff);
  const key = row.slug as string;
  if (!(resource === 'company' ? back.companies : back.firms).has(key)) return row;
  const known = back.views.get(`${resource}\n${key}`);
  if (known?.of === row) return known.view;
  const view =
    resource === 'company'
      ? { ...row, ...companyFromRounds(store.nestedRows('listCompanyRounds', key).filter(roundVisible(cutoff))) }
      : {
          ...row,
          portfolio_count: portfolioCount(
            store.nestedRows('listFirmPortfolio', key).filter((edge) => !back.edges.has(edge.id as string)),
          ),
        };
  back.views.set(`${resource}\n${key}`, { of: row, view });
  return view;
}
