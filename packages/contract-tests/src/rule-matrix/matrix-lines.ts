/**
 * The rule matrix of a run as the summary says it: the score in a line, the rows resting on a
 * broken rule, and the rows the run did not reach, a line per reason.
 */
import { matrix } from './rule-matrix.ts';
import type { MatrixResult, MatrixScore } from './matrix-results.ts';

const sentenceOf = new Map(matrix.map((row) => [row.id, row.rule]));

/**
 * The rows a run did not reach, grouped by why (a key of another plan, a flag, the budget), a line
 * a reason: what a user adds to check them.
 */
export function unreachedLines(results: MatrixResult[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const r of results)
    if (r.outcome === 'skipped')
      byReason.set(r.reason ?? 'none of its checks ran', [
        ...(byReason.get(r.reason ?? 'none of its checks ran') ?? []),
        r.id,
      ]);
  return [...byReason]
    .sort((a, b) => b[1].length - a[1].length)
    .map(
      ([reason, ids]) =>
        `not reached: ${ids.length} row${ids.length === 1 ? '' : 's'} ` +
        `(${ids.slice(0, 4).join(', ')}${ids.length > 4 ? ', ...' : ''}): ${reason}`,
    );
}

/**
 * The rows that rest on a broken rule, a line for each set of rules: the first row's sentence and
 * how many more, said as unproven, since the rule's failure does not say which of them broke.
 */
export function restingLines(results: MatrixResult[]): string[] {
  const byRules = new Map<string, MatrixResult[]>();
  for (const r of results)
    if (r.outcome === 'rests on a broken rule') {
      const rules = (r.broken_rules ?? []).join(', ');
      byRules.set(rules, [...(byRules.get(rules) ?? []), r]);
    }
  return [...byRules].map(([rules, rows]) => {
    const said = sentenceOf.get(rows[0]!.id) ?? rows[0]!.id;
    const cut = said.length > 70 ? `${said.slice(0, 69)}…` : said;
    const more = rows.length > 1 ? ` and ${rows.length - 1} more` : '';
    return (
      `${rows.length} row${rows.length === 1 ? '' : 's'} rest on broken rule${rules.includes(',') ? 's' : ''} ` +
      `${rules} (unproven, not broken): '${cut}' (${rows[0]!.id})${more}`
    );
  });
}

/** The rows of a run's matrix that did not hold, a line a reason: those resting on a rule, then those not reached. */
export function matrixLines(results: MatrixResult[]): string[] {
  return [...restingLines(results), ...unreachedLines(results)];
}

/** Rows whose checks ran but are not counted checked: covered by the model, or never shown to fail alone. */
const proven = (score: MatrixScore): string =>
  score.covered_by_model === undefined
    ? ''
    : ` of their own (no other sentence's); ${score.covered_by_model} more covered by the model`;
const unproven = (score: MatrixScore): string =>
  score.unproven ? ` (${score.unproven} of them held by checks never shown to fail on their sentence alone)` : '';

/**
 * The score in a line, as the CLI closes with it: matrix rows (sentences and contract spots), never
 * called rules, which the summary counts apart. A report from before rows resting on a rule were
 * told apart counts every checked row that did not hold as broken.
 */
export function scoreLine(score: MatrixScore): string {
  const coverage =
    score.every_case === undefined ? '' : ` (${score.every_case} on every case, ${score.some_cases} on some cases)`;
  const broken = score.broken ?? score.checked - score.held;
  return (
    `matrix rows: ${score.held} held, ${broken} broken, ${score.rests_on_broken_rule ?? 0} resting on a ` +
    `broken rule: ${score.checked} checked${coverage} of ${score.rows} sentences and contract spots ` +
    `(held: documented ${score.documented.held} of ${score.documented.checked}, assumed ` +
    `${score.assumed.held} of ${score.assumed.checked}); ${score.shown_to_fail} of the checked ` +
    `shown to fail on a fault${proven(score)}; ${score.skipped} not reached by this run, ` +
    `${score.not_checkable} not checkable from outside, ${score.not_checked_yet} not checked yet${unproven(score)}`
  );
}
