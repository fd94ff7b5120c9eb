/**
 * The control page's script, the part that calls the control API and shows the clock, the keys and
 * the incidents (the journal's part is poll-script.ts; page.ts joins them into one inline script
 * allowed by its hash). Plain JavaScript for any browser the page is opened in, as a string.
 *
 * Why it is written so:
 * - every call is a same-origin fetch of /__control, a body always application/json: the guard
 *   refuses anything else (guard.ts);
 * - what a call refuses is shown in the page (its problem's code, detail and wrong members), never
 *   thrown to the console: a tester watching the page reads it there;
 * - everything shown is set as text (textContent), never as markup: a journal entry's path is
 *   whatever a client sent;
 * - a table is rebuilt only when what it shows changed, so a button in it is not replaced under
 *   the pointer between a press and its release;
 * - the keys are shown by key_id only; the state's prefix and last four characters of a key are
 *   not put on the page.
 */
export const pageScript = String.raw`
const $ = (id) => document.getElementById(id);

/** A failed call or a refused one, as the page shows it: one line, the detail, the wrong members. */
class Shown extends Error {
  constructor(line, detail, items) {
    super(line);
    this.detail = detail || '';
    this.items = items || [];
  }
}

function cell(tag, value, className) {
  const node = document.createElement(tag);
  node.textContent = value === null || value === undefined ? '' : String(value);
  if (className) node.className = className;
  return node;
}

const number = (n) => (typeof n === 'number' ? n.toLocaleString('en') : '-');

/** A control call: its JSON answer, or a Shown with the problem the mock answered. */
async function call(method, path, body) {
  const init = { method: method, cache: 'no-store', headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const what = method + ' ' + path.split('?')[0];
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new Shown(what + ': the mock did not answer', 'Is it still running? The page asks again every second.');
  }
  const raw = await response.text().catch(() => '');
  let data = null;
  try {
    data = raw ? JSON.parse(raw) : null;
  } catch (error) {
    data = null;
  }
  if (response.ok) return data;
  if (!data || typeof data !== 'object')
    throw new Shown(what + ': HTTP ' + response.status, 'The answer was no problem+json.');
  // The detail names every wrong member already; the list is for a problem without one.
  const items =
    !data.detail && Array.isArray(data.errors)
      ? data.errors.map((e) => (e.pointer || e.parameter || 'body') + ': ' + e.detail)
      : [];
  const code = data.code ? ' ' + data.code : '';
  throw new Shown(what + ': ' + response.status + code, data.detail || data.title || '', items);
}

function showProblem(error) {
  const box = $('problem');
  if (!error) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const shown =
    error instanceof Shown ? error : new Shown('The page failed', String((error && error.message) || error));
  const list = document.createElement('ul');
  for (const item of shown.items) list.append(cell('li', item));
  const dismiss = cell('button', 'Dismiss');
  dismiss.type = 'button';
  dismiss.addEventListener('click', () => showProblem(null));
  box.replaceChildren(cell('strong', shown.message), cell('p', shown.detail), list, dismiss);
  box.hidden = false;
}

const say = (line) => ($('said').textContent = line);

/** A button's or the form's handler: its problem shown, then everything read again at once. */
function act(run) {
  return (event) => {
    if (event) event.preventDefault();
    showProblem(null);
    run().then(
      () => refresh(),
      (error) => {
        showProblem(error);
        return refresh();
      },
    );
  };
}

/** Whether what a table shows changed since it was last drawn (then it is drawn anew). */
const drawn = {};
function changed(name, value) {
  const text = JSON.stringify(value);
  if (drawn[name] === text) return false;
  drawn[name] = text;
  return true;
}

function emptyRow(columns, line) {
  const row = document.createElement('tr');
  const only = cell('td', line, 'muted');
  only.colSpan = columns;
  row.append(only);
  return row;
}

let frozen = false;
function showState(state) {
  $('clock-now').textContent = state.clock.now;
  $('clock-frozen').textContent = state.clock.frozen
    ? 'frozen: it moves only when told'
    : 'running with the wall clock';
  frozen = state.clock.frozen;
  $('freeze').textContent = frozen ? 'Let it run' : 'Freeze';
  $('as-of').textContent = state.as_of;
  $('pending').textContent = number(state.pending_rebuilds);
  $('changes').textContent = number(state.changes);
  $('store').textContent = state.state.store + (state.state.reachable ? '' : ' (not reachable)');
  // Only what the table shows is compared, and kept: never a key's prefix or last four characters.
  const keys =
    state.keys &&
    state.keys.map((k) => ({ key_id: k.key_id, plan: k.plan, status: k.status, usage: k.usage, ends: k.expires_at }));
  if (changed('keys', keys)) showKeys(keys);
}

function showKeys(keys) {
  const body = $('keys').tBodies[0];
  if (keys === null) return body.replaceChildren(emptyRow(7, 'The state store does not answer: the keys are unknown.'));
  if (!keys.length) return body.replaceChildren(emptyRow(7, 'No key yet.'));
  body.replaceChildren(
    ...keys.map((k) => {
      const u = k.usage;
      const row = document.createElement('tr');
      row.dataset.keyId = k.key_id;
      row.append(
        cell('td', k.key_id, 'mono'),
        cell('td', k.plan),
        cell('td', k.status),
        cell('td', number(u.calls_used) + (u.calls_limit === null ? '' : ' of ' + number(u.calls_limit))),
        cell('td', u.calls_remaining === null ? 'no quota' : number(u.calls_remaining)),
        cell('td', u.balance_rows === null ? '-' : number(u.balance_rows)),
        cell('td', k.ends || u.period_end || ''),
      );
      return row;
    }),
  );
}

const parameterNames = ['retry_after', 'latency_ms', 'jitter_ms', 'bytes_per_second'];

function showIncidents(incidents) {
  $('end-all').disabled = incidents.length === 0;
  if (!changed('incidents', incidents)) return;
  const body = $('incidents').tBodies[0];
  if (!incidents.length)
    return body.replaceChildren(emptyRow(7, 'No incident in force: every call is answered as the service would.'));
  body.replaceChildren(
    ...incidents.map((incident) => {
      const row = document.createElement('tr');
      row.dataset.incident = incident.id;
      const match = Object.entries(incident.match).map(([name, value]) => name + ' ' + value);
      const parameters = parameterNames.filter((p) => incident[p] !== undefined).map((p) => p + ' ' + incident[p]);
      const ends = [
        incident.calls_left === null ? '' : number(incident.calls_left) + ' calls left',
        incident.ends_at ? incident.ends_at + ' (wall clock)' : '',
        incident.until ? incident.until + ' (simulated)' : '',
      ].filter(Boolean);
      const end = cell('button', 'End');
      end.type = 'button';
      end.className = 'end';
      end.addEventListener(
        'click',
        act(async () => {
          const ended = await call('DELETE', '/__control/incidents/' + encodeURIComponent(incident.id));
          say('Ended ' + ended.id + ' (' + ended.kind + '), which met ' + number(ended.hits) + ' calls.');
        }),
      );
      const last = document.createElement('td');
      last.append(end);
      row.append(
        cell('td', incident.id, 'mono'),
        cell('td', incident.kind),
        cell('td', match.join(', ') || 'every call'),
        cell('td', parameters.join(', ')),
        cell('td', number(incident.hits)),
        cell('td', ends.join('; ') || 'when ended'),
        last,
      );
      return row;
    }),
  );
}

/** The form's body: only what was filled in, numbers as numbers; the mock judges the rest. */
function incidentBody(form) {
  const data = new FormData(form);
  const value = (name) => String(data.get(name) || '').trim();
  const body = { kind: value('kind') };
  const match = {};
  for (const name of ['operation', 'path', 'method', 'key_id']) if (value(name)) match[name] = value(name);
  if (Object.keys(match).length) body.match = match;
  const takes = (kinds[body.kind] || { parameters: {} }).parameters;
  for (const name of ['calls', 'duration', 'until'].concat(Object.keys(takes))) {
    const given = value(name);
    if (given) body[name] = /^-?\d+$/.test(given) ? Number(given) : given;
  }
  return body;
}

/** Only the parameters the chosen kind takes are offered, each with its default as a hint. */
function showKind() {
  const form = $('incident-form');
  const takes = kinds[form.elements.kind.value].parameters;
  for (const label of form.querySelectorAll('[data-parameter]')) {
    const name = label.dataset.parameter;
    label.hidden = !(name in takes);
    label.querySelector('input').placeholder = takes[name] === null ? 'required' : String(takes[name] ?? '');
  }
}
`;
