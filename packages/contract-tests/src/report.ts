/** The run's report: what ran against documented and against assumed behaviour, and what it cost. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Budget, Spending } from './client.ts';
import type { SuiteContext } from './context.ts';
import type { PlanId } from '@investor-graph/contract';
import { matrixResults, matrixScore, mergeMatrix, scoreLine, unreachedLines, type MatrixResult, type MatrixScore } from './rule-matrix.ts';
import { ruleResults, type PropertyResult, type RuleResult } from './run.ts';

export interface Report {
  base_url: string;
  plan: string;
  seed: number;
  budget: Budget;
  spent: Spending;
  spent_by_check: Record<string, Spending>;
  calls_checked: number;
  /** What broke while the run got ready, when something did: no property could run. */
  setup_error?: string;
  properties: PropertyResult[];
  rules: RuleResult[];
  /** Every rule of the spec and of DECISIONS.md (src/rule-matrix.ts) with its outcome in this run. */
  matrix: MatrixResult[];
  /** Rules checked and held, as a score to track from run to run. */
  score: MatrixScore;
  summary: { documented: { passed: number; failed: number }; assumed: { passed: number; failed: number }; skipped: number };
}

export function buildReport(ctx: SuiteContext, properties: PropertyResult[]): Report {
  const rules = ruleResults(ctx);
  const tally = (basis: 'documented' | 'assumed') => ({
    passed: properties.filter((p) => p.basis === basis && p.status === 'passed').length + rules.filter((r) => r.basis === basis && r.violations === 0).length,
    failed: properties.filter((p) => p.basis === basis && p.status === 'failed').length + rules.filter((r) => r.basis === basis && r.violations > 0).length,
  });
  const matrix = matrixResults({
    properties: new Map(properties.map((p) => [p.id, { status: p.status, ...(p.reason ? { reason: p.reason } : {}) }])),
    rules: new Map(rules.map((r) => [r.id, r.violations])),
    calls: ctx.ledger.exchanges,
    plan: ctx.config.plan,
  });
  return {
    base_url: ctx.config.baseUrl,
    plan: ctx.config.plan,
    seed: ctx.config.seed,
    budget: ctx.config.budget,
    spent: { ...ctx.ledger.total },
    spent_by_check: Object.fromEntries(ctx.ledger.byCheck),
    calls_checked: ctx.ledger.exchanges,
    ...(ctx.setupError ? { setup_error: ctx.setupError } : {}),
    properties,
    rules,
    matrix,
    score: matrixScore(matrix),
    summary: { documented: tally('documented'), assumed: tally('assumed'), skipped: properties.filter((p) => p.status === 'skipped').length },
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
}

export function mergeReports(reports: Report[], plans: PlanId[], failed: PlanId[] = []): MergedReport {
  const matrix = mergeMatrix(reports.map((r) => r.matrix), plans);
  return { plans, reports, matrix, score: matrixScore(matrix), missing: matrix.filter((r) => r.reason?.startsWith('needs a key of')).map((r) => r.id), failed_keys: failed };
}

export function formatReport(report: Report): string {
  const line = (p: PropertyResult): string =>
    `  ${p.status === 'passed' ? 'ok  ' : p.status === 'failed' ? 'FAIL' : 'skip'} ${p.id.padEnd(15)} ${p.basis.padEnd(10)} ${String(p.runs).padStart(3)} cases, ${p.spent.calls} calls, ${p.spent.rows} rows${p.reason ? `  (${p.reason})` : ''}${p.stoppedByBudget ? '  (stopped by the budget)' : ''}${p.failure ? `\n       replay: ${p.failure.replay}\n       ${p.failure.message.split('\n').join('\n       ')}` : ''}`;
  return [
    `contract tests: ${report.plan} key at ${report.base_url}, seed ${report.seed}`,
    ...(report.setup_error ? [`  FAIL setup: ${report.setup_error}`] : []),
    ...report.properties.map(line),
    ...report.rules.map((r) => `  ${r.violations ? 'FAIL' : 'ok  '} rule ${r.id.padEnd(18)} ${r.basis.padEnd(10)} ${r.violations} violations in ${report.calls_checked} calls${r.examples[0] ? `\n       ${r.examples[0]}` : ''}`),
    `  spent ${report.spent.calls} of ${report.budget.calls} calls and ${report.spent.rows} of ${report.budget.rows} rows`,
    `  ${scoreLine(report.score)}`,
    ...unreachedLines(report.matrix).map((line) => `  ${line}`),
    `  documented: ${report.summary.documented.passed} passed, ${report.summary.documented.failed} failed; assumed (x-assumed): ${report.summary.assumed.passed} passed, ${report.summary.assumed.failed} failed; ${report.summary.skipped} skipped`,
  ].join('\n');
}

export function writeReport(file: string, report: Report): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
