/**
 * The contract tests' HTML report (--html FILE): one page made from the JSON report the run wrote
 * (one key's, or the merged report of several), that a person opens offline. The run: where, which
 * plan, seed, budget and spending, the score; the served contract's diff when the run made one;
 * each failure with its calls and the lines that replay it (html-failures.ts); the rule matrix
 * (html-matrix.ts); which operations the run called, and how often; each property's outcome. The
 * frame (CSS, escaping, no script, nothing fetched) is @investor-graph/cli/html-page's.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { operations } from '@investor-graph/contract';
import { badge, html, page, table, type Html } from '@investor-graph/cli/html-page';
import { withoutKeys } from '../shown/failure-text.ts';
import { failuresOf } from './html-failures.ts';
import { matrixSection } from './html-matrix.ts';
import { coverageText } from './property-lines.ts';
import type { DiffChange, DiffSection } from '../diff/diff.ts';
import type { BasisTally, MergedReport, Report } from './report.ts';
import { duration } from './report-text.ts';
import { scoreLine } from '../rule-matrix/matrix-lines.ts';

const isMerged = (report: Report | MergedReport): report is MergedReport => 'reports' in report;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Whether a key's run broke anything: a property, a rule, or its set-up. */
function broke(report: Report): boolean {
  return (
    !!report.setup_error ||
    report.properties.some((p) => p.status === 'failed') ||
    report.rules.some((r) => r.violations > 0)
  );
}

/**
 * The verdict line: what broke, counted (a rule once, with the properties its findings alone
 * broke), or that everything held.
 */
function verdict(report: Report | MergedReport): { ok: boolean; text: string } {
  const reports = isMerged(report) ? report.reports : [report];
  const failed = reports.flatMap((r) =>
    r.properties.filter((p) => p.status === 'failed' && p.failure?.message !== r.setup_error),
  );
  const properties = failed.filter((p) => !p.failure?.rules?.length).length;
  const stopped = failed.length - properties;
  const rules = reports.flatMap((r) => r.rules.filter((x) => x.violations > 0)).length;
  const broken = [
    ...reports.filter((r) => r.setup_error).map((r) => `the ${r.plan} run could not get ready`),
    ...(properties ? [`${properties} propert${properties === 1 ? 'y' : 'ies'} broke`] : []),
    ...(rules
      ? [
          `${plural(rules, 'rule')} broke` +
            (stopped
              ? ` (${stopped} propert${stopped === 1 ? 'y' : 'ies'} stopped by ${rules === 1 ? 'it' : 'them'})`
              : ''),
        ]
      : []),
    ...(isMerged(report) && report.failed_keys.length
      ? [`no report from the ${report.failed_keys.join(', ')} key`]
      : []),
    ...(report.diff?.status === 'failed'
      ? [`${plural(report.diff.breaking.length, 'breaking change')} in the served contract`]
      : []),
  ];
  const ok = !broken.length && reports.every((r) => !broke(r));
  return { ok, text: ok ? 'PASSED: every property and rule held' : `FAILED: ${broken.join(', ')}` };
}

/** One key's run: where, what plan, seed, budget and what it spent. */
function runFacts(report: Report): Html {
  const s = report.summary;
  const why = report.budget_why ? html` <span class="muted">(${report.budget_why})</span>` : '';
  const took = report.wall_ms === undefined ? '' : `, in ${duration(report.wall_ms)}`;
  const passed = (coverage: boolean) =>
    report.properties.filter((p) => p.status === 'passed' && (p.coverage === 'some cases') === coverage).length;
  const of = (status: string) => report.properties.filter((p) => p.status === status).length;
  const stopped = report.properties.filter((p) => p.status === 'failed' && p.failure?.rules?.length).length;
  const basis = (b: BasisTally) =>
    `${b.passed} held, ${b.failed} broken${b.stopped_by_rule ? `, ${b.stopped_by_rule} stopped by a broken rule` : ''}`;
  const rules = report.rules.filter((r) => r.violations > 0).length;
  return html`<dl class="facts"><dt>base URL</dt><dd><code>${report.base_url}</code></dd>\
<dt>plan</dt><dd>${report.plan}</dd><dt>seed</dt><dd>${report.seed}</dd>
<dt>budget</dt><dd>${report.budget.calls} calls, ${report.budget.rows} rows${why}</dd>\
<dt>spent</dt><dd>${report.spent.calls} calls, ${report.spent.rows} rows \
(${plural(report.calls_checked, 'call')} checked against every rule)${took}</dd>
<dt>rules</dt><dd>${badge('failed', `broken ${rules}`)} ${badge('passed', `held ${report.rules.length - rules}`)}</dd>
<dt>properties</dt><dd>${badge('failed', `broken ${of('failed') - stopped}`)} \
${badge('rests on a broken rule', `stopped by a broken rule ${stopped}`)} \
${badge('passed', `checked on every case ${passed(false)}`)} ${badge('passed', `on some cases ${passed(true)}`)} \
${badge('skipped', `not reached ${of('skipped')}`)}</dd>
<dt>by basis: documented (the spec)</dt><dd>${basis(s.documented)}</dd>\
<dt>assumed (x-assumed)</dt><dd>${basis(s.assumed)}</dd>
${report.use_control ? html`<dt>control API</dt><dd>driven (--use-control)</dd>` : ''}</dl>`;
}

/** Each property: its outcome, cases, spending, and why it was skipped. */
function propertiesTable(report: Report): Html {
  return table(
    ['property', 'outcome', 'cases', 'spent', 'basis', 'why'],
    report.properties.map((p) => ({
      state: p.status,
      cells: [
        p.failure ? html`<a href="${`#property-${p.id}`}"><code>${p.id}</code></a>` : html`<code>${p.id}</code>`,
        p.failure?.rules?.length
          ? badge('rests on a broken rule', `stopped by rule ${p.failure.rules.join(', ')}`)
          : badge(p.status, p.status === 'passed' ? 'held' : p.status === 'failed' ? 'broken' : 'skipped'),
        // Checked on every case, on some cases, or not reached (run.ts), as the summary says it.
        p.status === 'skipped' ? 'not reached' : coverageText(p),
        `${p.spent.calls} calls, ${p.spent.rows} rows`,
        p.basis === 'assumed' ? `assumed (${p.assumed.join(', ')})` : 'documented',
        withoutKeys(p.reason ?? (p.stoppedByBudget ? 'stopped by the budget' : '')),
      ],
    })),
  );
}

/** The calls of every operation of the contract, summed over the keys: the operations no call reached stand out. */
function operationsSection(reports: Report[]): Html {
  // A report written before operations were counted has none: say so rather than show zeros.
  if (!reports.some((r) => r.operations))
    return html`<section id="operations"><h2>Operations covered</h2>\
<p class="muted">This report does not count calls by operation.</p></section>`;
  const calls = (id: string) => reports.reduce((sum, r) => sum + (r.operations?.[id] ?? 0), 0);
  const covered = operations.filter((o) => calls(o.operationId) > 0).length;
  const without = reports.reduce((sum, r) => sum + (r.calls_without_operation ?? 0), 0);
  const elsewhere = without
    ? `; ${plural(without, 'call')} for no operation of the contract ` +
      '(paths and methods it does not have, checked for their error)'
    : '';
  return html`<section id="operations"><h2>Operations covered</h2>
<p>${covered} of ${operations.length} operations of the contract called${elsewhere}.</p>
${table(
  ['operation', 'method and path', 'calls'],
  operations.map((o) => {
    const n = calls(o.operationId);
    return {
      state: n ? 'held' : 'skipped',
      cells: [
        html`<code>${o.operationId}</code>`,
        html`<code>${o.method} ${o.path}</code>`,
        n ? String(n) : badge('skipped', 'not called'),
      ],
    };
  }),
)}</section>`;
}

/** The served contract's changes against the kit's (or a baseline): breaking first. */
function diffSection(diff: DiffSection): Html {
  const against = diff.against === 'kit' ? "the kit's contract" : diff.against;
  const row = (state: string) => (c: DiffChange) => ({
    state,
    cells: [html`<code>${c.id}</code>`, c.operation ? html`<code>${c.operation}</code>` : '', withoutKeys(c.text)],
  });
  const changes = (title: string, list: DiffChange[], state: string) =>
    list.length
      ? html`<h3>${title} (${list.length})</h3>${table(['change', 'operation', 'what changed'], list.map(row(state)))}`
      : '';
  const ran = diff.status !== 'not-run';
  // A served contract that could not be read was compared with nothing: its reason is the whole
  // story (it is also the one breaking entry, which would only say it again).
  const unreadable =
    diff.status === 'failed' && diff.breaking.length === 1 && diff.breaking[0]!.id === 'contract-unreadable';
  // A diff that did not run, or had no contract to compare, says why in place of its counts.
  const counts = !ran
    ? (diff.reason ?? '')
    : unreadable
      ? html`no contract to compare: ${diff.reason ?? ''}`
      : `${plural(diff.breaking.length, 'breaking change')}, ${plural(diff.non_breaking.length, 'other change')}`;
  const note = ran && !unreadable && diff.reason ? html` <span class="muted">${diff.reason}</span>` : '';
  const breaking = unreadable ? '' : changes('Breaking', diff.breaking, 'broken');
  return html`<section id="diff"><h2>The served contract against ${against}</h2>
<p>${badge(diff.status, ran ? diff.status : 'not run')} ${counts}${note}</p>
${breaking}${changes('Not breaking', diff.non_breaking, 'held')}</section>`;
}

/** What a run of several keys says of them: how many, which wrote no report, how many rows need another plan's key. */
function keysLine(r: MergedReport): Html {
  const failed = r.failed_keys.length
    ? ` No report from the ${r.failed_keys.join(', ')} key: its suite could not start.`
    : '';
  const missing = r.missing.length
    ? ` ${plural(r.missing.length, 'row')} of the matrix ` +
      `need${r.missing.length === 1 ? 's' : ''} a key of another plan.`
    : '';
  const keys = `${plural(r.reports.length, 'key')} (${r.plans.join(', ')})`;
  return html`<p>${keys}, each with an even share of the budget.${failed}${missing}</p>`;
}

/** The whole page for a report: one key's, or the merged one of several keys. */
export function renderHtmlReport(r: Report | MergedReport): string {
  const reports = isMerged(r) ? r.reports : [r];
  const base = reports[0]?.base_url ?? '';
  const plans = isMerged(r) ? r.plans : [r.plan];
  const failures = reports.map((k) => [k, failuresOf(k)] as const).filter(([, f]) => f !== null);
  const sections = [
    r.diff ? ['diff', 'contract diff'] : null,
    failures.length ? ['failures', 'failures'] : null,
    ['matrix', 'rule matrix'],
    ['operations', 'operations covered'],
    ['properties', 'properties'],
  ];
  const nav = sections
    .filter((x) => x !== null)
    .map(([id, name], i) => html`${i ? ' · ' : ''}<a href="${`#${id}`}">${name}</a>`);
  const keyHeading = (k: Report) => (isMerged(r) ? html`<h3>The ${k.plan} key</h3>` : '');
  const failuresPart = failures.length
    ? html`<section id="failures"><h2>Failures</h2>${failures.map(([k, f]) => html`${keyHeading(k)}${f}`)}</section>`
    : '';
  const body = html`<p class="muted">Contract tests of ${plans.join(', ')} key${plans.length > 1 ? 's' : ''} \
at <code>${base}</code>. Every call's key is blanked; a replay reads it from INVESTOR_GRAPH_KEY.</p>
<nav>${nav}</nav>
<section id="run"><h2>The run</h2>${isMerged(r) ? keysLine(r) : ''}
<p><b>Score:</b> ${scoreLine(r.score)}</p>
${reports.map((k) => html`${keyHeading(k)}${runFacts(k)}`)}</section>
${r.diff ? diffSection(r.diff) : ''}
${failuresPart}
${matrixSection(r.matrix, r.score)}
${operationsSection(reports)}
<section id="properties"><h2>Properties</h2>${reports.map((k) => html`${keyHeading(k)}${propertiesTable(k)}`)}</section>
<p class="muted">Written by investor-graph-contract-tests from its JSON report.</p>`;
  return page({ title: `Contract tests: ${plans.join(', ')} at ${base}`, verdict: verdict(r), body });
}

/** Reads the JSON report the run wrote at `reportFile` and writes its page at `htmlFile`. */
export function writeHtmlReport(reportFile: string, htmlFile: string): void {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report | MergedReport;
  mkdirSync(dirname(htmlFile), { recursive: true });
  writeFileSync(htmlFile, renderHtmlReport(report));
}
