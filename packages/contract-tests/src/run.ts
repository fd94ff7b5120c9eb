/**
 * Runs one property within its share of the budget and says what happened, with what it spent and
 * the seed and path that replay a failure.
 */
import fc from 'fast-check';
import { rules, type RuleId } from '@investor-graph/contract';
import type { ShownExchange } from './calls-shown.ts';
import { BudgetExhausted, type Spending } from './client.ts';
import type { SuiteContext } from './context.ts';
import { cutBody } from './cut-body.ts';
import { expectedGot, withoutKeys } from './failure-text.ts';
import type { Property } from './properties.ts';
import { PropertyFailure } from './properties/support.ts';

export interface PropertyResult {
  id: string;
  title: string;
  status: 'passed' | 'failed' | 'skipped';
  /** documented: rests on the spec alone; assumed: also on decisions in DECISIONS.md. */
  basis: 'documented' | 'assumed';
  spec: string[];
  assumed: string[];
  runs: number;
  plannedRuns: number;
  spent: Spending;
  seed: number;
  reason?: string;
  /** `exchanges`: the calls of the failing case that show it (its findings' calls, or its last calls). */
  failure?: { message: string; counterexample: string; path: string | null; replay: string; exchanges?: ShownExchange[] };
  /** The case ran out of budget partway and was counted as not run. */
  stoppedByBudget?: boolean;
}

export function basisOf(assumed: readonly string[]): 'documented' | 'assumed' {
  return assumed.length ? 'assumed' : 'documented';
}

/**
 * This property's share. One case of each property still to come (that can run) is kept back
 * first, so that the last in order are not starved by the generated cases of the first; what is
 * left over is split evenly among this property and those to come.
 */
export function plannedRuns(ctx: SuiteContext, property: Property, later: readonly Property[] | number = []): { runs: number; reason?: string } {
  const left = ctx.client.remaining;
  // A count (as earlier versions took: the properties left, this one included) keeps nothing back.
  const upcoming = typeof later === 'number' ? [] : later;
  const after = typeof later === 'number' ? Math.max(0, later - 1) : later.length;
  const reserve = upcoming.filter((p) => !p.skip(ctx)).reduce((sum, p) => {
    const one = p.cost(ctx);
    return { calls: sum.calls + one.calls, rows: sum.rows + one.rows };
  }, { calls: 0, rows: 0 });
  const spare = { calls: Math.max(0, left.calls - reserve.calls), rows: Math.max(0, left.rows - reserve.rows) };
  const share = { calls: Math.floor(spare.calls / (after + 1)), rows: Math.floor(spare.rows / (after + 1)) };
  const cost = property.cost(ctx);
  const byCalls = cost.calls ? Math.floor(share.calls / cost.calls) : Infinity;
  const byRows = cost.rows ? Math.floor(share.rows / cost.rows) : Infinity;
  // Its boundary cases (examples) first, all of them when the budget allows, then --runs generated ones.
  const runs = Math.min(property.once ? 1 : (property.examples?.(ctx).length ?? 0) + ctx.config.runs, byCalls, byRows);
  if (runs >= 1) return { runs };
  // A property too dear for its share may still fit in what is left overall: the earlier in order comes first.
  if (cost.calls <= left.calls && cost.rows <= left.rows) return { runs: 1 };
  return { runs: 0, reason: `the budget left (${left.calls} calls, ${left.rows} rows) does not cover one case (${cost.calls} calls, ${cost.rows} rows)` };
}

/** Runs `property`; `later` are the properties the run takes after it (their first cases are kept back for them). */
export async function runProperty(ctx: SuiteContext, property: Property, later: readonly Property[] | number = []): Promise<PropertyResult> {
  const { config, ledger } = ctx;
  const base = { id: property.id, title: property.title, basis: basisOf(property.assumed), spec: property.spec, assumed: property.assumed, seed: config.seed };
  // A run that could not get ready checked nothing: every property fails with what broke.
  if (ctx.setupError) return { ...base, status: 'failed', reason: 'the run could not get ready', runs: 0, plannedRuns: 0, spent: { calls: 0, rows: 0 }, failure: { message: ctx.setupError, counterexample: '', path: null, replay: '' } };
  const skipped = property.skip(ctx);
  if (skipped) return { ...base, status: 'skipped', reason: skipped, runs: 0, plannedRuns: 0, spent: { calls: 0, rows: 0 } };
  const plan = plannedRuns(ctx, property, later);
  if (plan.runs === 0) return { ...base, status: 'skipped', reason: plan.reason!, runs: 0, plannedRuns: 0, spent: { calls: 0, rows: 0 } };

  ledger.current = property.id;
  const spentBefore = { ...ledger.total };
  let runs = 0;
  let stoppedByBudget = false;
  let failing: ShownExchange[] = [];
  const details = await fc.check(
    fc.asyncProperty(property.arbitrary(ctx), async (input) => {
      if (stoppedByBudget) return true;
      const seen = ledger.findings.length;
      ledger.recent = [];
      try {
        await property.check(ctx, input);
      } catch (error) {
        if (error instanceof BudgetExhausted) {
          stoppedByBudget = true;
          return true;
        }
        // The case that broke it ran: a property broken on its first case is not "0 cases".
        runs += 1;
        failing = ledger.recent.slice(-3).map((c) => c.shown);
        throw error;
      }
      runs += 1;
      const broken = ledger.findings.slice(seen);
      if (broken.length) {
        failing = [...new Set(broken.slice(0, 5).map((f) => f.exchange))].slice(0, 3);
        throw new PropertyFailure(broken.slice(0, 5).map(findingText).join('\n'));
      }
      return true;
    }),
    // No shrinking: every shrink step is a paid call against a live service. The seed and path
    // replay the failing case exactly.
    // Coverage first: the property's boundary and example cases open every run, in order (as
    // Schemathesis's coverage phase does), then generated ones spend the rest of its share.
    { seed: config.seed, numRuns: plan.runs, examples: (property.examples?.(ctx) ?? []).map((e) => [e]), endOnFailure: true, ...(config.path ? { path: config.path } : {}) },
  );
  ledger.current = 'between';
  const spent = { calls: ledger.total.calls - spentBefore.calls, rows: ledger.total.rows - spentBefore.rows };
  const result: PropertyResult = { ...base, status: details.failed ? 'failed' : 'passed', runs, plannedRuns: plan.runs, spent, ...(stoppedByBudget ? { stoppedByBudget } : {}) };
  if (details.failed) {
    const error = details.errorInstance as Error | null;
    const path = details.counterexamplePath;
    result.failure = {
      message: failureMessage(property, error),
      counterexample: cutBody(withoutKeys(fc.stringify(named(details.counterexample))), 2000),
      path,
      replay: `--only ${property.id} --seed ${config.seed}${path ? ` --path ${path}` : ''}`,
      ...(failing.length ? { exchanges: failing } : {}),
    };
  }
  return result;
}

/** A rule's finding in a property's failure: the rule and the call, then what the rule expects and what the call got. */
export function findingText(f: { rule: RuleId; call: string; message: string }): string {
  return `[${f.rule}] ${expectedGot(f.call, rules[f.rule].title, f.message)}`;
}

/**
 * What a property's failure says: its own (failure-text.ts), the rules' findings, or what the
 * check threw. A call that got no answer (refused, reset, timed out) says so with its cause; anything
 * else is named as thrown, since it may be a body of another shape or a bug in the check itself.
 */
export function failureMessage(property: Pick<Property, 'title'>, error: Error | null): string {
  if (!error) return expectedGot('', property.title, 'a failure fast-check gave no error for');
  if (error instanceof PropertyFailure) return error.message;
  const firstLine = (text: unknown): string => String(text ?? '').split('\n')[0]!;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  // undici's errors: `fetch failed` (no answer) and `terminated` (the answer cut off), the reason in their cause.
  if (error.name === 'TimeoutError' || (error.name === 'TypeError' && /^(fetch failed|terminated)$/.test(error.message))) {
    const why = cause ? `${typeof cause.code === 'string' ? `${cause.code}: ` : ''}${firstLine(cause.message ?? cause)}` : firstLine(error.message);
    return expectedGot('', property.title, `no answer: the call failed: ${why}`);
  }
  return expectedGot('', property.title, `no verdict: the check threw ${error.name}: ${firstLine(error.message)}`);
}

export interface RuleResult {
  id: RuleId;
  title: string;
  basis: 'documented' | 'assumed';
  spec: string | null;
  assumed: string[];
  violations: number;
  examples: string[];
  /** The call of each example, in the same order. */
  exchanges?: ShownExchange[];
}

/** Every single-response rule over every call the run made. */
export function ruleResults(ctx: SuiteContext): RuleResult[] {
  return (Object.keys(rules) as RuleId[]).map((id) => {
    const found = ctx.ledger.findings.filter((f) => f.rule === id);
    const info = rules[id];
    return {
      id,
      title: info.title,
      basis: info.spec ? basisOf(info.assumed) : 'assumed',
      spec: info.spec,
      assumed: info.assumed,
      violations: found.length,
      examples: found.slice(0, 5).map((f) => withoutKeys(`${f.call} (during ${f.check}): ${f.message}`)),
      exchanges: found.slice(0, 5).map((f) => f.exchange),
    };
  });
}

/**
 * A counterexample with each operation by its method and path: its contract entry (parameters,
 * responses, links) is long, says nothing the name does not, and pushed the values that matter
 * past the report's cut.
 */
function named(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(named);
  if (!value || typeof value !== 'object') return value;
  const entry = value as { operationId?: unknown; method?: unknown; path?: unknown };
  if (typeof entry.operationId === 'string' && typeof entry.path === 'string') return `${entry.method} ${entry.path}`;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, named(v)]));
}
