/**
 * The control page's script, second part: the journal as it grows, and the loop that reads the
 * mock every second (script.ts has the calls and the other sections; page.ts joins them).
 *
 * Each journal entry is fetched once: the page asks for the entries after the last `seq` it holds
 * (a `seq` is a journal cursor, the mock's README says), walks on while a page has a
 * `next_cursor`, and adds only what came. Filtering by status class and operation hides rows of
 * what was fetched; it asks the mock for nothing. The journal's reads and its clear take turns, so
 * no two reads start from the same `seq` and no read begun before a clear adds what it cleared.
 */
export const pollScript = String.raw`
/** Rows the page keeps (the journal's default size); older ones leave the bottom of the table. */
const keptRows = 1000;
const journal = { after: null, operations: new Set(), turn: Promise.resolve() };

/** Runs after every journal read or clear asked before it has ended. */
function inTurn(run) {
  const next = journal.turn.then(() => run());
  journal.turn = next.catch(() => undefined);
  return next;
}

async function pollJournal() {
  for (let pages = 0; pages < 20; pages++) {
    const cursor = journal.after === null ? '' : '&cursor=' + journal.after;
    const page = await call('GET', '/__control/journal?limit=1000' + cursor);
    addEntries(page.entries);
    const dropped = page.dropped ? ', ' + number(page.dropped) + ' pushed out by its bound since the last clear' : '';
    $('journal-count').dataset.bounds = 'it holds the last ' + number(page.capacity) + dropped;
    if (page.next_cursor === null) break;
  }
  countRows();
}

function journalRow(entry) {
  const row = document.createElement('tr');
  row.dataset.seq = String(entry.seq);
  row.dataset.status = String(entry.status);
  row.dataset.operation = entry.operation || '';
  const query = new URLSearchParams(entry.query).toString();
  row.append(
    cell('td', entry.seq),
    cell('td', entry.at.slice(11, 23)),
    cell('td', entry.method),
    cell('td', entry.path + (query ? '?' + query : ''), 'path mono'),
    cell('td', entry.status, 's' + String(entry.status).charAt(0)),
    cell('td', entry.problem, 'mono'),
    cell('td', entry.operation, 'mono'),
    cell('td', entry.key_id, 'mono'),
    cell('td', entry.plan),
    cell('td', number(entry.rows_served) + (entry.rows_charged ? ' (' + number(entry.rows_charged) + ' charged)' : '')),
    cell('td', entry.duration_ms),
    cell('td', entry.incident, 'mono'),
  );
  return row;
}

function addEntries(entries) {
  if (!entries.length) return;
  const body = $('journal').tBodies[0];
  // Oldest first in a page; newest at the top of the table.
  body.prepend(...entries.map(journalRow).reverse());
  journal.after = entries[entries.length - 1].seq;
  while (body.rows.length > keptRows) body.lastElementChild.remove();
  const known = journal.operations.size;
  for (const entry of entries) journal.operations.add(entry.operation || '');
  if (journal.operations.size > known) showOperations();
  filterRows();
}

function showOperations() {
  const select = $('journal-operation');
  const chosen = select.value;
  const options = [...journal.operations].sort().map((operation) => {
    const option = cell('option', operation || '(none: off the contract)');
    option.value = operation;
    return option;
  });
  const every = cell('option', 'every operation');
  every.value = '*';
  select.replaceChildren(every, ...options);
  select.value = chosen;
}

function filterRows() {
  const status = $('journal-status').value;
  const operation = $('journal-operation').value;
  for (const row of $('journal').tBodies[0].rows) {
    const s = row.dataset.status;
    const statusHolds = status === 'all' || (status === '0' ? s === '0' : s.length === 3 && s[0] === status[0]);
    row.hidden = !(statusHolds && (operation === '*' || row.dataset.operation === operation));
  }
  countRows();
}

function countRows() {
  const rows = [...$('journal').tBodies[0].rows];
  const shown = rows.filter((row) => !row.hidden).length;
  const count = $('journal-count');
  const bounds = count.dataset.bounds ? ' (' + count.dataset.bounds + ')' : '';
  count.textContent =
    (shown === rows.length ? number(rows.length) : number(shown) + ' of ' + number(rows.length)) + ' calls' + bounds;
  $('journal-empty').hidden = rows.length > 0;
}

async function readOnce() {
  try {
    const [state, incidents] = await Promise.all([
      call('GET', '/__control/state'),
      call('GET', '/__control/incidents'),
      inTurn(pollJournal),
    ]);
    showState(state);
    showIncidents(incidents.incidents);
    $('status').textContent = 'Read at ' + new Date().toISOString().slice(11, 19) + ' UTC, every second';
    $('status').className = 'ok';
  } catch (error) {
    const shown = error instanceof Shown ? error.message + (error.detail ? ': ' + error.detail : '') : String(error);
    $('status').textContent = shown;
    $('status').className = 'bad';
  }
}

let reading = null;
let readAgain = false;
/** One read of everything at a time; asked during one, another follows it. */
function refresh() {
  if (reading) {
    readAgain = true;
    return reading;
  }
  reading = (async () => {
    try {
      do {
        readAgain = false;
        await readOnce();
      } while (readAgain);
    } finally {
      reading = null;
    }
  })();
  return reading;
}

async function loop() {
  if (document.visibilityState !== 'hidden') await refresh();
  setTimeout(loop, 1000);
}

for (const button of document.querySelectorAll('[data-advance]'))
  button.addEventListener(
    'click',
    act(async () => {
      const moved = await call('POST', '/__control/clock/advance', { duration: button.dataset.advance });
      const applied = moved.applied ? ', ' + number(moved.applied) + ' changes from due rebuilds' : '';
      say('The clock moved ' + button.textContent + ', to ' + moved.now + applied + '.');
    }),
  );
$('rebuild').addEventListener(
  'click',
  act(async () => {
    const done = await call('POST', '/__control/rebuild', {});
    say('Rebuilds run: ' + number(done.applied.length) + ' changes; ' + number(done.pending_rebuilds) + ' pending.');
  }),
);
$('freeze').addEventListener(
  'click',
  act(async () => {
    const clock = await call('PUT', '/__control/clock', { frozen: !frozen });
    say(clock.frozen ? 'The clock is frozen at ' + clock.now + '.' : 'The clock runs from ' + clock.now + '.');
  }),
);
$('end-all').addEventListener(
  'click',
  act(async () => say('Ended ' + number((await call('DELETE', '/__control/incidents')).cleared) + ' incidents.')),
);
$('incident-form').addEventListener(
  'submit',
  act(async () => {
    const incident = await call('POST', '/__control/incidents', incidentBody($('incident-form')));
    say('Started ' + incident.id + ' (' + incident.kind + ').');
  }),
);
$('incident-form').elements.kind.addEventListener('change', showKind);
$('journal-clear').addEventListener(
  'click',
  act(() =>
    inTurn(async () => {
      const cleared = await call('DELETE', '/__control/journal');
      $('journal').tBodies[0].replaceChildren();
      countRows();
      say('Cleared ' + number(cleared.cleared) + ' calls from the journal.');
    }),
  ),
);
$('journal-status').addEventListener('change', filterRows);
$('journal-operation').addEventListener('change', filterRows);
showKind();
countRows();
loop();
`;
