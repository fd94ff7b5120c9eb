/** The report as the CLI prints it at the end of a run, and a wall time as a reader says it. */
import { cutBody } from '../shown/cut-body.ts';
import { diffSummaryLines } from '../diff/diff-lines.ts';
import { expectedGot } from '../shown/failure-text.ts';
import { matrixLines, scoreLine } from '../rule-matrix/matrix-lines.ts';
import type { RuleExample, RuleResult } from '../core/rule-results.ts';
import type { PropertyResult } from '../core/run.ts';
import type { BasisTally, Report } from './report.ts';

/**
 * The summary of a run, printed once at its end: the rules, the properties and the matrix rows,
 * each counted apart under its own name; each broken property and rule whole (what it expected,
 * what it got, the line that replays it), a rule once however many properties its findings broke,
 * its examples one line a kind with their count; what was spent; the rule matrix's score (left to
 * the merged report's line with `matrix: false`). The progress lines have said the rest.
 */
export function formatReport(report: Report, { matrix = true }: { matrix?: boolean } = {}): string {
  const brokenRules = report.rules.filter((r) => r.violations);
  // After a failed set-up every property fails with it: said once, below the tally.
  const failed = report.properties.filter((p) => p.failure && p.failure.message !== report.setup_error);
  const own = failed.filter((p) => !p.failure!.rules?.length);
  const stopped = failed.filter((p) => p.failure!.rules?.length);
  const indent = (text: string): string => text.split('\n').join('\n      ');
  const replayOf = (p: PropertyResult) =>
    p.failure!.replay ? `\n      replay: ${p.failure!.rerun ?? p.failure!.replay}` : '';
  const broken = [
    // The case that broke it, cut (a long path or body in it would push the rest off the screen),
    // then the line that replays it.
    ...own.map(
      (p) =>
        `  broken ${p.id}: ${indent(p.failure!.message)}` +
        (p.failure!.counterexample ? `\n      counterexample: ${cutBody(p.failure!.counterexample, 300)}` : '') +
        replayOf(p),
    ),
    ...brokenRules.map((r) => {
      const alone = stopped.filter((p) => p.failure!.rules!.includes(r.id));
      return (
        `  broken rule ${r.id}: ${indent(ruleFailureText(r, report.calls_checked))}` +
        (alone.length
          ? `\n      its findings alone broke ${listed(alone.map((p) => p.id))}; the first replays with:` +
            replayOf(alone[0]!)
          : '')
      );
    }),
  ];
  const tally = report.summary;
  const basis = (b: BasisTally) =>
    `${b.passed} held, ${b.failed} broken` +
    (b.stopped_by_rule ? `, ${b.stopped_by_rule} stopped by a broken rule` : '');
  return [
    `contract tests: ${report.plan} key at ${report.base_url}, seed ${report.seed}`,
    `  rules (each judges every call): ${rulesLine(report)}`,
    `  properties: ${propertiesLine(report)}`,
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
    ...(report.model ? [modelLine(report.model)] : []),
    ...broken,
    `  spent ${report.spent.calls} of ${report.budget.calls} calls and ${report.spent.rows} ` +
      `of ${report.budget.rows} ` +
      `rows${report.budget_why ? ` (${report.budget_why})` : ''}` +
      (report.wall_ms === undefined ? '' : `, in ${duration(report.wall_ms)}`) +
      (report.answers_shared ? `; ${report.answers_shared} reads answered from what the run held` : ''),
    // A run of several keys says the score once, over all of them.
    ...(matrix ? [`  ${scoreLine(report.score)}`, ...matrixLines(report.matrix).map((line) => `  ${line}`)] : []),
    `  properties and rules by basis: documented (the spec) ${basis(tally.documented)}; ` +
      `assumed (x-assumed) ${basis(tally.assumed)}; ${tally.skipped} not reached`,
  ].join('\n');
}

/** The rules in the tally: how many broke, naming them, and how many held. */
function rulesLine(report: Report): string {
  const broken = report.rules.filter((r) => r.violations).map((r) => r.id);
  const named = broken.length ? ` (${broken.join(', ')})` : '';
  return `${broken.length} broken${named}, ${report.rules.length - broken.length} held`;
}

/**
 * The properties in the tally: broken by their own checks, stopped by a broken rule's findings
 * alone (counted as the rule's failure), held on every case or some, and not reached.
 */
function propertiesLine(report: Report): string {
  const of = (status: string) => report.properties.filter((p) => p.status === status);
  // Held properties by how much of them ran; a report from before coverage was counted says held alone.
  const held = of('passed');
  const heldText = held.some((p) => p.coverage)
    ? `${held.length} held (${held.filter((p) => p.coverage === 'every case').length} checked on every case, ` +
      `${held.filter((p) => p.coverage === 'some cases').length} on some cases)`
    : `${held.length} held`;
  const failed = of('failed');
  const byRule = failed.filter((p) => p.failure?.rules?.length);
  const rules = [...new Set(byRule.flatMap((p) => p.failure!.rules!))];
  const stopped = byRule.length ? `, ${byRule.length} stopped by a broken rule (${rules.join(', ')})` : '';
  const own = failed.filter((p) => !p.failure?.rules?.length).map((p) => p.id);
  const named = own.length ? ` (${listed(own)})` : '';
  return `${own.length} broken${named}${stopped}, ${heldText}, ${of('skipped').length} not reached`;
}

/**
 * A broken rule's failure, said once: what it expects, how many calls broke it and where the run
 * was, then an example of each kind (the first five kinds) with how many calls showed it.
 */
export function ruleFailureText(r: RuleResult, calls: number): string {
  const during = r.during?.length ? `, during ${listed(r.during)}` : '';
  // A report from before examples were grouped has no kinds: its examples are the first calls.
  const kinds =
    r.kinds === undefined
      ? ', for example'
      : r.kinds === 1
        ? ', all of one kind'
        : `; ${r.kinds} kinds, a line each${r.kinds > r.examples.length ? ` (the first ${r.examples.length})` : ''}`;
  return expectedGot(
    '',
    r.title,
    `${count(r.violations, 'violation')} in ${count(calls, 'call')}${during}${kinds}:\n` +
      r.examples.map(exampleLine).join('\n'),
  );
}

/** An example of a rule's violations: the first call of its kind, and how many more, where. */
export function exampleLine(example: RuleExample | string): string {
  // A report from before examples were grouped holds each as its text.
  if (typeof example === 'string') return example;
  return example.count > 1
    ? `${example.text} (×${example.count.toLocaleString('en')}, during ${listed(example.during)})`
    : `${example.text} (during ${example.during.join(', ')})`;
}

/** Names as a list that stays short: the first five and how many more. */
export function listed(names: readonly string[]): string {
  return names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
}

const count = (n: number, one: string): string => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

/** A wall time as a reader says it: 48 s, 3 min 5 s. */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The model's line: what it was built on, how many calls it judged, and its warnings (the kit's reading). */
function modelLine(model: NonNullable<Report['model']>): string {
  const warned = model.warnings.length
    ? `; ${model.warnings.length} differences no sentence fixes (the kit's reading, failing nothing), the first: ` +
      model.warnings[0]
    : '';
  return `  model    ${model.judged} calls judged against the kit's engine on ${model.source}${warned}`;
}
