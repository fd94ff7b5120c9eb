/** The run's report: what ran against documented and against assumed behaviour, and what it cost. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { operationCalls } from './calls-shown.ts';
import type { Budget, Spending } from '../client/client.ts';
import type { SuiteContext } from '../core/context.ts';
import type { PlanId } from '@investor-graph/contract';
import { cutBody } from '../client/cut-body.ts';
import { diffSummaryLines } from '../diff/diff-lines.ts';
import { expectedGot } from './failure-text.ts';
import {
  matrixResults,
  matrixScore,
  mergeMatrix,
  scoreLine,
  unreachedLines,
  type MatrixResult,
  type MatrixScore,
} from '../rule-matrix/matrix-results.ts';
import type { RunPlan } from '../core/plan.ts';
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
  properties: PropertyResult[];
  rules: RuleResult[];
  /** Every rule of the spec and of DECISIONS.md (rule-matrix/rule-matrix.ts) with its outcome in this run. */
  matrix: MatrixResult[];
  /** Rules checked and held, as a score to track from run to run. */
  score: MatrixScore;
  summary: {
    documented: { passed: number; failed: number };
    assumed: { passed: number; failed: number };
    skipped: number;
    /** Properties by how much of them ran (run.ts's coverage). */
    coverage?: Record<Coverage, number>;
  };
  /** The served contract against the kit's (or a baseline), which the CLI's run starts with (diff.ts). */
  diff?: DiffSection;
}

/**
 * One change between two contracts, as oasdiff names it: its check's id, the operation (`GET
 * /api/v1/firms`) and what changed.
 */
export interface DiffChange {
  id: string;
  operation?: string;
  text: string;
}

/**
 * The diff of the served contract against the kit's contract (`against: 'kit'`) or a baseline file
 * (its path): failed when a change breaks clients, or, with the reason (also its one breaking
 * entry), when there was no contract it could read; not-run, with the reason, when there is no oasdiff.
 */
export interface DiffSection {
  status: 'passed' | 'failed' | 'not-run';
  /** `kit`, or the baseline file's path. */
  against: string;
  reason?: string;
  breaking: DiffChange[];
  non_breaking: DiffChange[];
}

export function buildReport(ctx: SuiteContext, properties: PropertyResult[], wallMs?: number): Report {
  const rules = ruleResults(ctx);
  const tally = (basis: 'documented' | 'assumed') => ({
    passed:
      properties.filter((p) => p.basis === basis && p.status === 'passed').length +
      rules.filter((r) => r.basis === basis && r.violations === 0).length,
    failed:
      properties.filter((p) => p.basis === basis && p.status === 'failed').length +
      rules.filter((r) => r.basis === basis && r.violations > 0).length,
  });
  const matrix = matrixResults({
    properties: new Map(
      properties.map((p) => [
        p.id,
        { status: p.status, coverage: p.coverage, ...(p.reason ? { reason: p.reason } : {}) },
      ]),
    ),
    rules: new Map(rules.map((r) => [r.id, r.violations])),
    calls: ctx.ledger.exchanges,
    plan: ctx.config.plan,
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

/**
 * The summary of a run, printed once at its end: how many properties and rules held, broke or were
 * skipped, each broken one whole (what it expected, what it got, the line that replays it), what
 * was spent, and the rule matrix's score (left to the merged report's line with `matrix: false`).
 * The progress lines have said the rest, one per property.
 */
export function formatReport(report: Report, { matrix = true }: { matrix?: boolean } = {}): string {
  const tally = (statuses: string[]) =>
    (['held', 'broken', 'skipped'] as const)
      .map((s) => [s, statuses.filter((x) => x === s).length] as const)
      .filter(([s, n]) => n || s !== 'skipped')
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
  // Held properties by how much of them ran; a report from before coverage was counted says held alone.
  const held = report.properties.filter((p) => p.status === 'passed');
  const heldText = held.some((p) => p.coverage)
    ? `${held.filter((p) => p.coverage === 'every case').length} checked on every case, ` +
      `${held.filter((p) => p.coverage === 'some cases').length} on some cases`
    : `${held.length} held`;
  const propertiesLine =
    `${heldText}, ${report.properties.filter((p) => p.status === 'failed').length} broken, ` +
    `${report.properties.filter((p) => p.status === 'skipped').length} not reached`;
  const indent = (text: string): string => text.split('\n').join('\n      ');
  const broken = [
    // After a failed set-up every property fails with it: said once, below the tally.
    // The case that broke it, cut (a long path or body in it would push the rest off the screen),
    // then the line that replays it.
    ...report.properties
      .filter((p) => p.failure && p.failure.message !== report.setup_error)
      .map(
        (p) =>
          `  broken ${p.id}: ${indent(p.failure!.message)}${p.failure!.counterexample ? `\n      counterexample: ${cutBody(p.failure!.counterexample, 300)}` : ''}${p.failure!.replay ? `\n      replay: ${p.failure!.replay}` : ''}`,
      ),
    ...report.rules
      .filter((r) => r.violations)
      .map(
        (r) =>
          `  broken rule ${r.id}: ` +
          `${indent(expectedGot('', r.title, `${r.violations} violation${r.violations === 1 ? '' : 's'} in ${report.calls_checked} call${report.calls_checked === 1 ? '' : 's'}, for example:\n${r.examples.join('\n')}`))}`,
      ),
  ];
  return [
    `contract tests: ${report.plan} key at ${report.base_url}, seed ${report.seed}`,
    `  properties: ${propertiesLine}; rules: ${tally(report.rules.map((r) => (r.violations ? 'broken' : 'held')))}`,
    ...report.properties
      .filter((p) => p.status === 'passed' && p.coverage === 'some cases')
      .map(
        (p) =>
          `  some cases of ${p.id}: ${p.cases.boundary} of ${p.cases.boundaryTotal} boundary, ` +
          `${p.cases.generated} generated${p.stoppedByBudget ? ' (stopped by the budget)' : ''}`,
      ),
    // The served contract against the kit's, which the run started with (diff.ts).
    ...(report.diff ? diffSummaryLines(report.diff) : []),
    ...(report.setup_error ? [`  broken setup: ${report.setup_error}`] : []),
    ...broken,
    `  spent ${report.spent.calls} of ${report.budget.calls} calls and ${report.spent.rows} ` +
      `of ${report.budget.rows} ` +
      `rows${report.budget_why ? ` (${report.budget_why})` : ''}${report.wall_ms === undefined ? '' : `, in ${duration(report.wall_ms)}`}${report.answers_shared ? `; ${report.answers_shared} reads answered from what the run held` : ''}`,
    // A run of several keys says the score once, over all of them.
    ...(matrix ? [`  ${scoreLine(report.score)}`, ...unreachedLines(report.matrix).map((line) => `  ${line}`)] : []),
    `  documented: ${report.summary.documented.passed} passed, ` +
      `${report.summary.documented.failed} failed; assumed (x-assumed): ` +
      `${report.summary.assumed.passed} passed, ${report.summary.assumed.failed} failed; ` +
      `${report.summary.skipped} skipped`,
  ].join('\n');
}

/** A wall time as a reader says it: 48 s, 3 min 5 s. */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export function writeReport(file: string, report: Report): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
