// @module-tag servers
/**
 * A sync stopped anywhere (its budget, a 402, a kill) keeps what it wrote and the same command goes
 * on from there, to the very folder one uninterrupted sync writes.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { killAll, stop } from '../cli/cli-process.test-support.ts';
import { control, folder, startMock, sync, type Ran } from './sync.test-support.ts';

const temp = await mkdtemp(join(tmpdir(), 'ig-sync-resume-'));
const keys = { enterprise: 'igk_enterprise_sync_resume_00001', team: 'igk_team_sync_resume_0000000001' };
let source: Awaited<ReturnType<typeof startMock>>;
let whole: Record<string, string>;
const args = (out: string) => ['--base-url', source.url, '--out', out, '--yes', '--limit', '40'];

beforeAll(async () => {
  source = await startMock(
    join(temp, 'cache'),
    { seed: 'sync-resume' },
    ...Object.entries(keys).flatMap(([p, k]) => ['--key', `${p}=${k}`]),
  );
  const out = join(temp, 'whole');
  const ran = await sync(args(out), keys.enterprise);
  expect(ran.status, ran.stderr).toBe(0);
  whole = folder(out);
});
afterAll(async () => {
  await stop(source.child);
  killAll();
  await rm(temp, { recursive: true, force: true });
});

/** Runs `run` until it exits 0, at most `times` times, checking each stop says how to go on. */
async function untilWhole(run: () => Promise<Ran>, times: number, stops: (ran: Ran) => void): Promise<number> {
  for (let n = 1; n <= times; n++) {
    const ran = await run();
    if (ran.status === 0) return n;
    expect(ran.status, ran.stderr).toBe(1);
    stops(ran);
  }
  throw new Error(`not whole after ${times} runs`);
}

test(`a sync stopped by its budget of calls, again and again, in the lists, the feed or between a list's own calls, \
ends in the folder one uninterrupted sync writes, byte for byte`, async () => {
  const out = join(temp, 'budget');
  const runs = await untilWhole(
    () => sync([...args(out), '--max-calls', '4'], keys.enterprise),
    20,
    (ran) => {
      expect(ran.stdout).toBe('');
      const last = ran.stderr.trim().split('\n').at(-1)!;
      expect(last).toMatch(/^\[sync\] stopped: the budget of 4 calls is spent; what was written is kept in /);
      expect(last).toMatch(
        /, and the same command goes on from there \(a larger --max-calls or --max-rows goes further\)$/,
      );
      expect(existsSync(join(out, 'sync-state.json'))).toBe(true);
    },
  );
  expect(runs).toBeGreaterThan(5);
  expect(folder(out)).toEqual(whole);
});

test('a sync stopped by its budget of rows goes on the same way', async () => {
  const out = join(temp, 'rows');
  const runs = await untilWhole(
    () => sync([...args(out), '--max-rows', '300'], keys.enterprise),
    10,
    (ran) => expect(ran.stderr).toContain('stopped: the budget of 300 rows is spent'),
  );
  expect(runs).toBeGreaterThan(2);
  expect(folder(out)).toEqual(whole);
});

test(`a sync killed in the middle of a list (SIGKILL: no chance to save) goes on from the last page it saved, \
cutting off what it wrote after, and ends in the same folder; another plan's key reads the same data`, async () => {
  const out = join(temp, 'killed');
  const partial = join(out, '.partial', 'investments.jsonl');
  let killedAt = 0;
  const killed = await sync(args(out), keys.team, {
    started: (child) => {
      const timer = setInterval(() => {
        // Killed once the walk of the edges has written a page or more, at the key's 5 calls a second.
        if (existsSync(partial) && statSync(partial).size > 0) {
          clearInterval(timer);
          killedAt = statSync(partial).size;
          child.kill('SIGKILL');
        }
      }, 20);
      child.on('exit', () => clearInterval(timer));
    },
  });
  expect(killed.status).toBeNull();
  expect(killedAt).toBeGreaterThan(0);
  const state = JSON.parse(readFileSync(join(out, 'sync-state.json'), 'utf8'));
  expect(state.phase).toBe('walk');
  const ran = await sync(args(out), keys.team);
  expect(ran.status, ran.stderr).toBe(0);
  expect(ran.stdout).toContain('(resumed)');
  expect(folder(out)).toEqual(whole);
});

test('Ctrl-C stops a sync after the call in flight (exit 130), saying how to go on; the same command ends \
whole', async () => {
  const out = join(temp, 'interrupted');
  const state = join(out, 'sync-state.json');
  const stopped = await sync(args(out), keys.team, {
    started: (child) => {
      const timer = setInterval(() => {
        if (existsSync(state) && JSON.parse(readFileSync(state, 'utf8')).lists.company) {
          clearInterval(timer);
          child.kill('SIGINT');
        }
      }, 20);
      child.on('exit', () => clearInterval(timer));
    },
  });
  expect(stopped.status, stopped.stderr).toBe(130);
  expect(stopped.stderr.trim().split('\n').slice(-2)).toEqual([
    '[sync] stopping after the call in flight (Ctrl-C again to stop at once)',
    expect.stringMatching(
      /^\[sync\] stopped: interrupted; what was written is kept in .*, and the same command goes on/,
    ),
  ]);
  const ran = await sync(args(out), keys.team);
  expect(ran.status, ran.stderr).toBe(0);
  expect(folder(out)).toEqual(whole);
});

test(`a 402 (a pay-as-you-go balance spent) stops the sync cleanly, keeping what it wrote and saying how to go on; \
topped up, the same command ends in the same folder`, async () => {
  const made = await control(source.url, '/keys', { plan: 'payg', prepaid_rows: 400 });
  const out = join(temp, 'balance');
  const spent = await sync(args(out), made.key as string);
  expect(spent.status, spent.stderr).toBe(1);
  const last = spent.stderr.trim().split('\n').at(-1)!;
  expect(last).toMatch(
    /^\[sync\] stopped: the service answered 402 insufficient_balance: .*; what was written is kept /,
  );
  expect(last).toMatch(/, and the same command goes on from there once the quota renews or the balance is topped up$/);
  // The sync said before it started what it could cost and that the balance stops it first.
  expect(spent.stderr).toContain('; the balance of 400 rows ($2.00) stops it before (402)');
  await control(source.url, `/keys/${made.key_id as string}/top-up`, { rows: 100_000 });
  const ran = await sync(args(out), made.key as string);
  expect(ran.status, ran.stderr).toBe(0);
  expect(folder(out)).toEqual(whole);
});
