// @module-tag servers
/**
 * The request journal of three mock processes (the real CLI) on one Redis behind haproxy round
 * robin (issue #54): a test that called through the balancer reads every call from any replica, in
 * the order Redis took them, pages it with a cursor that each replica understands, verifies and
 * clears it through any of them; and no key reaches a page, a report or the Redis server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VerificationError, type JournalEntry, type JournalPage } from '@investor-graph/engine';
import { mockJournal } from '../../control-client.ts';
import { replicasMissing, startReplicaSet, type Replica, type ReplicaSet } from '../../cli/replicas.test-support.ts';
import { keyForms } from '../journal-contract.test-support.ts';
import { everythingHeld } from './servers.test-support.ts';
import type { Balancer, RedisServer } from './servers.test-support.ts';

const skipped = replicasMissing();

let set: ReplicaSet;
let redis: RedisServer;
let replicas: Replica[] = [];
let balancer: Balancer;
/** A key of the user's own form, preset on every replica (each knows to blank it wherever it is sent). */
const custom = 'Users.Own-key~of-no-form-54';
let team = '';

async function page(base: string, query = ''): Promise<JournalPage> {
  const response = await fetch(`${base}/__control/journal${query}`);
  expect(response.status, `GET ${base}/__control/journal${query}`).toBe(200);
  return (await response.json()) as JournalPage;
}

/** GETs `path` through the balancer with `key` as the bearer: the call's request id. */
async function call(path: string, key?: string): Promise<string> {
  const response = await fetch(`${balancer.url}${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  await response.arrayBuffer();
  return response.headers.get('x-request-id')!;
}

describe.skipIf(skipped)(
  `one journal for three replicas on one Redis${skipped ? ` (skipped: ${skipped})` : ''}`,
  () => {
    beforeAll(async () => {
      set = await startReplicaSet(['--journal', '2000', '--no-rate-limit', '--log', '--key', `team=${custom}`]);
      ({ replicas, balancer } = set);
      redis = set.redis!;
      const made = await fetch(`${replicas[0]!.url}/__control/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'team' }),
      });
      team = ((await made.json()) as { key: string }).key;
    }, 60_000);

    afterAll(() => set?.close());

    test(
      'calls made through haproxy are all in the journal ' + 'each replica reads, in order, and verified as all',
      async () => {
        await mockJournal(balancer.url).clearJournal();
        const ids: string[] = [];
        for (let n = 1; n <= 12; n++) ids.push(await call(`/api/v1/firms?limit=${n}`, team));
        // Round robin spread them: each replica answered some (its --log line), none all.
        for (const replica of replicas) {
          const served = [...replica.output().matchAll(/GET \/api\/v1\/firms\?limit=(\d+) 200/g)].length;
          expect(served, replica.url).toBeGreaterThan(0);
          expect(served, replica.url).toBeLessThan(12);
        }
        for (const replica of replicas) {
          const { entries, capacity, dropped } = await page(replica.url);
          expect(
            entries.map((e) => e.request_id),
            replica.url,
          ).toEqual(ids);
          expect(entries.map((e) => e.query.limit)).toEqual(ids.map((_, i) => String(i + 1)));
          expect({ capacity, dropped }).toEqual({ capacity: 2000, dropped: 0 });
        }
        const verified = await fetch(`${replicas[1]!.url}/__control/journal/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pattern: { operation: 'listFirms', plan: 'team', status: 200 }, count: 12 }),
        });
        expect(await verified.json()).toMatchObject({ ok: true, matched: 12 });
      },
    );

    test(
      'a walk of pages through haproxy, each page from the next replica, gives each call once; ' +
        'mockJournal pages, verifies and clears it for all three through the balancer',
      async () => {
        const journal = mockJournal(balancer.url);
        await journal.clearJournal();
        // More than one of mockJournal's pages (1,000 a page), sent eight at a time.
        const ids = new Set<string>();
        await Promise.all(
          Array.from({ length: 8 }, async (_, worker) => {
            for (let n = worker; n < 1_005; n += 8) ids.add(await call(`/api/v1/firms?limit=1`));
          }),
        );
        expect(ids.size).toBe(1_005);
        const walked: JournalEntry[] = [];
        let cursor: string | null = null;
        do {
          const next: JournalPage = await page(balancer.url, `?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
          walked.push(...next.entries);
          cursor = next.next_cursor;
        } while (cursor !== null);
        expect(walked.map((e) => e.seq)).toEqual(walked.map((_, i) => walked[0]!.seq + i));
        expect(new Set(walked.map((e) => e.request_id))).toEqual(ids);

        const all = await journal.journal({ status: 401 });
        expect(all.map((e) => e.request_id)).toEqual(walked.map((e) => e.request_id));
        expect((await journal.verify({ operation: 'listFirms', status: '4xx' }, 1_005)).matched).toBe(1_005);
        await expect(journal.verify({ operation: 'listFirms' }, 1_004)).rejects.toThrow(VerificationError);

        await journal.clearJournal();
        for (const replica of replicas) expect((await page(replica.url)).entries, replica.url).toEqual([]);
      },
      60_000,
    );

    test('no key is in any page or verification report of any replica, nor anywhere on the Redis server', async () => {
      await mockJournal(balancer.url).clearJournal();
      const keys = [team, custom];
      for (const key of keys)
        for (const shown of [key, encodeURIComponent(key), encodeURIComponent(encodeURIComponent(key))]) {
          await call(`/api/v1/firms/${shown}`, key);
          await call(`/api/v1/firms?limit=1&api_key=${shown}`, key);
          await call(`/api/v1/firms?${shown}=1`, key);
        }
      const texts: string[] = [];
      for (const replica of replicas) {
        const journaled = await page(replica.url);
        expect(journaled.entries).toHaveLength(18);
        texts.push(JSON.stringify(journaled));
        const report = await fetch(`${replica.url}/__control/journal/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pattern: { operation: 'getFirm', status: 200 } }),
        });
        texts.push(await report.text());
      }
      texts.push(await everythingHeld(redis.url));
      expect(texts.at(-1)).toContain('igk:journal: stream');
      const shown = keys.flatMap(keyForms).filter((form) => texts.some((text) => text.includes(form)));
      expect(shown).toEqual([]);
    });

    // Regression (issue #66): a key of the user's own form made through one replica's control API
    // was written raw to the shared stream by another replica, which had never seen its text.
    test('a custom key made on one replica is blanked by another that never saw it, on Redis too', async () => {
      await mockJournal(balancer.url).clearJournal();
      const made = 'Made.on-replica~one-0066';
      const answer = await fetch(`${replicas[0]!.url}/__control/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'team', key: made }),
      });
      expect(answer.status).toBe(201);
      const other = replicas[1]!.url;
      for (const path of [`/api/v1/firms/${made}`, `/api/v1/firms?limit=1&q=${made}`, `/api/v1/firms?${made}=1`]) {
        const response = await fetch(`${other}${path}`, { headers: { authorization: `Bearer ${team}` } });
        await response.arrayBuffer();
      }
      const journaled = await page(other);
      expect(journaled.entries).toHaveLength(3);
      expect(journaled.entries.map((e) => e.path)).toContain('/api/v1/firms/***');
      const texts = [JSON.stringify(journaled), await everythingHeld(redis.url)];
      expect(keyForms(made).filter((form) => texts.some((text) => text.includes(form)))).toEqual([]);
    });
  },
);
