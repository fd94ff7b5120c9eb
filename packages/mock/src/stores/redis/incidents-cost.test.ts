// @module-tag servers
/**
 * What a mock on Redis pays per call for incidents shared by replicas when none is in force (issue
 * #69: "a mock without incidents pays nothing per call for it"): counted in the commands the Redis
 * server is sent, by MONITOR, not timed. A call never asks the server about incidents; this process
 * reads the table's version at most once every VERSION_EVERY_MS, whatever the number of calls.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Redis } from 'ioredis';
import { startMock, type RunningMock } from '../../node.ts';
import { VERSION_EVERY_MS } from './incidents.ts';
import { missing, startRedis, type RedisServer } from './servers.test-support.ts';

const skipped = missing('redis-server');
const key = `igk_enterprise_${'c'.repeat(32)}`;
let redis: RedisServer;
let mock: RunningMock;

/** The commands Redis was sent while `work` ran, one line each as MONITOR shows them. */
async function commandsDuring(work: () => Promise<void>): Promise<string[]> {
  const watcher = new Redis(redis.url);
  const monitor = await watcher.monitor();
  const seen: string[] = [];
  monitor.on('monitor', (_time: string, args: string[]) => seen.push(args.join(' ')));
  try {
    await work();
    // MONITOR's lines may trail the answers a little.
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    monitor.disconnect();
    watcher.disconnect();
  }
  return seen;
}

describe.skipIf(skipped)(`incidents on Redis, none in force${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
    mock = await startMock({ port: 0, stateFile: redis.url, rateLimit: false, keys: [{ plan: 'enterprise', key }] });
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await redis?.close();
  });

  test('400 calls send Redis no incident command of their own, only a version read a tenth of a second', async () => {
    const calls = 400;
    const call = async () => {
      const answer = await fetch(`${mock.url}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    };
    // The first call loads this process's copy of the table (once, at its start), as any first read would.
    await call();
    const started = performance.now();
    const seen = await commandsDuring(async () => {
      for (let i = 0; i < calls; i++) await call();
    });
    const elapsed = performance.now() - started;
    // A command that names an incident key (`<prefix>incident:<id>`, `incidents`, `:seq`, `:version`).
    const incidentCommands = seen.filter((line) => line.split(' ').some((arg) => /^[^{"\s]*incidents?(:|$)/.test(arg)));
    // Every one of them a read of the version, never a take or a reload: nothing is in force.
    expect(
      incidentCommands.every((line) => /^get \S*incidents:version$/i.test(line)),
      incidentCommands.join('\n'),
    ).toBe(true);
    expect(incidentCommands.length).toBeLessThanOrEqual(Math.ceil(elapsed / VERSION_EVERY_MS) + 1);
    // The bound means something: the calls did reach Redis (their keys' steps), many times over.
    expect(seen.length).toBeGreaterThan(calls);
    expect(incidentCommands.length).toBeLessThan(calls / 4);
  }, 60_000);
});
