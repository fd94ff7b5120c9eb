/**
 * Runs one property within its share of the budget and says what happened, with what it spent and
 * the seed and path that replay a failure.
 */
import fc from 'fast-check';
import type { ShownExchange } from '../shown/calls-shown.ts';
import { BudgetExhausted } from '../client/client.ts';
import type { SuiteContext } from './context.ts';
import { cutBody } from '../shown/cut-body.ts';
import { rerunLine, withoutKeys } from '../shown/failure-text.ts';
import type { AnyRuleId } from '../judges/judges.ts';
import { boundaryCases, planRun } from './plan.ts';
import { FindingsSeen, PropertyFailure, type Property } from './property.ts';
import { groupFindings, timesSaid } from './rule-results.ts';
import { failureMessage, findingText, named } from './failure-said.ts';
import { basisOf, coverageOf, type PropertyResult } from './property-result.ts';

export type { Coverage, PropertyResult } from './property-result.ts';

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
  // Shrinking spends calls beyond the plan: ten cases at most, never what later boundary cases need (shrinkShare).
  let shrinkLeft: number | null = null;
  // Each kind of finding once, with how many calls showed it (rule-results.ts).
  const findingsFailure = (broken: typeof ledger.findings): PropertyFailure => {
    const groups = groupFindings(broken).slice(0, 5);
    failing = groups.map((g) => g.first.exchange).slice(0, 3);
    byRules = [...new Set(broken.map((f) => f.rule))];
    return new PropertyFailure(groups.map((g) => findingText(g.first) + timesSaid(g.count)).join('\n'));
  };
  // Cases count until the first failure; after it, shrinking's share counts down instead.
  const counted = (): void => {
    if (shrinkLeft === null) runs += 1;
  };
  const shrinking = (): void => {
    shrinkLeft ??= shrinkShare(ctx, property, later);
  };
  const details = await fc.check(
    fc.asyncProperty(property.arbitrary(ctx), async (input) => {
      if (stoppedByBudget || (shrinkLeft !== null && shrinkLeft <= 0)) return true;
      const seen = ledger.findings.length;
      const callsBefore = ledger.total.calls;
      const spend = (): void => {
        if (shrinkLeft !== null) shrinkLeft -= ledger.total.calls - callsBefore;
      };
      ledger.recent = [];
      try {
        await property.check(ctx, input);
      } catch (error) {
        spend();
        if (error instanceof BudgetExhausted) {
          // Out of budget while shrinking: the smallest failing case found so far stands.
          stoppedByBudget = shrinkLeft === null;
          return true;
        }
        // The case that broke it ran: a property broken on its first case is not "0 cases".
        counted();
        shrinking();
        if (error instanceof FindingsSeen) throw findingsFailure(ledger.findings.slice(seen));
        failing = ledger.recent.slice(-3).map((c) => c.shown);
        byRules = [];
        throw error;
      }
      spend();
      counted();
      const broken = ledger.findings.slice(seen);
      if (broken.length) {
        shrinking();
        throw findingsFailure(broken);
      }
      return true;
    }),
    // No shrinking but where a property asks for it (a sequence of calls): every shrink step is a
    // paid call against a live service. The seed and path replay the failing case exactly.
    // Coverage first: the property's boundary and example cases open every run, in order (as
    // Schemathesis's coverage phase does), then generated ones spend the rest of its share.
    {
      seed: config.seed,
      numRuns: planned,
      examples: examples.map((e) => [e]),
      endOnFailure: !property.shrinks,
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
    const counterexample = fc.stringify(named(details.counterexample));
    // A shrunk sequence of commands replays with its own path too (fast-check's replayPath).
    const commandsPath = /replayPath=\\?"([^"\\]+)/.exec(counterexample)?.[1];
    const replay =
      `--only ${property.id} --seed ${config.seed}${path ? ` --path ${path}` : ''}` +
      (path && commandsPath ? ` --replay-path '${commandsPath}'` : '');
    result.failure = {
      message: failureMessage(property, error),
      counterexample: cutBody(withoutKeys(counterexample), 2000),
      path,
      replay,
      rerun: rerunLine({ base_url: config.baseUrl, plan: config.plan, use_control: config.useControl }, replay),
      ...(failing.length ? { exchanges: failing } : {}),
      ...(byRules.length ? { rules: byRules } : {}),
    };
  }
  return result;
}

/**
 * What shrinking a failing case may spend: ten cases' worth, and never what the boundary cases of the
 * properties after it need, so that a failure early in a run leaves the rest of the run its budget.
 */
function shrinkShare(ctx: SuiteContext, property: Property, later: readonly Property[]): number {
  if (!property.shrinks) return 0;
  const theirs = later.length ? planRun(ctx, later, ctx.client.remaining, 0).spend.calls : 0;
  return Math.max(0, Math.min(10 * property.cost(ctx).calls, ctx.client.remaining.calls - theirs));
}
