/**
 * The run's plan: made before the first property runs (the run says it), and again as each one
 * starts with what is left, so that what earlier properties did not spend goes to later ones.
 * Every property's boundary cases come first, all of them when the budget covers them (a property
 * whose boundary cases are cut says so: "checked on some cases"), each priced at its worst case;
 * generated cases then share out what is left, one property at a time in turn, up to --runs each.
 * Cases are priced at their worst: answers the run already holds make most of them cheaper.
 */
import type { Spending } from '../client/client.ts';
import type { SuiteContext } from './context.ts';
import type { Property } from './property.ts';

export type { PropertyPlan, RunPlan } from './plan-types.ts';
import type { PropertyPlan, RunPlan } from './plan-types.ts';

/** A property's boundary cases: its examples, or the one case of a property checked once a run. */
export function boundaryCases(ctx: SuiteContext, property: Property): unknown[] {
  return property.examples?.(ctx) ?? (property.once ? [null] : []);
}

/** What one case may spend at most: its own price when the property gives one, else the property's worst case. */
export function caseCost(ctx: SuiteContext, property: Property, input?: unknown): Spending {
  return input !== undefined && property.caseCost ? property.caseCost(ctx, input) : property.cost(ctx);
}

const add = (a: Spending, b: Spending): Spending => ({ calls: a.calls + b.calls, rows: a.rows + b.rows });
const fits = (cost: Spending, left: Spending): boolean => cost.calls <= left.calls && cost.rows <= left.rows;

/** The plan for `properties`, in the order they run, within `left`; `runs` generated cases each at most. */
export function planRun(ctx: SuiteContext, properties: readonly Property[], left: Spending, runs: number): RunPlan {
  const entries = properties.map((property) => {
    const skip = property.skip(ctx);
    const cases = skip ? [] : boundaryCases(ctx, property);
    return {
      property,
      skip,
      costs: cases.map((input) => caseCost(ctx, property, input)),
      kept: cases.length,
      generated: 0,
      wanted: skip || property.once ? 0 : runs,
    };
  });
  const boundarySpend = () =>
    entries.reduce((sum, e) => e.costs.slice(0, e.kept).reduce(add, sum), { calls: 0, rows: 0 });
  // Too little for every boundary case: the property with the most planned loses its last one first,
  // down to one case each; then the last properties lose that one; then what that freed goes back,
  // in order, to those that lost cases. No generated case is planned while one is cut.
  for (let spend = boundarySpend(); !fits(spend, left); spend = boundarySpend()) {
    const priced = (e: (typeof entries)[number]) =>
      e.costs
        .slice(0, e.kept)
        .reduce((sum, c) => sum + c.calls / Math.max(1, left.calls) + c.rows / Math.max(1, left.rows), 0);
    const dearest =
      entries.filter((e) => e.kept > 1).sort((a, b) => priced(b) - priced(a))[0] ??
      [...entries].reverse().find((e) => e.kept > 0);
    if (!dearest) break;
    dearest.kept -= 1;
  }
  for (const e of entries) {
    while (e.kept < e.costs.length && fits(add(boundarySpend(), e.costs[e.kept]!), left)) e.kept += 1;
  }
  const cut = entries.some((e) => e.kept < e.costs.length);
  let spare = { calls: left.calls - boundarySpend().calls, rows: left.rows - boundarySpend().rows };
  // Generated cases in turns, one a property a turn, while the budget covers the next.
  for (let progress = !cut; progress;) {
    progress = false;
    for (const e of entries) {
      if (e.skip || e.generated >= e.wanted) continue;
      const cost = e.property.cost(ctx);
      if (!fits(cost, spare)) continue;
      e.generated += 1;
      spare = { calls: spare.calls - cost.calls, rows: spare.rows - cost.rows };
      progress = true;
    }
  }
  const planned = entries.map((e): PropertyPlan => {
    const spend = add(e.costs.slice(0, e.kept).reduce(add, { calls: 0, rows: 0 }), {
      calls: e.generated * e.property.cost(ctx).calls,
      rows: e.generated * e.property.cost(ctx).rows,
    });
    const base = {
      id: e.property.id,
      boundary: e.kept,
      boundaryTotal: e.costs.length,
      generated: e.generated,
      generatedWanted: e.wanted,
      spend,
    };
    if (e.skip) return { ...base, skip: e.skip };
    if (e.kept + e.generated === 0) {
      const one = caseCost(ctx, e.property, boundaryCases(ctx, e.property)[0]);
      return {
        ...base,
        skip:
          `the budget left (${left.calls} calls, ${left.rows} rows) does not cover one case ` +
          `(${one.calls} calls, ${one.rows} rows) beside the others' boundary cases`,
      };
    }
    return base;
  });
  return {
    properties: planned,
    spend: planned.reduce((sum, p) => add(sum, p.spend), { calls: 0, rows: 0 }),
    within: left,
  };
}
