/**
 * The control page's markup: four sections the script (script.ts, poll-script.ts) fills from the
 * control API. Static but for the incident kinds, which come from the table the control API
 * parses them by (incidents/kinds.ts), so the form offers exactly the kinds and parameters it takes.
 */
import { incidentKindNames, incidentKinds, parameterBounds } from '../../incidents/kinds.ts';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const kindOptions = incidentKindNames
  .map((kind) => `<option value="${kind}">${kind}: ${escape(incidentKinds[kind].says)}</option>`)
  .join('\n        ');

const parameterFields = Object.entries(parameterBounds)
  .map(
    ([name, [low, high]]) =>
      `<label data-parameter="${name}">${name} (${low} to ${high.toLocaleString('en')})` +
      `<input name="${name}" inputmode="numeric" autocomplete="off"></label>`,
  )
  .join('\n      ');

const journalColumns = ['#', 'at', 'method', 'path', 'status', 'problem', 'operation', 'key_id', 'plan', 'rows', 'ms'];
journalColumns.push('incident');

const headRow = (names: readonly string[]): string =>
  `<thead><tr>${names.map((n) => `<th scope="col">${n}</th>`).join('')}</tr></thead>`;

export const pageBody = `<header>
  <h1>Investor Graph mock</h1>
  <span class="muted">the control page: <code>/__control</code>, on loopback only</span>
  <span id="status" role="status" class="muted">Reading the mock...</span>
</header>
<div id="problem" role="alert" hidden></div>
<p id="said" role="status"></p>
<main>
  <section id="clock-section" aria-labelledby="clock-title">
    <h2 id="clock-title">Clock</h2>
    <dl>
      <dt>Simulated time</dt><dd id="clock-now">-</dd>
      <dt>The clock</dt><dd id="clock-frozen">-</dd>
      <dt>Data as of</dt><dd id="as-of">-</dd>
      <dt>Rebuilds pending</dt><dd id="pending">-</dd>
      <dt>Changes in the feed</dt><dd id="changes">-</dd>
      <dt>State store</dt><dd id="store">-</dd>
    </dl>
    <div class="buttons">
      <button type="button" data-advance="PT1H">+1 hour</button>
      <button type="button" data-advance="P1D">+1 day</button>
      <button type="button" data-advance="P31D">+31 days</button>
      <button type="button" id="rebuild">Run due rebuilds</button>
      <button type="button" id="freeze">Freeze</button>
    </div>
    <p class="note">Trials expire, months roll over and due rebuilds run as the simulated clock moves.</p>
  </section>
  <section id="keys-section" aria-labelledby="keys-title">
    <h2 id="keys-title">Keys</h2>
    <p class="note">Each key by its key_id: the page never shows a key's text, nor any part of it.</p>
    <div class="scroll"><table id="keys">
      ${headRow(['key_id', 'plan', 'status', 'calls used', 'quota left', 'prepaid rows', 'ends'])}
      <tbody></tbody></table></div>
  </section>
  <section id="incidents-section" class="wide" aria-labelledby="incidents-title">
    <h2 id="incidents-title">Incidents</h2>
    <table id="incidents">
      ${headRow(['id', 'kind', 'matches', 'parameters', 'calls met', 'ends', ''])}
      <tbody></tbody></table>
    <div class="buttons"><button type="button" id="end-all" disabled>End every incident</button></div>
    <form id="incident-form" novalidate>
      <label class="whole">kind<select name="kind">
        ${kindOptions}
      </select></label>
      <label>match: operation<input name="operation" placeholder="listFirms" autocomplete="off"></label>
      <label>match: path (* any run)<input name="path" placeholder="/api/v1/firms*" autocomplete="off"></label>
      <label>match: method<input name="method" placeholder="GET" autocomplete="off"></label>
      <label>match: key_id<input name="key_id" placeholder="key_..." autocomplete="off"></label>
      <label>for the next N calls<input name="calls" inputmode="numeric" autocomplete="off"></label>
      <label>for a wall-clock duration<input name="duration" placeholder="PT30S" autocomplete="off"></label>
      <label>until (simulated clock)<input name="until" placeholder="2026-11-21T00:00:00Z" autocomplete="off"></label>
      ${parameterFields}
      <div class="whole buttons"><button type="submit">Start the incident</button>
        <span class="muted">Nothing given in match: every call. No end given: until ended.</span></div>
    </form>
  </section>
  <section id="journal-section" class="wide" aria-labelledby="journal-title">
    <h2 id="journal-title">Journal</h2>
    <div class="controls">
      <label>status <select id="journal-status">
        <option value="all">every status</option><option value="2xx">2xx</option><option value="3xx">3xx</option>
        <option value="4xx">4xx</option><option value="5xx">5xx</option><option value="0">0 (connection cut)</option>
      </select></label>
      <label>operation <select id="journal-operation"><option value="*">every operation</option></select></label>
      <button type="button" id="journal-clear">Clear the journal</button>
      <span id="journal-count" class="muted"></span>
    </div>
    <p class="note">The data API's calls, newest first, keys blanked; times by the wall clock, in UTC.</p>
    <div class="scroll"><table id="journal">
      ${headRow(journalColumns)}
      <tbody></tbody></table></div>
    <p id="journal-empty" class="muted">No call of the data API yet.</p>
  </section>
</main>`;
