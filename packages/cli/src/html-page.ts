/**
 * The frame of the kit's one-page reports (the contract tests' and the validation proxy's): a
 * tagged template that escapes everything it is given unless it is already markup, the page with
 * its inline CSS, and the few parts both pages draw. A page holds no script and loads nothing:
 * its policy forbids every fetch, so it opens offline and from an artifact store that blocks
 * scripts. What it shows came from a server under test: hostile, escaped on the way in.
 * Browser-safe (no Node module).
 */

import { escapeBidi } from './printable.ts';

/** Markup made here: `html` leaves it as it is, where any other value is escaped. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/**
 * `value` as text in HTML (element content or a quoted attribute): control characters but tab and
 * line breaks dropped, and bidirectional controls shown as their escapes (printable.ts), so that a
 * served name cannot pass for another.
 */
export function escapeHtml(value: unknown): string {
  return escapeBidi(String(value))
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

function part(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/**
 * Markup from a template: each value is escaped (a string, a number), kept (`Html`), joined (an
 * array of either) or left out (null, undefined, false). Nothing a server sent can become markup.
 * @example html`<td>${served}</td>` // served = '<script>' gives <td>&lt;script&gt;</td>
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += part(value) + strings[i + 1]!));
  return new Html(out);
}

/** The states rows can be in, each with its colour: what a badge and a filter show. */
const stateColours: Record<string, string> = {
  held: '#15803d',
  passed: '#15803d',
  broken: '#b91c1c',
  failed: '#b91c1c',
  'rests-on-a-broken-rule': '#c2410c',
  skipped: '#a16207',
  'not-checkable': '#6b7280',
  'not-checked-yet': '#7c3aed',
  'decided-elsewhere': '#0369a1',
  'not-run': '#6b7280',
};

/** A state as a class name: `not checkable` -> `not-checkable`. */
export const stateClass = (state: string): string => state.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** A state as a coloured label. */
export function badge(state: string, text: string = state): Html {
  return html`<span class="badge ${stateClass(state)}">${text}</span>`;
}

/** A table: the header's cells, then rows of cells; `state` marks a row for the filter and its colour. */
export function table(head: string[], rows: { cells: unknown[]; state?: string }[]): Html {
  const headRow = html`<tr>${head.map((h) => html`<th>${h}</th>`)}</tr>`;
  const bodyRows = rows.map((r) => {
    const state = r.state ? html` data-state="${stateClass(r.state)}"` : '';
    return html`<tr${state}>${r.cells.map((c) => html`<td>${c}</td>`)}</tr>`;
  });
  return html`<table><thead>${headRow}</thead><tbody>${bodyRows}</tbody></table>`;
}

/**
 * A word for a shell command line a page shows: single-quoted unless plain, a quote in it closed, escaped and reopened.
 */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A call to make again: its values already blanked as the page that shows it blanks them. */
export interface CurlCall {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The call carried the run's key: sent again as `Bearer $INVESTOR_GRAPH_KEY`, never the key itself. */
  keyFromEnv?: boolean;
}

/**
 * The curl line that makes a call again, as the kit's pages show it. The key is read from
 * $INVESTOR_GRAPH_KEY, in the Authorization header's place (or last, when `headers` leaves it out);
 * a call that went without a key is replayed without one.
 */
export function curlLine(call: CurlCall): string {
  const words = ['curl', '-i'];
  // -I sends a HEAD and reads no body: `-X HEAD` would wait for one.
  if (call.method === 'HEAD') words.push('-I');
  else if (call.method !== 'GET') words.push('-X', shellWord(call.method));
  // Double quotes, so that the shell puts the key in.
  const fromEnv = (name: string) => `"${name}: Bearer $INVESTOR_GRAPH_KEY"`;
  let keyed = false;
  for (const [name, value] of Object.entries(call.headers ?? {})) {
    const key = call.keyFromEnv && name.toLowerCase() === 'authorization';
    keyed ||= !!key;
    words.push('-H', key ? fromEnv(name) : shellWord(`${name}: ${value}`));
  }
  if (call.keyFromEnv && !keyed) words.push('-H', fromEnv('Authorization'));
  if (call.body !== undefined) words.push('--data-binary', shellWord(call.body));
  words.push(shellWord(call.url));
  return words.join(' ');
}

/** Text kept as it is (a body, a command line), in a box of its own. */
export function pre(text: string, className = ''): Html {
  return html`<pre${className ? html` class="${className}"` : ''}>${text}</pre>`;
}

/**
 * Radio buttons that show only the rows of one state in what follows them (their siblings), CSS
 * alone: no script. A `<details>` holding no row of that state is hidden too.
 */
export function stateFilter(name: string, states: { state: string; count: number }[]): Html {
  const total = states.reduce((sum, s) => sum + s.count, 0);
  const id = (state: string) => `${name}-${stateClass(state)}`;
  const rules = states
    .map(({ state }) => {
      const s = stateClass(state);
      return (
        `#${id(state)}:checked~* [data-state]:not([data-state="${s}"]),` +
        `#${id(state)}:checked~details:not(:has([data-state="${s}"])){display:none}`
      );
    })
    .join('');
  const all = html`<input type="radio" name="${name}" id="${name}-all" checked><label for="${name}-all">all \
${total}</label>`;
  const one = ({ state, count }: { state: string; count: number }) =>
    html`<input type="radio" name="${name}" id="${id(state)}"><label \
for="${id(state)}">${badge(state, `${state} ${count}`)}</label>`;
  return html`<style>${new Html(rules)}</style>${all}${states.filter((s) => s.count).map(one)}`;
}

const css = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;color:#111827;\
padding:0 12px;box-sizing:border-box}
h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin:30px 0 8px;border-bottom:1px solid #e5e7eb;\
padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
.verdict{display:inline-block;padding:4px 10px;border-radius:4px;font-weight:600;color:#fff}
.verdict.ok{background:#15803d}.verdict.failed{background:#b91c1c}
table{border-collapse:collapse;width:100%;margin:6px 0}td,th{border-bottom:1px solid #e5e7eb;padding:4px 8px;\
text-align:left;vertical-align:top}
th{font-weight:600;background:#f9fafb}dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;\
margin:10px 0}dl.facts dt{color:#6b7280}dl.facts dd{margin:0}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}\
td:first-child code:not(.wrap),summary code{white-space:nowrap}code.wrap{word-break:break-all}
pre{background:#f6f8fa;border:1px solid #e5e7eb;border-radius:4px;padding:8px;white-space:pre-wrap;\
word-break:break-all;margin:4px 0}
pre.command{background:#0f172a;color:#e2e8f0;border-color:#0f172a}
.badge{display:inline-block;margin-right:3px;padding:0 6px;border-radius:3px;font-size:12px;font-weight:600;color:#fff;\
background:#6b7280;white-space:nowrap}
${Object.entries(stateColours)
  .map(([s, c]) => `.badge.${s}{background:${c}}`)
  .join('')}
.muted{color:#6b7280}.failure{border-left:4px solid #b91c1c;padding:2px 0 2px 12px;margin:14px 0}
.exchange{border:1px solid #e5e7eb;border-radius:4px;padding:4px 10px;margin:8px 0}
details{margin:4px 0}summary{cursor:pointer;padding:3px 0}summary .badge{margin-left:4px}
input[type=radio]{margin:0 2px 0 10px}label{cursor:pointer}
tr[data-state="broken"] td,tr[data-state="failed"] td{background:#fef2f2}
`;

/**
 * What a page is made of: its tab's title, its heading (the title unless given), a verdict with an
 * optional note beside it, its body.
 */
export interface PageParts {
  title: string;
  heading?: Html;
  verdict: { ok: boolean; text: string };
  note?: Html;
  body: Html;
  /** Rules of the page's own (the load report's charts), after the frame's. */
  css?: string;
}

/** The whole page: `title` in the tab and as its heading, a verdict beside it, then `body`. */
export function page({ title, heading, verdict, note, body, css: own = '' }: PageParts): string {
  const verdictBadge = html`<span class="verdict ${verdict.ok ? 'ok' : 'failed'}">${verdict.text}</span>`;
  const top = html`<h1>${heading ?? title}</h1><p>${verdictBadge}${note ? html`\n${note}` : ''}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${css}${own}</style></head><body>
${top.text}
${body.text}
</body></html>
`;
}
