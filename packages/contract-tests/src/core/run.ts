/**
 * Runs one property within its share of the budget and says what happened, with what it spent and
 * the seed and path that replay a failure.
 */
import fc from 'fast-check';
import type { ShownExchange } from '../report/calls-shown.ts';
import { BudgetExhausted, type Spending } from '../client/client.ts';
import type { SuiteContext } from './context.ts';
import { cutBody } from '../client/cut-body.ts';
import { expectedGot, rerunLine, withoutKeys } from '../report/failure-text.ts';
import type { Property } from '../properties.ts';
import { allRules, type AnyRuleId } from './judges.ts';
import { boundaryCases, planRun } from './plan.ts';
import { PropertyFailure } from '../properties/support.ts';
import { groupFindings, timesSaid } from './rule-results.ts';

/** How much of a property a run checked: all its boundary cases and some generated ones, part of them, or none. */
export type Coverage = 'every case' | 'some cases' | 'not reached';

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
  /** The cases run: boundary (of those it has) and generated (of those --runs asked for). */
  cases: { boundary: number; boundaryTotal: number; generated: number; generatedWanted: number };
  coverage: Coverage;
  spent: Spending;
  seed: number;
  reason?: string;
  /** `exchanges`: the calls of the failing case that show it (its findings' calls, or its last calls). */
  failure?: {
    message: string;
    counterexample: string;
    path: string | null;
    replay: string;
    /** The whole command that replays it, pasted as it is (the key from INVESTOR_GRAPH_KEY). */
    rerun?: string;
    exchanges?: ShownExchange[];
    /** The rules whose findings alone broke it (its own check held on the case): the failure is theirs. */
    rules?: AnyRuleId[];
  };
  /** The case ran out of budget partway and was counted as not run. */
  stoppedByBudget?: boolean;
}

export function basisOf(assumed: readonly string[]): 'documented' | 'assumed' {
  return assumed.length ? 'assumed' : 'documented';
}

/** Every boundary case and, unless it has none, a generated one: checked on every case; fewer: some cases. */
export function coverageOf(
  status: PropertyResult['status'],
  cases: PropertyResult['cases'],
  stoppedByBudget = false,
): Coverage {
  if (status === 'skipped') return 'not reached';
  const everyBoundary = cases.boundary >= cases.boundaryTotal;
  return everyBoundary && (cases.generatedWanted === 0 || cases.generated > 0) && !stoppedByBudget
    ? 'every case'
    : 'some cases';
}

/**
 * Runs `property` as the plan made now says (plan.ts); `later` are the properties the run takes
 * after it, whose boundary cases are kept for them.
 */
export async function runProperty(
  ctx: SuiteContext,
  property: Property,
  later: readonly Property[] = [],
): Promise<PropertyResult> {
  const { config, ledger } = ctx;
  const base = {
    id: property.id,
    title: property.title,
    basis: basisOf(property.assumed),
    spec: property.spec,
    assumed: property.assumed,
    seed: config.seed,
  };
  const noCases = { boundary: 0, boundaryTotal: 0, generated: 0, generatedWanted: 0 };
  // A run that could not get ready checked nothing: every property fails with what broke.
  if (ctx.setupError)
    return {
      ...base,
      status: 'failed',
      reason: 'the run could not get ready',
      runs: 0,
      plannedRuns: 0,
      cases: noCases,
      coverage: 'not reached',
      spent: { calls: 0, rows: 0 },
      failure: { message: ctx.setupError, counterexample: '', path: null, replay: '' },
    };
  const plan = planRun(ctx, [property, ...later], ctx.client.remaining, config.runs).properties[0]!;
  if (plan.skip)
    return {
      ...base,
      status: 'skipped',
      reason: plan.skip,
      runs: 0,
      plannedRuns: 0,
      cases: { ...noCases, boundaryTotal: plan.boundaryTotal },
      coverage: 'not reached',
      spent: { calls: 0, rows: 0 },
    };
  const examples = boundaryCases(ctx, property).slice(0, plan.boundary);

  ledger.current = property.id;
  const planned = plan.boundary + plan.generated;
  const spentBefore = { ...ledger.total };
  let runs = 0;
  let stoppedByBudget = false;
  let failing: ShownExchange[] = [];
  let byRules: AnyRuleId[] = [];
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
        byRules = [];
        throw error;
      }
      runs += 1;
      const broken = ledger.findings.slice(seen);
      if (broken.length) {
        // Each kind of finding once, with how many calls showed it (rule-results.ts).
        const groups = groupFindings(broken).slice(0, 5);
        failing = groups.map((g) => g.first.exchange).slice(0, 3);
        byRules = [...new Set(broken.map((f) => f.rule))];
        throw new PropertyFailure(groups.map((g) => findingText(g.first) + timesSaid(g.count)).join('\n'));
      }
      return true;
    }),
    // No shrinking: every shrink step is a paid call against a live service. The seed and path
    // replay the failing case exactly.
    // Coverage first: the property's boundary and example cases open every run, in order (as
    // Schemathesis's coverage phase does), then generated ones spend the rest of its share.
    {
      seed: config.seed,
      numRuns: planned,
      examples: examples.map((e) => [e]),
      endOnFailure: true,
      ...(config.path ? { path: config.path } : {}),
    },
  );
  ledger.current = 'between';
  const spent = { calls: ledger.total.calls - spentBefore.calls, rows: ledger.total.rows - spentBefore.rows };
  const status = details.failed ? 'failed' : 'passed';
  // The boundary cases open the run (fast-check takes the examples first): the first runs are they.
  const cases = {
    boundary: Math.min(runs, plan.boundary),
    boundaryTotal: plan.boundaryTotal,
    generated: Math.max(0, runs - plan.boundary),
    generatedWanted: plan.generatedWanted,
  };
  const result: PropertyResult = {
    ...base,
    status,
    runs,
    plannedRuns: planned,
    cases,
    coverage: coverageOf(status, cases, stoppedByBudget),
    spent,
    ...(stoppedByBudget ? { stoppedByBudget } : {}),
  };
  if (details.failed) {
    const error = details.errorInstance as Error | null;
    const path = details.counterexamplePath;
    result.failure = {
      message: failureMessage(property, error),
      counterexample: cutBody(withoutKeys(fc.stringify(named(details.counterexample))), 2000),
      path,
      replay: `--only ${property.id} --seed ${config.seed}${path ? ` --path ${path}` : ''}`,
      rerun: rerunLine(
        { base_url: config.baseUrl, plan: config.plan, use_control: config.useControl },
        `--only ${property.id} --seed ${config.seed}${path ? ` --path ${path}` : ''}`,
      ),
      ...(failing.length ? { exchanges: failing } : {}),
      ...(byRules.length ? { rules: byRules } : {}),
    };
  }
  return result;
}

/**
 * A rule's finding in a property's failure: the rule and the call, then what the rule expects and
 * what the call got.
 */
export function findingText(f: { rule: AnyRuleId; call: string; message: string }): string {
  return `[${f.rule}] ${expectedGot(f.call, allRules[f.rule].title, f.message)}`;
}

/**
 * What a property's failure says: its own (failure-text.ts), the rules' findings, or what the
 * check threw. A call that got no answer (refused, reset, timed out) says so with its cause; anything
 * else is named as thrown, since it may be a body of another shape or a bug in the check itself.
 */
export function failureMessage(property: Pick<Property, 'title'>, error: Error | null): string {
  if (!error) return expectedGot('', property.title, 'a failure fast-check gave no error for');
  if (error instanceof PropertyFailure) return error.message;
  const firstLine = (text: string): string => text.split('\n')[0]!;
  // Anything may be thrown as a cause: undici's are errors with a code.
  const cause: unknown = error.cause;
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  const causeSaid = String(message ?? cause);
  // undici's errors: `fetch failed` (no answer) and `terminated` (the answer cut off), the reason in their cause.
  if (
    error.name === 'TimeoutError' ||
    (error.name === 'TypeError' && /^(fetch failed|terminated)$/.test(error.message))
  ) {
    const why = cause
      ? `${typeof code === 'string' ? `${code}: ` : ''}${firstLine(causeSaid)}`
      : firstLine(error.message);
    return expectedGot('', property.title, `no answer: the call failed: ${why}`);
  }
  return expectedGot('', property.title, `no verdict: the check threw ${error.name}: ${firstLine(error.message)}`);
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
  if (typeof entry.operationId === 'string' && typeof entry.path === 'string')
    return `${String(entry.method)} ${entry.path}`;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, named(v)]));
}
