/** The report as the CLI prints it at the end of a run, and a wall time as a reader says it. */
import { cutBody } from '../client/cut-body.ts';
import { diffSummaryLines } from '../diff/diff-lines.ts';
import { expectedGot } from './failure-text.ts';
import { scoreLine, unreachedLines } from '../rule-matrix/matrix-results.ts';
import type { Report } from './report.ts';

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
          `  broken ${p.id}: ${indent(p.failure!.message)}` +
          (p.failure!.counterexample ? `\n      counterexample: ${cutBody(p.failure!.counterexample, 300)}` : '') +
          (p.failure!.replay ? `\n      replay: ${p.failure!.rerun ?? p.failure!.replay}` : ''),
      ),
    ...report.rules
      .filter((r) => r.violations)
      .map(
        (r) =>
          `  broken rule ${r.id}: ` +
          indent(
            expectedGot(
              '',
              r.title,
              `${r.violations} violation${r.violations === 1 ? '' : 's'} in ${report.calls_checked} ` +
                `call${report.calls_checked === 1 ? '' : 's'}, for example:\n${r.examples.join('\n')}`,
            ),
          ),
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
      `rows${report.budget_why ? ` (${report.budget_why})` : ''}` +
      (report.wall_ms === undefined ? '' : `, in ${duration(report.wall_ms)}`) +
      (report.answers_shared ? `; ${report.answers_shared} reads answered from what the run held` : ''),
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
