// @module-tag servers
/**
 * The sync and the service's limits and keys: a 429 waited out as Retry-After says, a plan that
 * cannot sync refused, the key taken from the environment or standard input and found in no file
 * and no line of output, nothing written before it is agreed to, one line of progress on a terminal.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { canRun } from '@investor-graph/cli';
import { killAll, stop } from '../cli/cli-process.test-support.ts';
import { control, datasetBin, folder, startMock, sync, type Ran } from './sync.test-support.ts';

const temp = await mkdtemp(join(tmpdir(), 'ig-sync-limits-'));
const keys = { enterprise: 'igk_enterprise_sync_limits_00001', team: 'igk_team_sync_limits_000000000001' };
let source: Awaited<ReturnType<typeof startMock>>;
let whole: Record<string, string>;
/** Every run's output and folder, scanned for the key at the end. */
const outputs: { key: string; ran: Ran }[] = [];
const folders: string[] = [];
const run = async (out: string, key: string | null, extra: string[] = [], input?: string) => {
  folders.push(out);
  const ran = await sync(
    ['--base-url', source.url, '--out', out, '--limit', '50', ...extra],
    key,
    input === undefined ? {} : { input },
  );
  outputs.push({ key: key ?? input!.trim(), ran });
  return ran;
};

beforeAll(async () => {
  // echo-key: the service lists the caller's whole key in /account, which the sync must not pass on.
  const presets = Object.entries(keys).flatMap(([plan, key]) => ['--key', `${plan}=${key}`]);
  source = await startMock(join(temp, 'cache'), { seed: 'sync-limits' }, ...presets, '--fault', 'echo-key');
  const ran = await run(join(temp, 'whole'), keys.enterprise, ['--yes']);
  expect(ran.status, ran.stderr).toBe(0);
  whole = folder(join(temp, 'whole'));
});
afterAll(async () => {
  await stop(source.child);
  killAll();
  await rm(temp, { recursive: true, force: true });
});

interface Entry {
  at: string;
  operation: string;
  status: number;
}
const journal = async (query: string) =>
  ((await (await fetch(`${source.url}/__control/journal?limit=1000${query}`)).json()) as { entries: Entry[] }).entries;

test(`a 429 is waited out as its Retry-After says, and the sync ends whole: another client spends the Team key's \
bucket under it, which the RateLimit header of the sync's last answer could not foretell`, async () => {
  await fetch(`${source.url}/__control/journal`, { method: 'DELETE' });
  const out = join(temp, 'limited');
  let done = false;
  const synced = run(out, keys.team, ['--yes']).finally(() => (done = true));
  // The other client asks for the account (free, but rate-limited): the sync asks for it only at its start.
  const spend = () => fetch(`${source.url}/api/v1/account`, { headers: { authorization: `Bearer ${keys.team}` } });
  const syncs429 = async () => (await journal('&status=429')).filter((e) => e.operation !== 'getAccount').length;
  while (!done && !existsSync(join(out, 'sync-state.json'))) await sleep(20);
  // Windows of 0.7 s in which the bucket is kept empty, until the sync has met a 429 in one.
  for (let window = 0; window < 10 && !done && (await syncs429()) === 0; window++) {
    for (const end = Date.now() + 700; Date.now() < end; await sleep(15)) await spend();
    await sleep(1500);
  }
  const ran = await synced;
  expect(ran.status, ran.stderr).toBe(0);
  expect(folder(out)).toEqual(whole);
  const own = (await journal('')).filter((e) => e.operation !== 'getAccount');
  const refused = own.filter((e) => e.status === 429);
  expect(refused.length).toBeGreaterThan(0);
  expect(ran.stdout).toContain(`waited out ${refused.length} answers 429 or 503 (${refused.length} s)`);
  // Each call after a 429 came at least its Retry-After (1 s here) later.
  for (const [i, entry] of own.entries())
    if (entry.status === 429) expect(Date.parse(own[i + 1]!.at) - Date.parse(entry.at)).toBeGreaterThanOrEqual(950);
});

test('a trial key cannot sync: one line says why (its plan has no changes feed) and exit 3, nothing \
written', async () => {
  const trial = await control(source.url, '/keys', { plan: 'trial' });
  const out = join(temp, 'trial');
  const ran = await run(out, trial.key as string, ['--yes']);
  expect(ran.status).toBe(3);
  expect(ran.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(/^\[sync\] a Free trial key cannot sync: its plan has no changes feed/),
  ]);
  expect(existsSync(out)).toBe(false);
});

test(`without --yes off a terminal, the sync says what it would walk and spend, then stops (exit 2) having written \
nothing`, async () => {
  const out = join(temp, 'unasked');
  const ran = await run(out, keys.enterprise);
  expect(ran.status).toBe(2);
  expect(ran.stderr).toContain('[sync] at most 5,000 calls and 1,000,000 rows');
  expect(ran.stderr.trim().split('\n').at(-1)).toContain('not on a terminal, so nobody can say yes');
  expect(existsSync(out)).toBe(false);
});

test('the key comes from standard input when INVESTOR_GRAPH_KEY is not set; with neither, exit 2 and one \
line', async () => {
  const piped = await run(join(temp, 'piped'), null, ['--yes'], `${keys.enterprise}\n`);
  expect(piped.status, piped.stderr).toBe(0);
  expect(folder(join(temp, 'piped'))).toEqual(whole);
  const none = await run(join(temp, 'none'), null, ['--yes'], '');
  expect(none.status).toBe(2);
  expect(none.stderr.trim().split('\n')).toEqual([expect.stringContaining('no key: set INVESTOR_GRAPH_KEY')]);
});

test.skipIf(!canRun('script', ['--version']))(
  'on a terminal the sync shows one line of progress that updates in place, then its summary',
  () => {
    const out = join(temp, 'terminal');
    folders.push(out);
    const command = [process.execPath, datasetBin, 'sync', '--base-url', source.url, '--out', out, '--yes']
      .map((a) => `'${a}'`)
      .join(' ');
    const { CI: _ci, ...env } = process.env;
    const ran = spawnSync('script', ['-qec', command, '/dev/null'], {
      env: { ...env, INVESTOR_GRAPH_KEY: keys.enterprise },
      encoding: 'utf8',
    });
    outputs.push({ key: keys.enterprise, ran: { status: ran.status, stdout: ran.stdout, stderr: ran.stderr } });
    expect(ran.status, ran.stdout).toBe(0);
    expect(ran.stdout).toMatch(/\r\[sync\] [a-z-]+: [\d,]+ rows · \d+ calls, [\d,]+ rows served · \d+ s/);
    expect(ran.stdout).toMatch(/\nsynced http:\/\/127\.0\.0\.1:\d+ into /);
  },
);

test(`the key is in no file of any folder a sync wrote (whole, stopped halfway or refused) and in no line of any \
output, in any form, although the service echoed it`, async () => {
  // A stopped run too: its staged files and state are the ones a resume reads.
  const stopped = await run(join(temp, 'stopped'), keys.enterprise, ['--yes', '--max-calls', '6']);
  expect(stopped.status).toBe(1);
  expect(existsSync(join(temp, 'stopped', '.partial'))).toBe(true);
  // A key given as a flag is refused as an unknown flag, and not echoed.
  const flagged = await run(join(temp, 'flagged'), null, ['--key', keys.team], '');
  expect(flagged.status).toBe(2);
  outputs.push({ key: keys.team, ran: flagged });
  const forms = (key: string) => [
    key,
    encodeURIComponent(key),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('base64url'),
    key.slice(4, -4), // any long stretch of it
  ];
  expect(outputs.length).toBeGreaterThan(8);
  for (const { key, ran } of outputs.filter((o) => o.key))
    for (const form of forms(key)) expect(`${ran.stdout}\n${ran.stderr}`).not.toContain(form);
  const every = [...new Set(Object.values(keys))];
  for (const dir of folders.filter((d) => existsSync(d)))
    for (const [file, bytes] of Object.entries(folder(dir)))
      for (const form of every.flatMap(forms)) expect(bytes, `${dir}/${file}`).not.toContain(form);
});
