// @module-tag servers
/**
 * The incidents of three mock processes (the real CLI) on one Redis behind haproxy round robin
 * (issue #69): an outage for exactly 5 calls, posted to one replica through its control API, is
 * met by exactly 5 of 20 calls sent at once through the balancer, whichever replica each reaches,
 * and is then gone from every replica's list.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { replicasMissing, startReplicaSet, type Replica, type ReplicaSet } from '../../cli/replicas.test-support.ts';
import { parseScrape, sampleValue } from '../../operate/scrape.test-support.ts';
import { VERSION_EVERY_MS } from './incidents.ts';
import type { Balancer } from './servers.test-support.ts';

const skipped = replicasMissing();

let set: ReplicaSet;
let replicas: Replica[] = [];
let balancer: Balancer;

async function control<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/__control${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${base}/__control${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** The statuses of `n` calls sent at once through the balancer (an operation without a key). */
function statuses(n: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const response = await fetch(`${balancer.url}/api/v1/openapi.json`);
      await response.arrayBuffer();
      return response.status;
    }),
  );
}

describe.skipIf(skipped)(
  `incidents shared by three replicas on one Redis${skipped ? ` (skipped: ${skipped})` : ''}`,
  () => {
    beforeAll(async () => {
      set = await startReplicaSet(['--no-rate-limit', '--log']);
      ({ replicas, balancer } = set);
    }, 60_000);

    afterAll(() => set?.close());

    test('an outage for 5 calls posted to one replica meets exactly 5 of 20 calls through haproxy', async () => {
      const posted = await control<{ id: string; calls_left: number }>(replicas[0]!.url, 'POST', '/incidents', {
        kind: 'outage',
        match: { operation: 'getOpenApiDocument' },
        calls: 5,
      });
      expect(posted.calls_left).toBe(5);
      for (const replica of replicas) {
        const { incidents } = await control<{ incidents: { id: string }[] }>(replica.url, 'GET', '/incidents');
        expect(
          incidents.map((i) => i.id),
          replica.url,
        ).toEqual([posted.id]);
      }
      // Every replica has read the table's version since it was posted (at most VERSION_EVERY_MS).
      await new Promise((resolve) => setTimeout(resolve, VERSION_EVERY_MS * 1.5));
      const met = await statuses(20);
      expect(met.filter((s) => s === 503)).toHaveLength(5);
      expect(met.filter((s) => s === 200)).toHaveLength(15);
      // Round robin spread the calls: each replica answered some.
      for (const replica of replicas)
        expect(replica.output(), replica.url).toMatch(/GET \/api\/v1\/openapi\.json \d{3}/);
      for (const replica of replicas) {
        const { incidents } = await control<{ incidents: unknown[] }>(replica.url, 'GET', '/incidents');
        expect(incidents, replica.url).toEqual([]);
      }
      expect(await statuses(3)).toEqual([200, 200, 200]);
    });

    test('an incident ended on one replica is met by no call on any other', async () => {
      const posted = await control<{ id: string }>(replicas[1]!.url, 'POST', '/incidents', {
        kind: 'outage',
        match: { operation: 'getOpenApiDocument' },
      });
      await new Promise((resolve) => setTimeout(resolve, VERSION_EVERY_MS * 1.5));
      expect(await statuses(6)).toEqual(Array(6).fill(503));
      await control(replicas[2]!.url, 'DELETE', `/incidents/${posted.id}`);
      // No wait: a replica whose copy still holds it asks the server, which no longer does.
      expect(await statuses(6)).toEqual(Array(6).fill(200));
    });

    test('a scrape of any replica counts an incident posted to another, with no call in between', async () => {
      const active = async (base: string) => {
        const text = await (await fetch(`${base}/__control/metrics`)).text();
        return sampleValue(parseScrape(text), 'investor_graph_mock_incidents_active');
      };
      const posted = await control<{ id: string }>(replicas[0]!.url, 'POST', '/incidents', {
        kind: 'latency',
        latency_ms: 1,
        match: { operation: 'getOpenApiDocument' },
      });
      await new Promise((resolve) => setTimeout(resolve, VERSION_EVERY_MS * 1.5));
      for (const replica of replicas) expect(await active(replica.url), replica.url).toBe(1);
      await control(replicas[0]!.url, 'DELETE', `/incidents/${posted.id}`);
      await new Promise((resolve) => setTimeout(resolve, VERSION_EVERY_MS * 1.5));
      for (const replica of replicas) expect(await active(replica.url), replica.url).toBe(0);
    });
  },
);
