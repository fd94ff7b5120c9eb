// @module-tag servers
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plans } from '@investor-graph/contract/plans';
import { replicasMissing, startReplicaSet, type Replica, type ReplicaSet } from '../../cli/replicas.test-support.ts';
import type { Balancer, RedisServer } from './servers.test-support.ts';

/**
 * Three mock processes (the real CLI) on one Redis, behind haproxy round robin, as a team runs the
 * mock as a shared staging service: under parallel load through the balancer, the quota, balance
 * and rate of a key hold across all three, the clock moves for all, and neither Redis going away
 * nor a replica killed loses or doubles a count.
 */
const skipped = replicasMissing();

let set: ReplicaSet;
let redis: RedisServer;
let replicas: Replica[] = [];
let balancer: Balancer;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A control call to one replica, straight (control answers loopback clients). */
async function control(
  replica: Replica,
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<any> {
  const response = await fetch(`${replica.url}/__control${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  expect(response.status, `${method} /__control${path}`).toBeLessThan(300);
  return response.json();
}

async function usageOf(keyId: string): Promise<{ calls_used: number; balance_rows: number | null }> {
  const state = await control(replicas[0]!, '/state');
  return state.keys.find((k: { key_id: string }) => k.key_id === keyId).usage;
}

interface Tally {
  statuses: Map<number, number>;
  codes: Map<string, number>;
  /** Calls that got no HTTP answer at all (a connection reset). */
  dropped: number;
  /** When (ms since the start) each 200 came. */
  okAt: number[];
}

/**
 * `workers` clients calling through the balancer with `key` until `done` says so; a 429 waits a
 * moment (not its whole Retry-After second, so the bucket is kept busy) and tries again.
 */
async function load(
  base: string,
  key: string,
  workers: number,
  done: (tally: Tally, status: number, elapsed: number) => boolean,
): Promise<Tally> {
  const tally: Tally = { statuses: new Map(), codes: new Map(), dropped: 0, okAt: [] };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (;;) {
        let status = 0;
        try {
          const response = await fetch(`${base}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${key}` } });
          status = response.status;
          const body = await response.json().catch(() => null);
          if (body?.code) tally.codes.set(body.code, (tally.codes.get(body.code) ?? 0) + 1);
          if (status === 503 && body?.code === 'state_unavailable')
            expect(response.headers.get('retry-after')).toBe('1');
        } catch {
          tally.dropped++;
        }
        tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
        const elapsed = performance.now() - started;
        if (status === 200) tally.okAt.push(elapsed);
        if (done(tally, status, elapsed)) return;
        if (status !== 200) await sleep(status === 429 ? 10 : 50);
      }
    }),
  );
  return tally;
}

const count = (tally: Tally, status: number): number => tally.statuses.get(status) ?? 0;

/** Calls a second a key got, past the one second's burst its full bucket held at the start. */
function rateOf(tally: Tally, seconds: number, rate: number): number {
  return (count(tally, 200) - rate) / seconds;
}

describe.skipIf(skipped)(`three replicas on one Redis behind haproxy${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  beforeAll(async () => {
    set = await startReplicaSet([], { firstFromEnv: true });
    ({ replicas, balancer } = set);
    redis = set.redis!;
  }, 60_000);

  afterAll(() => set?.close());

  test('every replica says its state is on Redis and reachable', async () => {
    for (const replica of replicas) {
      expect(replica.output()).toContain(`state:  ${redis.url} (Redis, shared by every mock on it; reachable)`);
      expect((await control(replica, '/state')).state).toEqual({
        store: 'redis',
        location: redis.url,
        reachable: true,
      });
    }
  });

  test(
    "a Team key's quota is exact at its edge: twelve calls left, " +
      'twelve 200s across three replicas, then 402 for every client',
    async () => {
      const { key, key_id } = await control(replicas[0]!, '/keys', { plan: 'team' });
      await control(replicas[1]!, `/keys/${key_id}/usage`, { calls_used: plans.team.calls_limit! - 12 }, 'PUT');
      const tally = await load(balancer.url, key, 6, (_, status) => status === 402);
      expect(count(tally, 200)).toBe(12);
      expect(tally.codes.get('quota_exhausted')).toBe(6);
      expect((await usageOf(key_id)).calls_used).toBe(plans.team.calls_limit);
    },
    30_000,
  );

  test(
    'a pay-as-you-go balance is exact at its edge: seven ' + "calls' worth, seven 200s, and what is left stays",
    async () => {
      const minimum = plans.payg.min_rows_per_call!;
      const { key, key_id } = await control(replicas[2]!, '/keys', {
        plan: 'payg',
        prepaid_rows: 7 * minimum + minimum - 1,
      });
      const tally = await load(balancer.url, key, 6, (_, status) => status === 402);
      expect(count(tally, 200)).toBe(7);
      expect(tally.codes.get('insufficient_balance')).toBe(6);
      expect(await usageOf(key_id)).toMatchObject({ calls_used: 7, balance_rows: minimum - 1 });
    },
    30_000,
  );

  test(
    'one Enterprise key hammered through all three replicas ' +
      "gets its plan's rate once, within 10%, not three times",
    async () => {
      const { key } = await control(replicas[0]!, '/keys', { plan: 'enterprise' });
      const rate = plans.enterprise.rate_per_second;
      const tally = await load(balancer.url, key, 24, (_, __, elapsed) => elapsed >= 4000);
      const got = rateOf(tally, 4, rate);
      expect(
        Math.abs(got - rate) / rate,
        `${got.toFixed(1)} calls a second against a plan rate of ${rate}`,
      ).toBeLessThan(0.1);
      expect(count(tally, 429)).toBeGreaterThan(0);
    },
    30_000,
  );

  test('the clock moved through one replica is the clock of all three', async () => {
    const before = Date.parse((await control(replicas[1]!, '/clock')).now);
    await control(replicas[0]!, '/clock/advance', { duration: 'P3D' });
    await sleep(300);
    for (const replica of replicas) {
      const now = Date.parse((await control(replica, '/clock')).now);
      expect(now - before).toBeGreaterThanOrEqual(3 * 86_400_000);
      expect(now - before).toBeLessThan(3 * 86_400_000 + 10_000);
    }
  });

  test(
    'a dump file listed by one replica downloads whole ' + 'from each of the three (each builds the same bytes)',
    async () => {
      const { key } = await control(replicas[0]!, '/keys', { plan: 'business' });
      const headers = { authorization: `Bearer ${key}` };
      const manifest = await (await fetch(`${balancer.url}/api/v1/exports?limit=1`, { headers })).json();
      const file = manifest.data[0].files.find((f: { name: string }) => f.name === 'firms.jsonl.gz');
      for (const replica of replicas) {
        const download = await fetch(`${replica.url}${new URL(file.url).pathname}`, { headers });
        expect(download.status).toBe(200);
        const bytes = new Uint8Array(await download.arrayBuffer());
        const digest = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
        expect({ bytes: bytes.length, digest }, replica.url).toEqual({ bytes: file.bytes, digest: file.sha256 });
      }
    },
    30_000,
  );

  test(
    'Redis stopped mid-run and started again: 503 state_unavailable ' +
      'in between, then service, and every 200 counted exactly once',
    async () => {
      const { key, key_id } = await control(replicas[0]!, '/keys', { plan: 'enterprise' });
      let during: any;
      const outage = (async () => {
        await sleep(1500);
        await redis.stop();
        await sleep(700);
        during = await control(replicas[1]!, '/state');
        await sleep(800);
        await redis.start();
      })();
      const tally = await load(balancer.url, key, 8, (_, __, elapsed) => elapsed >= 6000);
      await outage;
      // The control API still answers, and says the store is away (its keys unknown meanwhile).
      expect(during).toMatchObject({ state: { store: 'redis', location: redis.url, reachable: false }, keys: null });
      expect(tally.codes.get('state_unavailable') ?? 0, 'answers while Redis was away').toBeGreaterThan(0);
      expect(
        tally.okAt.some((at) => at > 4500),
        'service after Redis came back',
      ).toBe(true);
      expect(
        [...tally.statuses.keys()].filter((s) => ![200, 429, 503].includes(s)),
        'nothing but 200, 429 and 503',
      ).toEqual([]);
      // Charges whose answer was lost with the connection are taken back once Redis is there (within a second or two).
      await expect
        .poll(async () => (await usageOf(key_id)).calls_used, { timeout: 10_000, interval: 250 })
        .toBe(count(tally, 200));
    },
    60_000,
  );

  test(
    'a replica killed (SIGKILL) mid-run loses nothing: every 200 is ' +
      'counted, and only calls cut off with it may be counted beside them',
    async () => {
      const { key, key_id } = await control(replicas[0]!, '/keys', { plan: 'enterprise' });
      const kill = (async () => {
        await sleep(1500);
        replicas[2]!.child.kill('SIGKILL');
      })();
      const tally = await load(balancer.url, key, 8, (_, __, elapsed) => elapsed >= 4000);
      await kill;
      const cutOff = tally.dropped + count(tally, 502) + count(tally, 503);
      const used = (await usageOf(key_id)).calls_used;
      expect(used).toBeGreaterThanOrEqual(count(tally, 200));
      expect(used).toBeLessThanOrEqual(count(tally, 200) + cutOff);
      expect(
        tally.okAt.some((at) => at > 3000),
        'the other two serve on',
      ).toBe(true);
    },
    30_000,
  );
});

// The check above fails where it should: three replicas that keep their own state (no --state)
// give one key about three times its plan's rate through the same balancer.
describe.skipIf(skipped)(`three replicas each on their own state${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  test('give one key about three times its rate: what the shared state prevents', async () => {
    const own = await startReplicaSet([], { shared: false });
    try {
      const key = 'igk_enterprise_own_state_each_0001';
      await Promise.all(own.replicas.map((r) => control(r, '/keys', { plan: 'enterprise', key })));
      const rate = plans.enterprise.rate_per_second;
      const tally = await load(own.balancer.url, key, 24, (_, __, elapsed) => elapsed >= 3000);
      expect(rateOf(tally, 3, rate) / rate).toBeGreaterThan(2);
    } finally {
      await own.close();
    }
  }, 60_000);
});
