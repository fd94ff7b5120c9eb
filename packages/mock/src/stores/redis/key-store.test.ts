// @module-tag servers
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { Redis } from 'ioredis';
import { plans, planIds } from '@investor-graph/contract/plans';
import { runConformance } from '../../conformance/suite.ts';
import { DAY, monthBounds, newRecord, type KeyRecord } from '@investor-graph/engine/adapter';
import type { ChargeStep } from '@investor-graph/engine/adapter';
import { createEngine } from '@investor-graph/engine/adapter';
import { MemoryKeyStore } from '@investor-graph/engine/adapter';
import { ProblemError } from '@investor-graph/engine/adapter';
import { createNodeServer, listen } from '../../adapters/node/server.ts';
import { loadInput } from '../../cli/start-mock.ts';
import { cli } from '../../cli/cli-process.test-support.ts';
import { openRedisState, parseRedisUrl, type RedisState } from './open.ts';
import { missing, startRedis, type RedisServer } from './servers.test-support.ts';

const skipped = missing('redis-server');
let server: Promise<RedisServer> | undefined;
/** One Redis server for the file, started by the first test that needs it; each test keeps to a prefix of its own. */
const redis = (): Promise<RedisServer> => (server ??= startRedis());
let prefixes = 0;
const opened: RedisState[] = [];
async function state(options: { prefix?: string; timeout?: number } = {}): Promise<RedisState> {
  const url =
    `${(await redis()).url}?prefix=${options.prefix ?? `t${++prefixes}:`}` +
    `${options.timeout ? `&timeout=${options.timeout}` : ''}`;
  const s = await openRedisState(url, { waitMs: 5000 });
  opened.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(opened.map((s) => s.keyStore.close()));
  await (await server)?.close();
});

const NOW = Date.parse('2026-11-20T03:00:00Z');

describe.skipIf(skipped)(`the Redis state store${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  test('a Redis URL is read for its server, database, timeout and prefix, and shown without its password', () => {
    expect(parseRedisUrl('redis://app:s3cret@10.0.0.5:6380/2?timeout=250&prefix=staging:')).toMatchObject({
      shown: 'redis://10.0.0.5:6380/2?prefix=staging:',
      timeoutMs: 250,
      prefix: 'staging:',
    });
    expect(parseRedisUrl('rediss://cache.internal:6379').shown).toBe('rediss://cache.internal:6379');
    for (const bad of [
      'redis://h:1/db',
      'redis://h:1/0?timeout=0',
      'redis://h:1/0?tls=1',
      'http://h:1/0',
      'redis://:pw@/0',
    ])
      expect(() => parseRedisUrl(bad), bad).toThrow(/--state/);
    for (const bad of ['redis://u:hunter2@h:1/x', 'redis://u:hun/ter2@h:1/0', 'redis://u:hunter2@h:1/16'])
      expect(() => parseRedisUrl(bad), bad).toThrow(
        expect.objectContaining({ message: expect.not.stringMatching(/hunter2|ter2/) }),
      );
  });

  test(
    'admit-and-charge decides as the memory store does, on every plan and every ' +
      'edge: revoked, expired, used up, a new month, a low balance, a 304, a free call',
    async () => {
      const { keyStore } = await state();
      const memory = new MemoryKeyStore();
      const [, monthEnd] = monthBounds(NOW);
      const edges: [string, (r: KeyRecord) => void][] = [
        ['fresh', () => undefined],
        ['revoked', (r) => void (r.revokedAt = NOW - 1)],
        ['one call left', (r) => void (r.callsUsed = Math.max(0, (plans[r.plan].calls_limit ?? 1) - 1))],
        ['used up', (r) => void (r.callsUsed = plans[r.plan].calls_limit ?? 5)],
        ['past its end', (r) => void (r.expiresAt = r.expiresAt === null ? null : NOW - 1)],
        [
          'last month',
          (r) =>
            void (
              (r.periodEnd = r.periodEnd === null ? null : NOW - 1),
              (r.callsUsed = plans[r.plan].calls_limit ?? 5)
            ),
        ],
        ['low balance', (r) => void (r.balanceRows = r.balanceRows === null ? null : 3)],
        ['a balance past 2^53', (r) => void (r.balanceRows = r.balanceRows === null ? null : 2 ** 53 + 2)],
      ];
      const steps: Omit<ChargeStep, 'keyId'>[] = [
        { now: NOW, counted: true, rows: 7 },
        { now: NOW, counted: true, rows: 900 },
        { now: NOW, counted: true, rows: null },
        { now: NOW, counted: false, rows: 1 },
        { now: monthEnd + 5, counted: true, rows: 2 },
      ];
      let n = 0;
      for (const plan of planIds) {
        for (const [edge, change] of edges) {
          for (const step of steps) {
            const record = newRecord(plan, `igk_${plan}_edge_${++n}`, `hash-${n}`, NOW - DAY, null, 1_000);
            change(record);
            memory.insert({ ...record });
            await keyStore.insert({ ...record });
            const expected = memory.admitAndCharge({ keyId: record.keyId, ...step });
            const got = await keyStore.admitAndCharge({ keyId: record.keyId, ...step, chargeId: `c${n}` });
            expect(got, `${plan}, ${edge}, ${JSON.stringify(step)}`).toEqual(expected);
          }
        }
      }
    },
  );

  test(
    'a charge taken back is taken back once, by what it charged; ' +
      'one whose answer never came is barred before it can land',
    async () => {
      const { keyStore } = await state();
      const record = newRecord('payg', 'igk_payg_refund_once_0001', 'h-refund', NOW, null, 1_000);
      await keyStore.insert(record);
      const charged = await keyStore.admitAndCharge({
        keyId: record.keyId,
        now: NOW,
        counted: true,
        rows: 40,
        chargeId: 'call-1',
      });
      expect(charged).toMatchObject({ cost: Math.max(40, plans.payg.min_rows_per_call!), refusal: null });
      await keyStore.refund(record.keyId, true, charged.cost, 'call-1');
      await keyStore.refund(record.keyId, true, charged.cost, 'call-1');
      expect(await keyStore.byId(record.keyId)).toMatchObject({ callsUsed: 0, balanceRows: 1_000 });
      await keyStore.refund(record.keyId, true, 0, 'call-2');
      await expect(
        keyStore.admitAndCharge({ keyId: record.keyId, now: NOW, counted: true, rows: 1, chargeId: 'call-2' }),
      ).rejects.toThrow(/already made or taken back/);
      expect(await keyStore.byId(record.keyId)).toMatchObject({ callsUsed: 0, balanceRows: 1_000 });
    },
  );

  test('a wrong password is refused at start, saying why, never the password', async () => {
    const { port } = await redis();
    const client = new Redis(`redis://127.0.0.1:${port}/0`);
    await client.acl('SETUSER', 'mock', 'on', '>right-password-1', '~*', '+@all');
    client.disconnect();
    await expect(
      openRedisState(`redis://mock:right-password-1@127.0.0.1:${port}/0?prefix=acl:`, { waitMs: 2000 }).then(
        (s) => (opened.push(s), 'connected'),
      ),
    ).resolves.toBe('connected');
    const refused = await openRedisState(`redis://mock:hunter2@127.0.0.1:${port}/0`, { waitMs: 500 }).catch(
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/no Redis server answered there in 1 s \(WRONGPASS/);
    expect(refused).not.toContain('hunter2');
  });

  test("one live trial per e-mail hash and the minute's cap hold for every mock on the server together", async () => {
    const [a, b] = [await state({ prefix: 'trials-together:' }), await state({ prefix: 'trials-together:' })];
    const trial = (n: number, email = `e${n}`) =>
      newRecord('trial', `igk_trial_together_${n}`, `th-${n}`, NOW, email, 0);
    const cap = { perMinute: 3, at: 0 };
    expect(await a.keyStore.insertTrial(trial(1), NOW, cap)).toBe('inserted');
    expect(await b.keyStore.insertTrial(trial(2, 'e1'), NOW, cap), 'the same address through another mock').toBe(
      'live',
    );
    expect(await b.keyStore.insertTrial(trial(3), NOW, cap)).toBe('inserted');
    expect(await a.keyStore.insertTrial(trial(4), NOW, cap)).toBe('inserted');
    expect(await b.keyStore.insertTrial(trial(5), NOW, cap)).toMatchObject({ wait: expect.any(Number) });
    // Once the first trial has ended, its address may have a new one (the cap aside).
    expect(await a.keyStore.insertTrial(trial(6, 'e1'), NOW + 8 * DAY, { perMinute: null, at: 0 })).toBe('inserted');
  });

  test(
    'trial keys expire in Redis too, and moving the clock past ' +
      'their end and the days after it prunes them with their indexes',
    async () => {
      const s = await state({ prefix: 'pruned:' });
      const record = newRecord('trial', 'igk_trial_pruned_0001', 'h-pruned', NOW, 'e-pruned', 0);
      expect(await s.keyStore.insertTrial(record, NOW, { perMinute: null, at: 0 })).toBe('inserted');
      expect(s.keyStore.describe()).toMatchObject({ store: 'redis', reachable: true });
      expect(await s.keyStore.byHash('h-pruned')).toMatchObject({ keyId: record.keyId });
      // Kept for the trial's 7 days and the 30 after its end, in real time, then gone by itself.
      const client = new Redis((await redis()).url);
      try {
        for (const name of [`pruned:key:${record.keyId}`, 'pruned:hash:h-pruned', 'pruned:email:e-pruned']) {
          expect(await client.pttl(name), name).toBeGreaterThan(36 * DAY);
          expect(await client.pttl(name), name).toBeLessThanOrEqual(37 * DAY);
        }
      } finally {
        client.disconnect();
      }
      expect(await s.keyStore.pruneTrials(record.expiresAt!)).toBe(0);
      expect(await s.keyStore.pruneTrials(record.expiresAt! + 31 * DAY)).toBe(1);
      expect(await s.keyStore.byHash('h-pruned')).toBeUndefined();
      expect((await s.keyStore.list()).map((r) => r.keyId)).not.toContain(record.keyId);
    },
  );

  test(
    'a server that stops answering gets 503 state_unavailable with Retry-After, ' +
      'counts nothing, issues nothing, and the store carries on once it is back',
    async () => {
      const server = await redis();
      const s = await state({ timeout: 200 });
      const record = newRecord('team', 'igk_team_outage_0001', 'h-outage', NOW, null, 0);
      await s.keyStore.insert(record);
      await s.keyStore.byId(record.keyId);
      server.pause();
      try {
        const refused = await s.keyStore
          .admitAndCharge({ keyId: record.keyId, now: NOW, counted: true, rows: 1, chargeId: 'outage-1' })
          .catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(ProblemError);
        expect(refused).toMatchObject({ code: 'state_unavailable', status: 503, headers: { 'retry-after': '1' } });
      } finally {
        server.resume();
      }
      // The charge sent before the pause ran once the server woke; the store takes it back.
      await expect
        .poll(async () => (await s.keyStore.byId(record.keyId).catch(() => undefined))?.callsUsed, {
          timeout: 10_000,
          interval: 200,
        })
        .toBe(0);
      // So is a trial issued while it slept: its address may have one again (no 409 for a key no one saw).
      const trial = newRecord('trial', 'igk_trial_outage_0001', 'h-outage-trial', NOW, 'e-outage', 0);
      server.pause();
      try {
        await expect(s.keyStore.insertTrial(trial, NOW, { perMinute: null, at: 0 })).rejects.toMatchObject({
          code: 'state_unavailable',
        });
      } finally {
        server.resume();
      }
      await expect
        .poll(async () => (await s.keyStore.byHash('h-outage-trial').catch(() => null)) ?? 'taken back', {
          timeout: 10_000,
          interval: 200,
        })
        .toBe('taken back');
      expect(
        await s.keyStore.insertTrial(
          newRecord('trial', 'igk_trial_outage_0002', 'h-outage-trial-2', NOW, 'e-outage', 0),
          NOW,
          { perMinute: null, at: 0 },
        ),
      ).toBe('inserted');
      expect(
        await s.keyStore.admitAndCharge({
          keyId: record.keyId,
          now: NOW,
          counted: true,
          rows: 1,
          chargeId: 'outage-2',
        }),
      ).toMatchObject({ refusal: null, record: { callsUsed: 1 } });
    },
  );
});

test(
  "a --state URL that is not a Redis server's, or one with nothing there, is refused " +
    'at start in one line naming it, never its password; --state-sync is for a file',
  async () => {
    for (const [args, says] of [
      [['--state', 'redis://app:hunter2@127.0.0.1:6379/db'], /the path is a database number/],
      [['--state', 'redis://127.0.0.1:6379/0?tls=yes'], /query parameters are timeout=MS .* and prefix=P/],
    ] as const) {
      const run = spawnSync(process.execPath, [cli, ...args, '--port', '0'], { encoding: 'utf8', timeout: 20_000 });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toMatch(says);
      expect(run.stderr + run.stdout).not.toContain('hunter2');
      expect(run.stderr.trim().split('\n').length, run.stderr).toBeLessThanOrEqual(2);
    }
    const sync = spawnSync(
      process.execPath,
      [cli, '--state', 'redis://127.0.0.1:6379/0', '--state-sync', 'full', '--port', '0'],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(sync.status).toBe(2);
    expect(sync.stderr).toMatch(/--state-sync goes with --state FILE/);
    // Nothing listens on port 1: after the wait, one line saying so.
    const refused = await openRedisState('redis://:hunter2@127.0.0.1:1/0?timeout=100', { waitMs: 300 }).then(
      () => 'opened',
      (error: unknown) => (error as Error).message,
    );
    expect(refused).toBe(
      '--state redis://127.0.0.1:1/0: no Redis server answered there in 0 s (connect ECONNREFUSED 127.0.0.1:1)',
    );
  },
);

// The whole suite, on a real Node server over a mock whose state
// (and rate buckets) is in Redis: a new prefix for each case.
const [dataset, validator] = skipped ? [null, null] : await Promise.all([loadInput({}), createContractValidator()]);
if (!skipped) {
  runConformance({
    name: 'node server on Redis state',
    setup: async ({ now }) => {
      const { keyStore, limiter } = await state();
      let baseUrl = '';
      const engine = createEngine({
        dataset: structuredClone(dataset!),
        validator: validator!,
        now: Date.parse(now),
        frozen: true,
        publicUrl: () => baseUrl,
        keyStore,
        limiter,
      });
      const node = createNodeServer(engine);
      baseUrl = await listen(node, 0, '127.0.0.1');
      return {
        baseUrl,
        fetch: globalThis.fetch,
        close: () => new Promise<void>((resolve) => (node.closeAllConnections(), node.close(() => resolve()))),
      };
    },
  });
} else {
  test.skip(`the conformance suite on Redis state (skipped: ${skipped})`, () => undefined);
}
