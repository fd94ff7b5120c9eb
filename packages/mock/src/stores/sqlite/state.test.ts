// @module-tag servers
/**
 * --state FILE as a user relies on it: real mock processes on one SQLite database, killed and
 * restarted; files it must refuse, refused with their name and left as they were.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, test } from 'vitest';
import { cli, killAll, start, stop } from '../../cli/cli-process.test-support.ts';
import { plans } from '@investor-graph/contract/plans';
import { SqliteKeyStore } from './key-store.ts';
import { loadInput, startMock } from '../../cli/start-mock.ts';
import { createContractValidator } from '@investor-graph/contract';
import { createEngine } from '@investor-graph/engine/adapter';
import { Accounts } from '@investor-graph/engine/adapter';

const temp = mkdtempSync(join(tmpdir(), 'ig-mock-state-'));
afterAll(() => {
  killAll();
  rmSync(temp, { recursive: true, force: true });
});

const get = (url: string, key: string) => fetch(url, { headers: { authorization: `Bearer ${key}` } });
const control = async (url: string, path: string, method: string, body: unknown) =>
  (
    await fetch(`${url}/__control${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json();
const accountOf = async (url: string, key: string) => (await (await get(`${url}/api/v1/account`, key)).json()).data;

test('two mocks on one database share a quota exactly: of 400 parallel calls with 100 left, 100 succeed', async () => {
  const state = join(temp, 'shared.db');
  const key = 'igk_team_shared_quota_two_processes_01';
  const a = await start('--state', state, '--key', `team=${key}`, '--no-rate-limit');
  const b = await start('--state', state, '--key', `team=${key}`, '--no-rate-limit');
  try {
    const listed = await (await fetch(`${a.url}/__control/state`)).json();
    const id = listed.keys.find((k: { last4: string }) => k.last4 === key.slice(-4)).key_id;
    const limit = plans.team.calls_limit!;
    await control(a.url, `/keys/${id}/usage`, 'PUT', { calls_used: limit - 100 });
    const before = (await accountOf(b.url, key)).usage.calls_used;
    expect(before).toBe(limit - 100);

    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        get(`${i % 2 ? a.url : b.url}/api/v1/firms?limit=1`, key).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(answers.filter((s) => s === 200)).toHaveLength(100);
    expect(answers.filter((s) => s === 402)).toHaveLength(300);
    expect((await accountOf(a.url, key)).usage.calls_used).toBe(before + 100);
    expect((await accountOf(b.url, key)).usage.calls_used).toBe(before + 100);

    // The test clock is shared too: set through one, the other has it within 250 ms.
    await control(a.url, '/clock', 'PUT', { now: '2027-03-01T00:00:00Z', frozen: true });
    await new Promise((r) => setTimeout(r, 300));
    await get(`${b.url}/api/v1/account`, key);
    expect(await (await fetch(`${b.url}/__control/clock`)).json()).toEqual({
      now: '2027-03-01T00:00:00.000Z',
      frozen: true,
    });
  } finally {
    await Promise.all([stop(a.child), stop(b.child)]);
  }
});

test('a mock killed (SIGKILL) under load loses no counted and answered call and counts none twice', async () => {
  const state = join(temp, 'killed.db');
  const key = 'igk_payg_killed_under_load_000000001';
  const first = await start('--state', state, '--key', `payg=${key}`, '--no-rate-limit');
  let answered = 0;
  let inFlight = 0;
  let maxInFlightAtKill = 0;
  let killed = false;
  const worker = async (): Promise<void> => {
    while (!killed) {
      inFlight++;
      try {
        const r = await get(`${first.url}/api/v1/firms?limit=20`, key);
        await r.arrayBuffer();
        if (r.status === 200) answered++;
      } catch {
        // the kill cut this call off: its answer never came
      } finally {
        inFlight--;
      }
    }
  };
  const workers = Array.from({ length: 16 }, worker);
  while (answered < 300) await new Promise((r) => setTimeout(r, 5));
  killed = true;
  maxInFlightAtKill = inFlight;
  await stop(first.child, 'SIGKILL');
  await Promise.all(workers);

  const second = await start('--state', state, '--key', `payg=${key}`);
  try {
    const usage = (await accountOf(second.url, key)).usage;
    // Every answered call is there; a call cut off by the kill may
    // have been counted (its answer lost on the way), no more.
    expect(usage.calls_used).toBeGreaterThanOrEqual(answered);
    expect(usage.calls_used).toBeLessThanOrEqual(answered + maxInFlightAtKill);
    // Each call cost 20 rows: the balance agrees with the count to the row.
    expect(usage.balance_rows).toBe(100_000 - 20 * usage.calls_used);
  } finally {
    await stop(second.child);
  }
});

test(
  'a new state database is readable by its owner alone ' + '(0600), with its WAL, and holds no key or e-mail',
  async () => {
    const state = join(temp, 'private.db');
    const key = 'igk_team_private_file_mode_check_0001';
    const mock = await start('--state', state, '--key', `team=${key}`);
    try {
      const trial = await (
        await fetch(`${mock.url}/api/v1/keys/trial`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"email":"ops@example.com"}',
        })
      ).json();
      expect((await get(`${mock.url}/api/v1/firms?limit=1`, key)).status).toBe(200);
      const files = readdirSync(temp).filter((f) => f.startsWith('private.db'));
      expect(files).toEqual(expect.arrayContaining(['private.db', 'private.db-wal']));
      for (const file of files) {
        expect(statSync(join(temp, file)).mode & 0o777, file).toBe(0o600);
        const bytes = readFileSync(join(temp, file)).toString('latin1');
        for (const secret of [key, trial.key, 'ops@example.com']) expect(bytes, file).not.toContain(secret);
      }
    } finally {
      await stop(mock.child);
    }
  },
);

/** Runs the CLI on a state file expected to be refused: exit code and what it said. */
function refused(file: string): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [cli, '--state', file, '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

test('a file that is not a state database of this mock is refused at start, named, and left as it was', () => {
  const cases: [string, (file: string) => void, RegExp][] = [
    [
      'notes.txt',
      (f) => writeFileSync(f, 'my notes, not a database\n'),
      /neither a state database of the mock nor a JSON state file/,
    ],
    [
      'foreign.db',
      (f) => {
        const db = new DatabaseSync(f);
        db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);');
        db.close();
      },
      /an SQLite database of something else \(tables: invoices\)/,
    ],
    [
      'newer.db',
      (f) => {
        SqliteKeyStore.open(f).close();
        const db = new DatabaseSync(f);
        db.exec('PRAGMA user_version = 99');
        db.close();
      },
      /written by a newer version of the mock \(state schema 99; this one reads up to 2\)/,
    ],
    [
      'damaged.db',
      (f) => {
        SqliteKeyStore.open(f).close();
        const bytes = readFileSync(f);
        bytes.fill(0x5a, 100); // the header survives, every page after it is garbage
        writeFileSync(f, bytes);
      },
      /is damaged or not a database|is damaged/,
    ],
    [
      'lots.json',
      (f) => writeFileSync(f, JSON.stringify(jsonState({ callsUsed: 'lots' }))),
      /keys\[0\]\.callsUsed = "lots"/,
    ],
    [
      'negative.json',
      (f) => writeFileSync(f, JSON.stringify(jsonState({ callsUsed: -5 }))),
      /keys\[0\]\.callsUsed = -5/,
    ],
    ['broken.json', (f) => writeFileSync(f, '{"version":1,"keys":['), /not valid JSON/],
  ];
  for (const [name, make, reason] of cases) {
    const file = join(temp, name);
    make(file);
    const before = digest(file);
    const run = refused(file);
    expect(run.status, name).toBe(2);
    expect(run.out, name).toContain(`--state ${file}:`);
    expect(run.out, name).toMatch(reason);
    expect(run.out, name).not.toMatch(/\n\s+at /); // a reason, not a stack trace
    expect(digest(file), `${name} is left as it was`).toBe(before);
    expect(existsSync(`${file}.v1.json`), name).toBe(false);
  }
});

/** A JSON state file as the mock wrote it before the database: one payg key. */
function jsonState(key: Record<string, unknown> = {}) {
  return {
    version: 1,
    clock: { now: '2026-11-25T10:00:00.000Z', frozen: true },
    cursorSecret: 'a-cursor-secret-of-the-earlier-run-0000000000',
    keys: [
      {
        keyId: 'key_0123456789ab',
        hash: createHash('sha256').update('igk_payg_migrated_from_json_00000001').digest('hex'),
        plan: 'payg',
        prefix: 'igk_payg_migrated_from_json_',
        last4: '0001',
        createdAt: Date.parse('2026-11-20T00:00:00Z'),
        expiresAt: null,
        revokedAt: null,
        emailHash: null,
        callsUsed: 7,
        periodStart: null,
        periodEnd: null,
        balanceRows: 4_321,
        tokens: 10,
        filledAt: 123.4,
        ...key,
      },
    ],
  };
}

test(
  'a JSON state file of earlier versions is migrated once: ' +
    'keys, counts, balance and clock carry over, the JSON is kept',
  async () => {
    const file = join(temp, 'legacy-state');
    writeFileSync(file, JSON.stringify(jsonState()));
    const mock = await start('--state', file);
    try {
      const account = await accountOf(mock.url, 'igk_payg_migrated_from_json_00000001');
      expect(account.usage.calls_used).toBe(7);
      expect(account.balance.prepaid_rows).toBe(4_321);
      expect(await (await fetch(`${mock.url}/__control/clock`)).json()).toEqual({
        now: '2026-11-25T10:00:00.000Z',
        frozen: true,
      });
    } finally {
      await stop(mock.child);
    }
    expect(JSON.parse(readFileSync(`${file}.v1.json`, 'utf8')).keys[0].callsUsed).toBe(7);
    // The prefix earlier versions kept (a preset key's text up to its last '_') is cut to the kit's form.
    expect(readFileSync(file).toString('latin1')).not.toContain('igk_payg_migrated_from_json_');
    expect(readFileSync(file).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    // Started again, it opens the database (the account call is free, so the count is as migrated).
    const again = await start('--state', file);
    try {
      expect((await accountOf(again.url, 'igk_payg_migrated_from_json_00000001')).usage.calls_used).toBe(7);
    } finally {
      await stop(again.child);
    }
  },
);

/**
 * Runs `code` (with `SqliteKeyStore` imported) in `count` processes that each wait for one instant,
 * then run it: as mocks started together would. Resolves with what each printed.
 */
function atOneInstant(count: number, code: string): Promise<string[]> {
  const store = fileURLToPath(new URL('./key-store.ts', import.meta.url));
  const script =
    `import { SqliteKeyStore } from ${JSON.stringify(store)};\n` +
    `while (Date.now() < ${Date.now() + 1500}) {}\n${code}`;
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<string>((resolve) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (out += d));
          child.on('exit', () => resolve(out.trim()));
        }),
    ),
  );
}

test(
  'processes opening one new state file at the same instant ' +
    'all open it (regression: a race on creating the schema)',
  async () => {
    const file = join(temp, 'raced.db');
    // The first creates the schema, the others share it.
    const outputs = await atOneInstant(
      6,
      `try { SqliteKeyStore.open(${JSON.stringify(file)}).close(); console.log('opened'); } catch (e) { ` +
        `console.log(e.message); }`,
    );
    expect(outputs).toEqual(Array(6).fill('opened'));
    const db = new DatabaseSync(file);
    expect((db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number }).n).toBe(
      3,
    );
    db.close();
  },
);

test(
  'a state file of the first schema (no shared buckets) ' + 'is brought up to the second when opened, its keys kept',
  async () => {
    const file = join(temp, 'schema-1.db');
    const store = SqliteKeyStore.open(file);
    const accounts = new Accounts(store);
    const { record } = await accounts.create('team', Date.parse('2026-11-01T00:00:00Z'));
    store.close();
    // What a kit of schema 1 wrote: no buckets table, user_version 1.
    const old = new DatabaseSync(file);
    old.exec('DROP TABLE buckets; PRAGMA user_version = 1');
    old.close();
    const reopened = SqliteKeyStore.open(file);
    try {
      expect(reopened.byId(record.keyId)?.plan).toBe('team');
      expect(reopened.buckets().take('failed-auth', '10.0.0.1', 2, 1)).toEqual({ wait: 0, left: 1 });
    } finally {
      reopened.close();
    }
    const db = new DatabaseSync(file);
    expect(Object.values(db.prepare('PRAGMA user_version').get()!)[0]).toBe(2);
    db.close();
  },
);

test(
  'a state file another process holds locked a little longer than the ' +
    'busy timeout is opened once it is free, not called damaged (regression)',
  async () => {
    const file = join(temp, 'held-at-open.db');
    SqliteKeyStore.open(file).close();
    // Another process takes the write lock and keeps it 4 s. The opener starts 1.5 s in (atOneInstant),
    // so a single wait of the busy timeout (2 s) ends before the lock is released.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { DatabaseSync } from 'node:sqlite';
const db = new DatabaseSync(${JSON.stringify(file)}); db.exec('BEGIN IMMEDIATE'); console.log('held');
const until = Date.now() + 4000; while (Date.now() < until) {} db.exec('ROLLBACK'); db.close();`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    const outputs = await atOneInstant(
      1,
      `try { SqliteKeyStore.open(${JSON.stringify(file)}).close(); console.log('opened'); } catch (e) { ` +
        `console.log(e.message); }`,
    );
    expect(outputs).toEqual(['opened']);
  },
);

// --- in one process: two mocks on one database, as two processes would have them ---

test(
  'two mocks started at the same moment on one database with the ' +
    'same --key both start (regression: "That key already exists")',
  async () => {
    const state = join(temp, 'same-key.db');
    const key = 'igk_team_started_twice_at_once_00001';
    const [dataset, validator] = await Promise.all([loadInput({}), createContractValidator()]);
    // Two engines made in the same tick, each on its own connection to the file, as two processes have:
    // both look for the key before either has added it.
    const stores = [SqliteKeyStore.open(state), SqliteKeyStore.open(state)];
    try {
      const engines = stores.map((keyStore) =>
        createEngine({ dataset, validator, keyStore, keys: [{ plan: 'team', key }] }),
      );
      await Promise.all(engines.map((engine) => engine.ready));
      expect(stores[0]!.list()).toHaveLength(1);
    } finally {
      for (const store of stores) store.close();
    }
  },
);

test(
  'advances of the clock made through two mocks at ' + 'once all count (regression: one overwrote the other)',
  async () => {
    const state = join(temp, 'clock-race.db');
    // The first on a database decides its clock; the second takes it up.
    const a = await startMock({ port: 0, stateFile: state, now: '2027-01-01T00:00:00Z', frozen: true });
    const b = await startMock({ port: 0, stateFile: state });
    try {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          control(i % 2 ? a.url : b.url, '/clock/advance', 'POST', { duration: 'PT1H' }),
        ),
      );
      for (const mock of [a, b])
        expect(await control(mock.url, '/clock/advance', 'POST', { seconds: 0 })).toMatchObject({
          now: '2027-01-01T10:00:00.000Z',
        });
      // Freezing through one just after the other advanced: at the time as stored, not a 400 "backwards".
      await control(a.url, '/clock/advance', 'POST', { duration: 'PT1H' });
      expect(await control(b.url, '/clock', 'PUT', { frozen: true })).toMatchObject({
        now: '2027-01-01T11:00:00.000Z',
        frozen: true,
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  },
);

test(
  'a clock moved by a fraction of a millisecond stays whole, and the ' +
    'calls after it are answered (regression: 500 on every later call)',
  async () => {
    const key = 'igk_team_fraction_of_a_millisecond_01';
    const mock = await startMock({
      port: 0,
      stateFile: join(temp, 'fraction.db'),
      keys: [{ plan: 'team', key }],
      now: '2027-01-01T00:00:00Z',
      frozen: true,
    });
    try {
      expect(await control(mock.url, '/clock/advance', 'POST', { seconds: 0.0006 })).toMatchObject({
        now: '2027-01-01T00:00:00.001Z',
      });
      expect((await get(`${mock.url}/api/v1/firms?limit=1`, key)).status).toBe(200);
      expect((await accountOf(mock.url, key)).usage.calls_used).toBe(1);
    } finally {
      await mock.close();
    }
    // A file an earlier version left with a fractional clock is read as whole ms, and served.
    const db = new DatabaseSync(join(temp, 'fraction.db'));
    db.prepare("UPDATE meta SET value = ? WHERE name = 'clock'").run(
      JSON.stringify({ at: Date.parse('2027-01-02T00:00:00Z') + 0.5, real: 0, frozen: true }),
    );
    db.close();
    const again = await startMock({ port: 0, stateFile: join(temp, 'fraction.db') });
    try {
      expect((await get(`${again.url}/api/v1/firms?limit=1`, key)).status).toBe(200);
      // A new key takes the clock's time as its creation time, an INTEGER column.
      expect(
        (
          await fetch(`${again.url}/__control/keys`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"plan":"team"}',
          })
        ).status,
      ).toBe(201);
    } finally {
      await again.close();
    }
  },
);

test(
  'a call that waits on a write lock held by something else ' +
    'gets 503 state_busy with Retry-After, and counts nothing',
  async () => {
    const state = join(temp, 'busy.db');
    const key = 'igk_payg_waits_on_a_held_lock_000001';
    const mock = await startMock({ port: 0, stateFile: state, keys: [{ plan: 'payg', key, prepaidRows: 1_000 }] });
    const shell = new DatabaseSync(state);
    try {
      shell.exec('BEGIN IMMEDIATE'); // as a sqlite3 shell left in a transaction would
      const answer = await get(`${mock.url}/api/v1/firms?limit=5`, key);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(await answer.json()).toMatchObject({ code: 'state_busy', status: 503 });
      // A control call meets the same 503, not a 400 blaming its body (regression).
      const clock = await fetch(`${mock.url}/__control/clock`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"frozen":true}',
      });
      expect(clock.status).toBe(503);
      shell.exec('ROLLBACK');
      const usage = (await accountOf(mock.url, key)).usage;
      expect(usage).toMatchObject({ calls_used: 0, balance_rows: 1_000 });
    } finally {
      if (shell.isTransaction) shell.exec('ROLLBACK');
      shell.close();
      await mock.close();
    }
  },
);

test(
  'a state database that turns read-only (or fills its disk) while the mock runs: ' +
    '503 state_unavailable with Retry-After, nothing counted, not 500 (regression)',
  async () => {
    const state = join(temp, 'readonly.db');
    const key = 'igk_payg_meets_a_read_only_file_0001';
    const mock = await startMock({ port: 0, stateFile: state, keys: [{ plan: 'payg', key, prepaidRows: 1_000 }] });
    // The mock's own connection made read-only (SQLite's query_only): every write fails as on a file
    // chmod'ed read-only or a full disk (SQLITE_READONLY, SQLITE_FULL), which root cannot be shown.
    const db = (mock.engine.accounts.store as unknown as { db: DatabaseSync }).db;
    try {
      db.exec('PRAGMA query_only = ON');
      const answer = await get(`${mock.url}/api/v1/firms?limit=5`, key);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('10');
      const body = await answer.json();
      expect(body).toMatchObject({ code: 'state_unavailable', status: 503 });
      expect(body.detail).toContain('is read-only');
      db.exec('PRAGMA query_only = OFF');
      const usage = (await accountOf(mock.url, key)).usage;
      expect(usage).toMatchObject({ calls_used: 0, balance_rows: 1_000 });
    } finally {
      await mock.close();
    }
  },
);

test(
  'processes started together on one JSON state file ' + 'migrate it once, and keep the JSON for its owner alone',
  async () => {
    const file = join(temp, 'legacy-together');
    writeFileSync(file, JSON.stringify(jsonState()));
    // The first migrates; the others wait for its database and open it.
    const outputs = await atOneInstant(
      4,
      `try { const s = SqliteKeyStore.open(${JSON.stringify(file)}); console.log(s.list().length); s.close(); } ` +
        `catch (e) { console.log(e.message); }`,
    );
    expect(outputs).toEqual(Array(4).fill('1'));
    expect(existsSync(`${file}.migrating`)).toBe(false);
    const kept = readFileSync(`${file}.v1.json`, 'utf8');
    expect(statSync(`${file}.v1.json`).mode & 0o777).toBe(0o600);
    expect(JSON.parse(kept).keys[0]).toMatchObject({ callsUsed: 7, prefix: 'igk_payg_' });
    expect(kept).not.toContain('igk_payg_migrated_from_json_');
  },
);

test('a folder given as the state file is refused in one line, naming it', () => {
  const folder = join(temp, 'a-folder');
  mkdirSync(folder);
  const run = refused(folder);
  expect(run.status).toBe(2);
  expect(run.out).toContain(`--state ${folder}: cannot be read`);
  expect(run.out).not.toMatch(/\n\s+at /);
});
