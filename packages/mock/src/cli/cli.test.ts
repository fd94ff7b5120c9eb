// @module-tag servers
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, test } from 'vitest';
import { databaseLayout } from '@investor-graph/dataset-tools/database';
import { loadDataset } from '@investor-graph/dataset-tools/node';
import type { Row } from '@investor-graph/dataset-tools';
import { datasetDir } from '@investor-graph/dataset';
import { writeDumpFolder } from '../dumps/read/dump-folder.test-support.ts';
import { cli, killAll, running, start, startWith, stop } from './cli-process.test-support.ts';

const temp = await mkdtemp(join(tmpdir(), 'ig-mock-cli-'));
afterAll(async () => {
  killAll();
  await rm(temp, { recursive: true, force: true });
});

const team = 'igk_team_clitestclitestclitest000000';

// Issue #68: --help was 162 lines, 110 of them the fault list; a mistyped --fault got the whole list and no
// "did you mean"; --versoin got no "did you mean" either.
test('--help fits a screen or two, pointing at --help faults, which lists every fault by what it breaks', () => {
  const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8', timeout: 20_000 });
  expect(help.status).toBe(0);
  expect(help.stdout.trim().split('\n').length).toBeLessThan(80);
  expect(help.stdout).toMatch(/--fault NAME .*\n.*investor-graph-mock --help faults/);
  const faults = spawnSync(process.execPath, [cli, '--help', 'faults'], { encoding: 'utf8', timeout: 20_000 });
  expect(faults.status).toBe(0);
  expect(faults.stdout).toMatch(/^ {2}drop-actions +answers 401, 402 and 429 without their actions$/m);
  expect(faults.stdout).toMatch(/^ {2}quota-left-stuck /m);
});

test('a mistyped --fault or --version gets one line with the nearest name, and exit 2', () => {
  for (const [args, says] of [
    [
      ['--fault', 'drop-action'],
      '--fault drop-action is not a fault: did you mean drop-actions? (investor-graph-mock --help faults lists them)',
    ],
    [['--versoin'], "Unknown option '--versoin'. Did you mean --version?"],
  ] as const) {
    const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, args.join(' ')).toBe(2);
    expect(run.stderr.trim().split('\n'), run.stderr).toEqual([expect.stringContaining(says)]);
  }
});

test(
  'the CLI prints its base URL and a ready-made key per plan, ' + 'serves preset keys, logs and journals requests',
  async () => {
    const { url, output, child } = await start('--key', `team=${team}`, '--log', '--journal', '5');
    expect(output()).toContain(`team       ${team}`);
    for (const plan of ['trial', 'business', 'enterprise', 'payg'])
      expect(output()).toMatch(new RegExp(`${plan}\\s+igk_${plan}_[A-Za-z0-9]{32}`));
    expect(output()).toContain('/__control');
    const answer = await fetch(`${url}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${team}` } });
    expect(answer.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(output()).toMatch(/GET \/api\/v1\/firms\?limit=1 200 [\d.]+ms/);
    const journal = (await (await fetch(`${url}/__control/journal`)).json()) as {
      entries: unknown[];
      capacity: number;
    };
    expect(journal).toMatchObject({ capacity: 5, entries: [{ operation: 'listFirms', plan: 'team', status: 200 }] });
    expect(await stop(child)).toBe(0);
  },
);

test('a leading -- (as `pnpm start -- --port N` passes it) is accepted', () => {
  const run = spawnSync(process.execPath, [cli, '--', '--help'], { encoding: 'utf8', timeout: 20_000 });
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('usage: investor-graph-mock');
});

test("--help gives --data's three forms, a nightly dump's with where its files go and the terms it comes under", () => {
  const run = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8', timeout: 20_000 });
  expect(run.stdout).toMatch(/--data DIR\|FILE +a dataset folder, or a database written by investor-graph-dataset/);
  expect(run.stdout).toContain(
    'or a nightly dump: DIR\n                      holding the answer of GET /api/v1/exports',
  );
  expect(run.stdout).toContain('internal use, no republishing');
});

test('bad flags exit with code 2 and say what is wrong', () => {
  for (const [args, says] of [
    [['--port', 'eighty'], '--port must be'],
    [['--key', 'gold=abcdefghij'], '--key takes PLAN=KEY'],
    [['--scale', '12'], '--scale must be'],
    [['--now', 'yesterday'], '--now must be'],
    [['--journal', 'all'], '--journal must be a whole number'],
    [['--wat'], "Unknown option '--wat'"],
  ] as const) {
    const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, args.join(' ')).toBe(2);
    expect(run.stderr).toContain(says);
  }
});

test(
  '--seed and --scale serve a generated dataset, built once into the ' +
    "kit's cache and opened from it after; --now and --frozen set the clock",
  async () => {
    const env = { KIT_CACHE: join(temp, 'cache') };
    const args = [
      '--seed',
      'cli-test',
      '--scale',
      '2000',
      '--now',
      '2026-12-24T00:00:00Z',
      '--frozen',
      '--key',
      `team=${team}`,
    ];
    const pages: unknown[] = [];
    for (const run of ['first', 'second']) {
      const { url, child, output } = await startWith(env, ...args);
      if (run === 'first')
        expect(output()).toContain(`building the dataset once, into ${join(temp, 'cache', 'datasets')}`);
      else expect(output()).not.toContain('building');
      const state = await (await fetch(`${url}/__control/state`)).json();
      expect(state.clock).toEqual({ now: '2026-12-24T00:00:00.000Z', frozen: true });
      const firms = await (
        await fetch(`${url}/api/v1/firms?limit=500`, { headers: { authorization: `Bearer ${team}` } })
      ).json();
      expect(firms.data.length).toBeGreaterThan(10);
      expect(firms.data.length).toBeLessThan(60);
      pages.push(firms.data);
      await stop(child);
    }
    expect(pages[1]).toEqual(pages[0]);
    expect((await readdir(join(temp, 'cache', 'datasets'))).filter((f) => !f.endsWith('.sqlite'))).toEqual([]);
  },
);

test('--data naming a file that is no dataset database is one line and exit 2', async () => {
  const file = join(temp, 'not-a-dataset.sqlite');
  await writeFile(file, 'hello');
  const run = spawnSync(process.execPath, [cli, '--data', file], { encoding: 'utf8', timeout: 20_000 });
  expect(run.status).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain('is not a dataset database');
  // A database an older kit wrote says so, and how to write it again.
  const older = join(temp, 'older-kit.sqlite');
  const db = new DatabaseSync(older);
  db.exec("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('layout', '1')");
  db.close();
  const again = spawnSync(process.execPath, [cli, '--data', older], { encoding: 'utf8', timeout: 20_000 });
  expect(again.status).toBe(2);
  expect(again.stderr.trim().split('\n')).toHaveLength(1);
  expect(again.stderr).toContain(
    `was written by another version of the kit (database layout 1; this one reads ${databaseLayout}): write it again`,
  );
});

test('a state file keeps every counted call and charged row across a crash, and holds no key', async () => {
  const stateFile = join(temp, 'state.db');
  const payg = 'igk_payg_clitestclitestclitest0000000';
  const first = await start('--state', stateFile, '--key', `payg=${payg}`, '--key', `team=${team}`);
  const calls = [3, 25, 12];
  for (const limit of calls) {
    const answer = await fetch(`${first.url}/api/v1/firms?limit=${limit}`, {
      headers: { authorization: `Bearer ${payg}` },
    });
    expect(answer.status).toBe(200);
  }
  const trial = await (
    await fetch(`${first.url}/api/v1/keys/trial`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"ops@example.com"}',
    })
  ).json();
  expect(await stop(first.child, 'SIGKILL')).toBeNull();

  // The database and its WAL: what a crash leaves is in the WAL until the next start checkpoints it.
  for (const file of (await readdir(temp)).filter((f) => f.startsWith('state.db'))) {
    const saved = (await readFile(join(temp, file))).toString('latin1');
    for (const secret of [payg, team, trial.key]) expect(saved, file).not.toContain(secret);
    expect(saved, file).not.toContain('ops@example.com');
  }

  const second = await start('--state', stateFile, '--key', `payg=${payg}`);
  const account = await (
    await fetch(`${second.url}/api/v1/account`, { headers: { authorization: `Bearer ${payg}` } })
  ).json();
  const charged = calls.reduce((n, l) => n + Math.max(l, 10), 0);
  expect(account.data.usage.calls_used).toBe(calls.length);
  expect(account.data.balance.prepaid_rows).toBe(100_000 - charged);
  const trialAgain = await fetch(`${second.url}/api/v1/keys/trial`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"email":"OPS@example.com"}',
  });
  expect(trialAgain.status, 'one live trial per e-mail, also after a restart').toBe(409);
  expect(
    (await fetch(`${second.url}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${trial.key}` } })).status,
  ).toBe(200);
  await stop(second.child);
});

test(
  'proxy mode: clean traffic exits 0 with clean reports; a broken ' +
    'upstream exits 1 with the rule in JUnit, and no key in the log',
  async () => {
    const clean = await start('--key', 'team=igk_team_cleancleancleancleancleanclean12');
    const broken = await start('--key', 'team=igk_team_brokenbrokenbrokenbrokenbroken12', '--fault', 'leak-email');
    for (const [upstream, key, name, code] of [
      [clean.url, 'igk_team_cleancleancleancleancleanclean12', 'clean', 0],
      [broken.url, 'igk_team_brokenbrokenbrokenbrokenbroken12', 'broken', 1],
    ] as const) {
      // The upstream as --upstream and, as prism proxy takes it, as the argument.
      const proxy = await start(
        'proxy',
        ...(code === 0 ? ['--upstream', upstream] : [upstream]),
        '--report',
        join(temp, `${name}.json`),
        '--junit',
        join(temp, `${name}.xml`),
      );
      const answer = await fetch(`${proxy.url}/api/v1/firms?limit=2`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers.has('sl-violations')).toBe(code === 1);
      expect(await stop(proxy.child)).toBe(code);
      const report = JSON.parse(await readFile(join(temp, `${name}.json`), 'utf8'));
      expect(report.exchanges).toBe(1);
      expect((report.by_rule['no-people'] ?? 0) > 0).toBe(code === 1);
      expect((await readFile(join(temp, `${name}.xml`), 'utf8')).includes('<failure')).toBe(code === 1);
      expect(proxy.output()).toContain('GET /api/v1/firms?limit=2 200');
      expect(proxy.output()).not.toContain(key);
    }
    await Promise.all([stop(clean.child), stop(broken.child)]);
  },
  60_000,
);

test('proxy mode refuses bad flags with code 2, naming the flag it takes for a typo', () => {
  for (const [args, message] of [
    [['proxy'], /give the upstream: investor-graph-mock proxy URL/],
    [['proxy', '--upstream', 'ftp://x'], /must be http or https/],
    [['proxy', 'http://127.0.0.1:1', '--upstream', 'http://127.0.0.1:2'], /give the upstream once/],
    [['proxy', 'http://127.0.0.1:1', 'http://127.0.0.1:2'], /unexpected argument 'http:\/\/127\.0\.0\.1:2'/],
    [['proxy', '--upstrem', 'http://127.0.0.1:1'], /Unknown option '--upstrem'\. Did you mean --upstream\?/],
    [['proxy', '--upstream', 'http://127.0.0.1:1', '--timeout', 'soon'], /--timeout/],
  ] as const) {
    const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
  }
});

test(
  'the mock takes -p and -h as prism mock does, keeps ' + '--help for help, and names the flag meant by a typo',
  async () => {
    const mock = await start('-p', '0', '-h', '127.0.0.1');
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await stop(mock.child);
    const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('-h, --host H');
    const typo = spawnSync(process.execPath, [cli, '--prot', '4010'], { encoding: 'utf8', timeout: 20_000 });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/Unknown option '--prot'\. Did you mean --port\?/);
  },
);

test('SIGTERM lets a request in flight finish with its answer before the mock exits 0', async () => {
  const mock = await start();
  const { port } = new URL(mock.url);
  const socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  socket.on('data', (d) => (answer += String(d)));
  const body = '{"email":"drain-check@example.com"}';
  await new Promise((resolve) => socket.once('connect', resolve));
  // Headers and half the body: the request is in flight when the signal comes.
  socket.write(
    `POST /api/v1/keys/trial HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  await new Promise((r) => setTimeout(r, 300));
  const exited = stop(mock.child);
  await new Promise((r) => setTimeout(r, 300));
  socket.end(body.slice(10));
  expect(await exited).toBe(0);
  expect(answer).toMatch(/^HTTP\/1\.1 201 /);
});

test(
  'Ctrl-C as a terminal and a runner send it (twice at once) is one ' +
    'clean stop with exit 0; a second Ctrl-C later stops at once with 130',
  async () => {
    const exits = (child: ChildProcess) =>
      new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // pnpm start: the terminal's SIGINT reaches the whole group, and pnpm passes it on to the mock.
    const mock = await start();
    const first = exits(mock.child);
    mock.child.kill('SIGINT');
    mock.child.kill('SIGINT');
    expect(await first).toBe(0);

    // A request held in flight keeps the stop waiting, until the user presses Ctrl-C again.
    const held = await start();
    const { port } = new URL(held.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/keys/trial HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: 40\r\n\r\n{"email"`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const second = exits(held.child);
    held.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(held.child.exitCode, 'still draining after the first Ctrl-C').toBeNull();
    held.child.kill('SIGINT');
    expect(await second).toBe(130);
    socket.destroy();
  },
);

test('--data naming a folder that is not there is one line and exit 2', () => {
  const run = spawnSync(process.execPath, [cli, '--data', join(temp, 'no-such-dataset')], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([
    `[investor-graph mock] --data ${join(temp, 'no-such-dataset')}: no such folder or file`,
  ]);
});

test(
  'listening beyond loopback with an admin token says, ' + 'before anything else, who can then drive the control plane',
  async () => {
    const child = spawn(
      process.execPath,
      [cli, '--host', '0.0.0.0', '--port', '0', '--admin-token', 'a-long-admin-token-for-the-test'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    running.add(child);
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no warning within 20 s: ${err}`)), 20_000);
      child.stderr.on('data', () => {
        if (err.includes('warning')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(err).toContain(
      'warning: listening on 0.0.0.0 with --admin-token: anyone who can reach this address and has the token ' +
        'drives the control endpoints',
    );
    expect(err).not.toContain('a-long-admin-token-for-the-test');
    await stop(child);
  },
);

test(
  '--data naming a nightly dump serves its rows as it holds them, fields the contract does not know ' +
    'included, and says once at start what the contract does not describe',
  async () => {
    const { rows } = await loadDataset(datasetDir);
    const dir = join(temp, 'dump-odd-rows');
    const firms = rows.firm.map((f, i) => (i === 0 ? { ...f, internal_score: 7 } : f));
    // The row before it again: the first is served.
    firms.splice(6, 0, { ...firms[5]!, name: 'The same slug again' });
    const rounds = [...rows.round];
    const { currency: _currency, ...withoutCurrency } = rounds[1]!;
    rounds[1] = withoutCurrency;
    rounds[2] = { ...rounds[2]!, amount_usd: -5 };
    // A row without its key: nothing can name it, so it is not served, and said to be.
    const { slug: _slug, ...keyless } = rows.company.at(-1)!;
    writeDumpFolder(dir, { firm: firms, company: [...rows.company.slice(0, -1), keyless], round: rounds });
    const { url, output, child } = await startWith(
      { KIT_CACHE: join(temp, 'dump-cache') },
      '--data',
      dir,
      '--key',
      `team=${team}`,
    );
    const report = output().slice(output().indexOf('[investor-graph mock] the dump holds'));
    expect(report.split('\n').slice(0, 6)).toEqual([
      '[investor-graph mock] the dump holds what the contract does not describe; served as the dump holds it:',
      '  firm: 1 row with fields the contract does not know: internal_score (1)',
      '  round: 1 row without fields the contract requires: currency (1)',
      "  round: 1 row with values out of the contract's bounds: amount_usd (1, must be >= 0)",
      '  firm: 1 row NOT served: slug repeated (the first served) (1)',
      '  company: 1 row NOT served: no slug (1)',
    ]);
    expect(output()).toContain('  investment: the dump has no file of investments: none served');
    expect(output()).toMatch(/data: {3}98 firms, 348 companies, 1,695 rounds, 0 investments, as of 2026-11-20T04:00/);
    const get = async (path: string) =>
      (await (await fetch(`${url}/api/v1${path}`, { headers: { authorization: `Bearer ${team}` } })).json()) as {
        data: Record<string, unknown>;
      };
    expect((await get(`/firms/${firms[0]!.slug as string}`)).data).toEqual(firms[0]);
    expect((await get(`/firms/${firms[5]!.slug as string}`)).data).toEqual(firms[5]);
    // The rounds of a company, as the dump holds them: one without a currency, one of a negative amount.
    for (const odd of [rounds[1], rounds[2]] as Row[]) {
      const ofCompany = (await get(`/companies/${odd.company_slug as string}/rounds?limit=500`)).data;
      expect((ofCompany as unknown as Row[]).find((r) => r.id === odd.id)).toEqual(odd);
    }
    expect(await stop(child)).toBe(0);
  },
);

test('--data naming a nightly dump whose file is not what its manifest says is one line naming it, and exit 2', () => {
  const { rows } = { rows: { firm: [{ slug: 'a' }, { slug: 'b' }] } };
  for (const [member, value, says] of [
    ['sha256', 'ab'.repeat(32), 'does not match the manifest: its sha256 is'],
    ['rows', 3, 'does not match the manifest: it holds 2 rows, the manifest says 3'],
    ['slug', 'a', 'holds two rows with one key'],
  ] as const) {
    const dir = join(temp, `dump-wrong-${member}`);
    // A key repeated further apart than the row before (a file out of key order) cannot be told from two records.
    writeDumpFolder(dir, member === 'slug' ? { firm: [...rows.firm, { slug: 'a' }] } : rows);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    if (member !== 'slug') manifest.data[0].files[0][member] = value;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const run = spawnSync(process.execPath, [cli, '--data', dir, '--port', '0'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, KIT_CACHE: join(temp, 'dump-cache') },
    });
    expect(run.status, run.stderr).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-1)).toContain(`[investor-graph mock] --data ${dir}: firms.jsonl.gz ${says}`);
    // Nothing half-read is kept: the next start reads it again.
    expect(readdirSync(join(temp, 'dump-cache', 'datasets')).filter((f) => f.includes('building'))).toEqual([]);
  }
});
