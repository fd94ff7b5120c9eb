/**
 * The failures of a run as the HTML report shows them: each broken property and rule with what
 * it expected and got, the calls that show it (request, answer, headers, body cut), and the two
 * command lines that replay it: curl for the call, the contract tests for the case. The key is
 * never in either: curl reads it from $INVESTOR_GRAPH_KEY, the contract tests too.
 */
import { badge, curlLine as curlOf, html, pre, type Html } from '@investor-graph/cli/html-page';
import type { ShownExchange } from '../shown/calls-shown.ts';
import { rerunLine, withoutKeys } from '../shown/failure-text.ts';
import type { Report } from './report.ts';
import { exampleLine, listed } from './report-text.ts';
import type { PropertyResult } from '../core/run.ts';
import type { RuleResult } from '../core/rule-results.ts';

/**
 * The curl line that makes the call again: the run's key from $INVESTOR_GRAPH_KEY, a key a check
 * chose left blanked.
 */
export function curlLine(baseUrl: string, x: ShownExchange): string {
  // Each value blanked before the line is made: blanking the line would take $INVESTOR_GRAPH_KEY
  // after Bearer for a key.
  return curlOf({
    method: x.method,
    url: withoutKeys(`${baseUrl}${x.path}`),
    headers: Object.fromEntries(Object.entries(x.request_headers).map(([name, value]) => [name, withoutKeys(value)])),
    ...(x.request_body === undefined ? {} : { body: withoutKeys(x.request_body) }),
    keyFromEnv: x.key === 'run',
  });
}

export { rerunLine } from '../shown/failure-text.ts';

/** A call as it went and came back, in the order HTTP writes it (folded but for `open`), and its curl line. */
export function exchangeBlock(baseUrl: string, x: ShownExchange, open = true): Html {
  const lines = [
    `${x.method} ${x.path}`,
    ...Object.entries(x.request_headers).map(([name, value]) => `${name}: ${value}`),
    ...(x.request_body === undefined ? [] : ['', x.request_body]),
    '',
    `-> ${x.status}`,
    ...Object.entries(x.headers).map(([name, value]) => `${name}: ${value}`),
    ...(x.body ? ['', x.body] : []),
  ];
  const status = badge(x.status >= 400 ? 'failed' : 'passed', String(x.status));
  const other =
    x.key === 'other' ? html` <span class="muted">(sent another key than the run's, chosen by the check)</span>` : '';
  const summary = html`<summary><code>${x.method} ${x.path}</code> -> ${status}${other}</summary>`;
  const replay = html`<div class="muted">replay the call:</div>${pre(curlLine(baseUrl, x), 'command')}`;
  return html`<details class="exchange"${open ? html` open` : ''}>${summary}
${pre(withoutKeys(lines.join('\n')))}${replay}</details>`;
}

function propertyFailure(report: Report, p: PropertyResult): Html {
  const f = p.failure!;
  const heading = html`<h3>${badge('broken')} property <code>${p.id}</code>: ${p.title}</h3>`;
  const calls = f.exchanges ?? [];
  const said = calls.length === 1 ? 'its call' : `its calls (the last ${calls.length})`;
  const shown = calls.length
    ? html`<div class="muted">${said}:</div>${calls.map((x, i) => exchangeBlock(report.base_url, x, i === 0))}`
    : '';
  return html`<div class="failure" id="${`property-${p.id}`}">${heading}
${pre(withoutKeys(f.message))}
${f.counterexample ? html`<div class="muted">the case that broke it:</div>${pre(withoutKeys(f.counterexample))}` : ''}
${shown}
${again(report, p)}</div>`;
}

/** The line that runs a property's failing case again, when it has one. */
function again(report: Report, p: PropertyResult): Html | string {
  const f = p.failure!;
  return f.replay
    ? html`<div class="muted">run the case again (the key in INVESTOR_GRAPH_KEY):</div>\
${pre(f.rerun ?? rerunLine(report, f.replay), 'command')}`
    : '';
}

/**
 * A broken rule, once for the run: how many calls broke it and during what, an example of each
 * kind with how many calls showed it and the first such call, then the properties its findings
 * alone broke (each an anchor, so a link to the property lands here) and the line replaying the first.
 */
function ruleFailure(report: Report, r: RuleResult): Html {
  const heading = html`<h3>${badge('broken')} rule <code>${r.id}</code>: ${r.title}</h3>`;
  const calls = `${report.calls_checked} call${report.calls_checked === 1 ? '' : 's'}`;
  const during = r.during?.length ? `, during ${listed(r.during)}` : '';
  const kinds = (r.kinds ?? r.examples.length) > r.examples.length ? `; the first ${r.examples.length} kinds` : '';
  const examples = r.examples.map((example, i) => {
    const call = r.exchanges?.[i];
    return html`${pre(withoutKeys(exampleLine(example)))}${call ? exchangeBlock(report.base_url, call, i === 0) : ''}`;
  });
  const alone = report.properties.filter((p) => p.failure?.rules?.includes(r.id));
  const stopped = alone.length
    ? html`${alone.map((p) => html`<span id="${`property-${p.id}`}"></span>`)}\
<p>Its findings alone broke ${alone.length === 1 ? 'the property' : `${alone.length} properties`} \
${alone.map((p, i) => html`${i ? ', ' : ''}<code>${p.id}</code>`)} (their own checks held on the case).</p>\
${again(report, alone[0]!)}`
    : '';
  return html`<div class="failure" id="${`rule-${r.id}`}">${heading}
<p>${r.violations} violation${r.violations === 1 ? '' : 's'} in ${calls}${during}${kinds}, \
each kind once with how many calls showed it:</p>
${examples}${stopped}</div>`;
}

/** Every failure of one key's run, the set-up's first; null when nothing broke. */
export function failuresOf(report: Report): Html | null {
  // After a failed set-up every property fails with it: said once. A property a rule's findings
  // alone broke is said with the rule, once.
  const properties = report.properties.filter(
    (p) => p.failure && p.failure.message !== report.setup_error && !p.failure.rules?.length,
  );
  const rules = report.rules.filter((r) => r.violations > 0);
  if (!properties.length && !rules.length && !report.setup_error) return null;
  const setup = report.setup_error
    ? html`<div class="failure"><h3>${badge('broken')} the run could not get ready</h3>\
${pre(withoutKeys(report.setup_error))}</div>`
    : '';
  return html`${setup}
${properties.map((p) => propertyFailure(report, p))}${rules.map((r) => ruleFailure(report, r))}`;
}
