/**
 * The validation proxy's HTML report (--html FILE): one page made from the JSON report it writes
 * on exit. What passed through, the violations by rule, and for each rule the kept exchanges that
 * broke it (request line, status, time, the messages, the body's excerpt) with a curl line to make
 * the call again, the key read from $INVESTOR_GRAPH_KEY. The records hold no header and keys are
 * blanked in them already; they are blanked again here, and everything is escaped (the excerpts
 * are the upstream's). The frame is @investor-graph/cli/html-page's, as the contract tests' page.
 */
import { badge, curlLine, html, page, pre, table, type Html } from '@investor-graph/cli/html-page';
import { rules, type RuleId } from '@investor-graph/contract';
import { redact } from '@investor-graph/cli/redact';
import type { ExchangeRecord } from './proxy.ts';
import { proxyChecks, type ProxyReportJson } from './report.ts';

/** Exchanges shown under each rule; the JSON report keeps up to 1,000 in all. */
const PER_RULE = 20;

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** What a rule (or one of the proxy's own checks) says. */
function titleOf(rule: string): string {
  return rule in proxyChecks
    ? proxyChecks[rule as keyof typeof proxyChecks]
    : Object.hasOwn(rules, rule)
      ? rules[rule as RuleId].title
      : rule;
}

/**
 * The curl line that makes the call again against the upstream:
 * the key from $INVESTOR_GRAPH_KEY when the call sent one.
 */
export function proxyCurlLine(upstream: string, record: Pick<ExchangeRecord, 'method' | 'path' | 'keyed'>): string {
  return curlLine({ method: record.method, url: redact(`${upstream}${record.path}`), keyFromEnv: !!record.keyed });
}

/** One kept exchange under a rule: the call, the rule's messages on it, the excerpt, the replay. */
function exchangeBlock(upstream: string, record: ExchangeRecord, rule: string, open: boolean): Html {
  const messages = record.violations.filter((v) => v.rule === rule).map((v) => redact(v.message));
  // The report shortens cursors and blanks key-like values: such a call needs them back to replay.
  const cut = /\.\.\.|\*\*\*/.test(record.path);
  // 0: the proxy stopped before the service answered.
  const status =
    record.status === 0
      ? badge('failed', 'no answer')
      : badge(record.status >= 400 ? 'failed' : 'passed', String(record.status));
  const when = html`<span class="muted">${record.ms} ms, at ${record.at}</span>`;
  const summary = html`<summary><code>${record.method} ${redact(record.path)}</code> -> ${status} ${when}</summary>`;
  const excerpt = record.excerpt ? html`<div class="muted">the body's start:</div>${pre(redact(record.excerpt))}` : '';
  const putBack = cut ? ' (the report shortened a cursor or blanked a value in its path: put it back first)' : '';
  return html`<details class="exchange"${open ? html` open` : ''}>${summary}
${pre(messages.join('\n'))}${excerpt}
${record.notValidated ? html`<p class="muted">${redact(record.notValidated)}</p>` : ''}
<div class="muted">make the call again${putBack}:</div>${pre(proxyCurlLine(upstream, record), 'command')}</details>`;
}

/** A rule's section: its count and the first kept exchanges that broke it. */
function ruleSection(report: ProxyReportJson, rule: string, count: number): Html {
  const records = report.violations.filter((r) => r.violations.some((v) => v.rule === rule));
  const kept = records.reduce((sum, r) => sum + r.violations.filter((v) => v.rule === rule).length, 0);
  const side = rule === 'request' ? "the client's requests (fail nothing: the proxy judges the service)" : '';
  const mark = badge(rule === 'request' ? 'skipped' : 'broken', plural(count, 'violation'));
  const left = plural(records.length - PER_RULE, 'more exchange');
  const more = records.length > PER_RULE ? html`<p class="muted">${left} of this rule in the JSON report.</p>` : '';
  const counted = plural(count, 'violation');
  const rest =
    kept < count
      ? html`<p class="muted">The rest of its ${counted} were counted, not kept (a bounded report).</p>`
      : '';
  return html`<div class="failure" id="${`rule-${rule}`}"><h3>${mark} <code>${rule}</code>: ${titleOf(rule)}</h3>
${side ? html`<p class="muted">${side}</p>` : ''}
${records.slice(0, PER_RULE).map((r, i) => exchangeBlock(report.upstream, r, rule, i === 0))}
${more}
${rest}</div>`;
}

/** The whole page for the proxy's JSON report. */
export function renderProxyHtml(report: ProxyReportJson): string {
  const counts = Object.entries(report.by_rule).sort((a, b) => b[1] - a[1]);
  const broken = counts.filter(([rule]) => rule !== 'request');
  const violations = broken.reduce((sum, [, n]) => sum + n, 0);
  const verdict = broken.length
    ? {
        ok: false,
        text:
          `FAILED: ${plural(violations, 'violation')} of ` +
          `${plural(broken.length, 'rule')} in ${plural(report.exchanges, 'exchange')}`,
      }
    : { ok: true, text: `PASSED: no rule broken in ${plural(report.exchanges, 'exchange')}` };
  const ruleIds = [...Object.keys(rules), ...Object.keys(proxyChecks)];
  const intro = [
    html`What passed through the validation proxy, checked against the contract and the spec's rules.`,
    html` No header is recorded; keys are blanked.`,
  ];
  const facts = [
    html`<dt>upstream</dt><dd><code>${redact(report.upstream)}</code></dd>`,
    html`<dt>from</dt><dd>${report.started_at}</dd><dt>to</dt><dd>${report.ended_at}</dd>`,
  ];
  const withViolations = report.exchanges_with_violations.toLocaleString('en');
  const leftOut = report.violations_left_out
    ? `, ${report.violations_left_out.toLocaleString('en')} more counted only`
    : '';
  const sections = counts.map(([rule, n]) => ruleSection(report, rule, n));
  const body = html`<p class="muted">${intro}</p>
<section id="run"><h2>The run</h2><dl class="facts">${facts}
<dt>exchanges</dt><dd>${plural(report.exchanges, 'exchange')}, ${withViolations} with violations</dd>
<dt>kept</dt><dd>${plural(report.violations.length, 'exchange')} with their violations${leftOut}</dd></dl></section>
<section id="rules"><h2>By rule</h2>
${table(
  ['rule', 'what it says', 'violations'],
  ruleIds.map((rule) => {
    const n = report.by_rule[rule] ?? 0;
    // The client's own bad requests are listed, failing nothing.
    const state = n ? (rule === 'request' ? 'skipped' : 'broken') : 'held';
    const name = n ? html`<a href="${`#rule-${rule}`}"><code>${rule}</code></a>` : html`<code>${rule}</code>`;
    return { state, cells: [name, titleOf(rule), badge(state, n ? n.toLocaleString('en') : 'none')] };
  }),
)}</section>
${counts.length ? html`<section id="violations"><h2>Violations, with their exchanges</h2>${sections}</section>` : ''}
<p class="muted">Written by investor-graph-mock proxy from its JSON report.</p>`;
  return page({ title: `Validation proxy in front of ${redact(report.upstream)}`, verdict, body });
}
