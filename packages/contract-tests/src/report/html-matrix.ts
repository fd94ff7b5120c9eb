/**
 * The rule matrix as the HTML report shows it: every row of the spec, of DECISIONS.md and of the
 * contract's x-assumed spots with its outcome in the run, grouped by section as the matrix is,
 * and for each row not checked the reason why. Radio buttons show one outcome alone (CSS: the
 * page has no script); a section with a broken row opens by itself.
 */
import { badge, html, stateFilter, table, type Html } from '@investor-graph/cli/html-page';
import { withoutKeys } from '../shown/failure-text.ts';
import { matrix } from '../rule-matrix/rule-matrix.ts';
import type { MatrixResult, MatrixScore, RowOutcome } from '../rule-matrix/matrix-results.ts';
import { scoreLine } from '../rule-matrix/matrix-lines.ts';

const outcomes: RowOutcome[] = [
  'broken',
  'rests on a broken rule',
  'held',
  'skipped',
  'not checkable',
  'not checked yet',
  'decided elsewhere',
];
const sentence = new Map(matrix.map((row) => [row.id, row.rule]));

/** The section a row belongs to: a spec section, a decision, or the contract's x-assumed spots together. */
function sectionOf(row: MatrixResult): string {
  return row.source.startsWith('x-assumed') ? 'the contract\u2019s x-assumed spots' : row.source;
}

/** How many rows of each outcome, as `held 4 · broken 1`. */
function tally(rows: MatrixResult[]): Html[] {
  return outcomes
    .map((o) => [o, rows.filter((r) => r.outcome === o).length] as const)
    .filter(([, n]) => n)
    .map(([o, n]) => badge(o, `${o} ${n}`));
}

/** Why a row is where it is: its reason, or the checks that held or broke it. */
function why(row: MatrixResult): Html {
  const checks = row.checks.length ? html`<code>${row.checks.join(', ')}</code>` : '';
  if (row.outcome === 'held' || row.outcome === 'broken' || row.outcome === 'rests on a broken rule') {
    // A rule's failure does not say which of the sentences it covers broke: the row is unproven.
    const rests =
      row.outcome === 'rests on a broken rule'
        ? html`unproven, not broken: rule <code>${(row.broken_rules ?? []).join(', ')}</code> broke; `
        : '';
    const coverage = row.coverage
      ? html`${row.coverage === 'some cases' ? 'checked on some cases' : 'checked on every case'}: `
      : '';
    const shown =
      row.proof === 'model'
        ? html` <span class="muted">(covered by the model; no fault breaks this sentence alone)</span>`
        : row.proof === 'none'
          ? html` <span class="muted">(not checked yet: never shown to fail on this sentence alone)</span>`
          : row.faults.length
            ? html` <span class="muted">(shown to fail on ${row.faults.join(', ')})</span>`
            : html` <span class="muted">(never shown to fail on a fault)</span>`;
    return html`${rests}${coverage}${checks}${shown}`;
  }
  const listed = checks ? html` <span class="muted">checks:</span> ${checks}` : '';
  if (row.outcome === 'skipped') return html`not reached: ${withoutKeys(row.reason ?? '')}${listed}`;
  return html`${withoutKeys(row.reason ?? '')}${listed}`;
}

/** The matrix section: the score, the filter, then a collapsible table per section. */
export function matrixSection(rows: MatrixResult[], score: MatrixScore): Html {
  const sections = new Map<string, MatrixResult[]>();
  for (const row of rows) sections.set(sectionOf(row), [...(sections.get(sectionOf(row)) ?? []), row]);
  return html`<section id="matrix"><h2>Rule matrix</h2>
<p>${scoreLine(score)}</p>
<div class="muted">Each sentence of the spec and of DECISIONS.md, and each x-assumed spot of the contract, \
with its outcome in this run and why a row was not checked. Show only:</div>
${stateFilter(
  'matrix',
  outcomes.map((state) => ({ state, count: rows.filter((r) => r.outcome === state).length })),
)}
${[...sections].map(([name, group]) => sectionDetails(name, group))}
</section>`;
}

/** A section of the matrix as a table that folds, open when a row of it broke (not one resting on a rule). */
function sectionDetails(name: string, group: MatrixResult[]): Html {
  const open = group.some((r) => r.outcome === 'broken') ? html` open` : '';
  return html`<details${open}><summary><b>${name}</b> ${tally(group)}</summary>
${table(
  ['row', 'outcome', 'what it says', 'checked by, or why not'],
  group.map((r) => ({
    state: r.outcome,
    cells: [html`<code class="wrap">${r.id}</code>`, badge(r.outcome), sentence.get(r.id) ?? '', why(r)],
  })),
)}</details>`;
}
