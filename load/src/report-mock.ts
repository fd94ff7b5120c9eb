/**
 * The report's section of the mock's own counts for the run's window (`--mock-metrics`): k6's side
 * and the server's side of the same calls, then what the mock counted by operation and status class,
 * its 429s and 402s by plan, and the rows it served and charged by plan and operation.
 */
import { html, type Html } from '@investor-graph/cli/html-page';
import type { MockWindow } from './mock-metrics.ts';

const n = (value: number) => value.toLocaleString('en-US');

/** The section, or nothing for a run given no metrics URL. */
export function mockSection(window: MockWindow | undefined): Html {
  if (!window) return html``;
  const intro = html`<h2>The mock's own counts</h2>
<p class="muted">From <code>${window.source}</code>, scraped just before k6 started (${window.from}) and just after \
it ended (${window.to}): the difference of the two scrapes. It counts every client of the mock in that window, not k6's
alone, and no call to <code>/__control</code>.</p>`;
  if (!window.server) return html`${intro}<p class="fail"><strong>No server-side counts:</strong> ${window.error}</p>`;
  const { server, client } = window;
  const classes = [
    ...new Set([...server.calls.map((c) => c.status_class), ...Object.keys(client?.by_status_class ?? {})]),
  ].sort();
  const callsOf = (cls: string) => server.calls.filter((c) => c.status_class === cls).reduce((t, c) => t + c.count, 0);
  // A row k6 has a figure for is marked by whether the two agree (other clients of the mock make them differ).
  const row = (what: Html | string, k6: number | undefined, mock: number) =>
    html`<tr${k6 === undefined ? '' : html` class="${k6 === mock ? 'ok' : 'fail'}"`}><td>${what}</td>\
<td>${k6 === undefined ? '—' : n(k6)}</td><td>${n(mock)}</td></tr>`;
  const sideBySide = html`<table><tr><th></th><th>k6 sent or received</th><th>the mock counted</th></tr>
${row('calls of the data API', client?.requests, server.totals.calls)}
${classes.map((cls) =>
  row(html`answered <code>${cls}</code>`, client && (client.by_status_class[cls] ?? 0), callsOf(cls)),
)}
${row(html`<code>429</code> (rate limited)`, client?.received_429, server.totals.refused_429)}
${row(html`<code>402</code> (quota, feature or balance)`, undefined, server.totals.refused_402)}
${row('rows served', undefined, server.totals.rows_served)}
${row('rows charged', undefined, server.totals.rows_charged)}</table>
${
  client &&
  html`<p class="muted">k6 also sent ${n(client.control)} calls to the control API (its keys), which the mock \
does not count.</p>`
}`;
  const operations = [...new Set(server.calls.map((c) => c.operation))].sort();
  const byOperation = html`<h3>Calls by operation and status class</h3>
<table><tr><th>operation</th>${classes.map((cls) => html`<th>${cls}</th>`)}<th>all</th></tr>
${operations.map((op) => {
  const of = server.calls.filter((c) => c.operation === op);
  const count = (cls: string) => of.find((c) => c.status_class === cls)?.count ?? 0;
  return html`<tr><td><code>${op}</code></td>${classes.map((cls) => html`<td>${n(count(cls))}</td>`)}\
<td>${n(of.reduce((t, c) => t + c.count, 0))}</td></tr>`;
})}</table>`;
  const plans = [...new Set(server.refusals.map((r) => r.plan))].sort();
  const refused = (plan: string, status: string) =>
    server.refusals.find((r) => r.plan === plan && r.status === status)?.count ?? 0;
  const byPlan = html`<h3>Refused, by plan</h3>
${
  plans.length
    ? html`<table><tr><th>plan</th><th>429</th><th>402</th></tr>
${plans.map(
  (p) => html`<tr><td><code>${p}</code></td><td>${n(refused(p, '429'))}</td><td>${n(refused(p, '402'))}</td></tr>`,
)}</table>`
    : html`<p class="muted">None: no 429 and no 402 in the window.</p>`
}`;
  const rows = html`<h3>Rows served and charged, by plan and operation</h3>
${
  server.rows.length
    ? html`<table><tr><th>plan</th><th>operation</th><th>served</th><th>charged</th></tr>
${server.rows.map(
  (r) => html`<tr><td><code>${r.plan}</code></td><td><code>${r.operation}</code></td><td>${n(r.served)}</td>\
<td>${n(r.charged)}</td></tr>`,
)}</table>`
    : html`<p class="muted">None: no rows served in the window.</p>`
}`;
  return html`${intro}${sideBySide}${byOperation}${byPlan}${rows}`;
}

/** One line for the run's text output: the server's count beside k6's, or why there is none. */
export function mockLine(window: MockWindow | undefined): string | undefined {
  if (!window) return undefined;
  if (!window.server) return `the mock's own counts: none (${window.error})`;
  const { totals } = window.server;
  const sent = window.client ? ` (k6 sent ${window.client.requests})` : '';
  return (
    `the mock's own counts for the run's window: ${totals.calls} calls${sent}, ${totals.refused_429} 429, ` +
    `${totals.refused_402} 402, ${totals.rows_served} rows served, ${totals.rows_charged} charged`
  );
}
