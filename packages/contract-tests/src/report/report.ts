/** The run's report: what ran against documented and against assumed behaviour, and what it cost. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { operationCalls } from '../shown/calls-shown.ts';
import type { Budget, Spending } from '../client/client.ts';
import type { SuiteContext } from '../core/context.ts';
import type { PlanId } from '@investor-graph/contract';
import {
  matrixResults,
  matrixScore,
  mergeMatrix,
  type MatrixResult,
  type MatrixScore,
} from '../rule-matrix/matrix-results.ts';
import type { RunPlan } from '../core/plan.ts';
import type { DiffSection } from '../diff/diff.ts';
import type { Coverage, PropertyResult } from '../core/run.ts';
import { ruleResults, type RuleResult } from '../core/rule-results.ts';

export interface Report {
  base_url: string;
  plan: string;
  seed: number;
  budget: Budget;
  /** Why the budget is what it is: the plan's default from its quota, or the flags (budgets.ts). */
  budget_why?: string;
  /** What the run planned before it spent anything (plan.ts). */
  run_plan?: RunPlan;
  spent: Spending;
  /** How long the key's run took, in milliseconds, from getting ready to its last property. */
  wall_ms?: number;
  /** Reads answered from what the run already held instead of a call (answers.ts). */
  answers_shared?: number;
  spent_by_check: Record<string, Spending>;
  calls_checked: number;
  /** Every operation of the contract with the calls the run made of it (0: not covered). */
  operations: Record<string, number>;
  /** Calls that were for no operation of the contract (an unknown path, a method a path lacks). */
  calls_without_operation: number;
  /** The run drove the mock's control API (--use-control): a replay needs it too. */
  use_control?: true;
  /** What broke while the run got ready, when something did: no property could run. */
  setup_error?: string;
  /**
   * The model every answer was judged against (--model): where its data came from, the calls it
   * judged, and what it found that no sentence fixes (the kit's reading of an open point, the first 20).
   */
  model?: { source: string; judged: number; warnings: string[] };
  properties: PropertyResult[];
  rules: RuleResult[];
  /** Every rule of the spec and of DECISIONS.md (rule-matrix/rule-matrix.ts) with its outcome in this run. */
  matrix: MatrixResult[];
  /** Rules checked and held, as a score to track from run to run. */
  score: MatrixScore;
  /**
   * Properties and rules by what they rest on, the spec (documented) or DECISIONS.md (assumed):
   * held, broken (a rule once, however many properties its findings broke), and properties a
   * rule's findings alone broke (`stopped_by_rule`, their own checks unproven).
   */
  summary: {
    documented: BasisTally;
    assumed: BasisTally;
    skipped: number;
    /** Properties by how much of them ran (run.ts's coverage). */
    coverage?: Record<Coverage, number>;
  };
  /** The served contract against the kit's (or a baseline), which the CLI's run starts with (diff.ts). */
  diff?: DiffSection;
}

export interface BasisTally {
  passed: number;
  failed: number;
  stopped_by_rule?: number;
}

export function buildReport(ctx: SuiteContext, properties: PropertyResult[], wallMs?: number): Report {
  const rules = ruleResults(ctx);
  // A property that a rule's findings alone broke is the rule's failure, counted once, with the rule.
  const byRule = (p: PropertyResult) => p.status === 'failed' && !!p.failure?.rules?.length;
  const tally = (basis: 'documented' | 'assumed') => ({
    passed:
      properties.filter((p) => p.basis === basis && p.status === 'passed').length +
      rules.filter((r) => r.basis === basis && r.violations === 0).length,
    failed:
      properties.filter((p) => p.basis === basis && p.status === 'failed' && !byRule(p)).length +
      rules.filter((r) => r.basis === basis && r.violations > 0).length,
    stopped_by_rule: properties.filter((p) => p.basis === basis && byRule(p)).length,
  });
  const matrix = matrixResults({
    properties: new Map(
      properties.map((p) => [
        p.id,
        {
          status: p.status,
          coverage: p.coverage,
          ...(p.reason ? { reason: p.reason } : {}),
          ...(p.failure?.rules ? { rules: p.failure.rules } : {}),
        },
      ]),
    ),
    rules: new Map(rules.map((r) => [r.id, r.violations])),
    calls: ctx.ledger.exchanges,
    plan: ctx.config.plan,
    model: ctx.client.model !== undefined && ctx.ledger.modelJudged > 0,
  });
  return {
    base_url: ctx.config.baseUrl,
    plan: ctx.config.plan,
    seed: ctx.config.seed,
    budget: ctx.config.budget,
    ...(ctx.config.budgetWhy ? { budget_why: ctx.config.budgetWhy } : {}),
    ...(ctx.plan ? { run_plan: ctx.plan } : {}),
    spent: { ...ctx.ledger.total },
    ...(wallMs === undefined ? {} : { wall_ms: Math.round(wallMs) }),
    answers_shared: ctx.client.answers.hits,
    spent_by_check: Object.fromEntries(ctx.ledger.byCheck),
    calls_checked: ctx.ledger.exchanges,
    operations: operationCalls(ctx.ledger.operations),
    calls_without_operation: ctx.ledger.operations.get(null) ?? 0,
    ...(ctx.config.useControl ? { use_control: true as const } : {}),
    ...(ctx.setupError ? { setup_error: ctx.setupError } : {}),
    ...(ctx.model === null
      ? {}
      : {
          model: { source: ctx.model, judged: ctx.ledger.modelJudged, warnings: ctx.ledger.modelWarnings.slice(0, 20) },
        }),
    properties,
    rules,
    matrix,
    score: matrixScore(matrix),
    summary: {
      documented: tally('documented'),
      assumed: tally('assumed'),
      skipped: properties.filter((p) => p.status === 'skipped').length,
      coverage: Object.fromEntries(
        (['every case', 'some cases', 'not reached'] as const).map((c) => [
          c,
          properties.filter((p) => p.coverage === c).length,
        ]),
      ) as Record<Coverage, number>,
    },
  };
}

/** The report of a run with several keys: each key's report, and the matrix and score over all of them. */
export interface MergedReport {
  plans: PlanId[];
  reports: Report[];
  matrix: MatrixResult[];
  score: MatrixScore;
  /** Rows no key that ran could check: each needs a key of another plan. */
  missing: string[];
  /** Plans whose key was given but whose suite wrote no report (it could not start). */
  failed_keys: PlanId[];
  /** Once a run, whatever the keys (see Report.diff). */
  diff?: DiffSection;
}

export function mergeReports(reports: Report[], plans: PlanId[], failed: PlanId[] = []): MergedReport {
  const matrix = mergeMatrix(
    reports.map((r) => r.matrix),
    plans,
  );
  return {
    plans,
    reports,
    matrix,
    score: matrixScore(matrix),
    missing: matrix.filter((r) => r.reason?.startsWith('needs a key of')).map((r) => r.id),
    failed_keys: failed,
  };
}

export function writeReport(file: string, report: Report): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
