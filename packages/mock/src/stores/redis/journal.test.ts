// @module-tag servers
/**
 * The request journal on Redis beyond the store contract (journal-contract.test.ts): what it is
 * for (every mock on the server writes and reads one journal), what reaches the server (blanked
 * entries only, in a stream that stays near its bound), and what a server that does not answer
 * does to a call (nothing) and to a read of the journal (503 state_unavailable).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { Redis } from 'ioredis';
import { createContractValidator } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createEngine } from '@investor-graph/engine/adapter';
import { answered, callsWithKeys, keyForms, mixedCalls } from '../journal-contract.test-support.ts';
import { RedisConnection } from './connection.ts';
import { RedisJournal } from './journal.ts';
import { openRedisState, parseRedisUrl, type RedisState } from './open.ts';
import { everythingHeld, missing, startRedis, type RedisServer } from './servers.test-support.ts';

const skipped = missing('redis-server');
let server: Promise<RedisServer> | undefined;
const redis = (): Promise<RedisServer> => (server ??= startRedis());
let prefixes = 0;
const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
  await (await server)?.close();
});

/** A mock's state on the file's server, under `prefix` (one of its own unless given). */
async function state(prefix = `j${++prefixes}:`, journal = 1_000): Promise<RedisState> {
  const s = await openRedisState(`${(await redis()).url}?prefix=${prefix}`, { waitMs: 5000, journal });
  opened.push(s.keyStore);
  return s;
}

/** A journal on a connection of its own, its log lines kept, commands timing out after `timeout` ms. */
async function loggedJournal(timeout: number) {
  const connection = new RedisConnection(
    parseRedisUrl(`${(await redis()).url}?prefix=j${++prefixes}:&timeout=${timeout}`),
  );
  await connection.connect(5000);
  opened.push(connection);
  const lines: string[] = [];
  return { journal: new RedisJournal(connection, 100, (line) => lines.push(line)), lines };
}

describe.skipIf(skipped)(`the request journal on Redis${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  test(
    'two mocks on one server keep one journal: each reads both ' +
      'in the order the server took them, and one clears it for both',
    async () => {
      const [a, b] = [await state('shared:'), await state('shared:')];
      const calls = mixedCalls();
      await Promise.all(calls.map((call, i) => (i % 2 ? b : a).journal.record(call)));
      await expect.poll(async () => (await a.journal.page({}, 100)).entries.length).toBe(6);
      const fromA = await a.journal.page({}, 100);
      const fromB = await b.journal.page({}, 100);
      expect(fromB).toEqual(fromA);
      expect(fromA.entries.map((e) => e.request_id).sort()).toEqual(calls.map((c) => c.requestId).sort());
      // A cursor from one mock's page walks on at the other.
      const first = await a.journal.page({}, 4);
      expect((await b.journal.page({}, 4, Number(first.next_cursor))).entries).toEqual(fromA.entries.slice(4));
      expect(await b.journal.clear()).toBe(6);
      expect((await a.journal.snapshot()).entries()).toEqual([]);
      // Another prefix is another mock's journal: it saw none of it.
      expect((await (await state()).journal.page({}, 10)).entries).toEqual([]);
    },
  );

  test('the server holds the entries blanked, never a key in any encoding', async () => {
    const keys = ['igk_team_u5gMaPea1WrYK9fMYU0C9caUagKi3mzn', 'Users.Own-key~of-no-form'];
    const s = await state('blanked:');
    await s.journal.record(answered({ known: keys }, 0));
    for (const call of callsWithKeys(keys)) await s.journal.record(call);
    expect((await s.journal.snapshot()).entries()).toHaveLength(19);
    const held = await everythingHeld((await redis()).url);
    expect(held).toContain('blanked:journal: stream');
    expect(held).toContain('/api/v1/firms/***');
    expect(keys.flatMap(keyForms).filter((form) => held.includes(form))).toEqual([]);
  });

  test(
    'the stream is capped near its bound on the server (whole nodes trimmed), ' + 'readers see it exactly',
    async () => {
      const s = await state('capped:', 10);
      await Promise.all(Array.from({ length: 1_000 }, (_, n) => s.journal.record(answered({}, n))));
      expect((await s.journal.page({}, 100)).entries.map((e) => e.query.limit)).toEqual(
        Array.from({ length: 10 }, (_, i) => String(991 + i)),
      );
      // MAXLEN ~ 10: Redis keeps at least 10, trimming a node (100 entries by default) at a time.
      const client = new Redis((await redis()).url);
      const length = await client.xlen('capped:journal').finally(() => client.disconnect());
      expect(length).toBeGreaterThanOrEqual(10);
      expect(length).toBeLessThanOrEqual(10 + 100);
    },
  );

  test(
    'a server away loses entries, never a call (it waits for the write the command timeout at most); ' +
      'it is said once, and reads are 503',
    async () => {
      const { journal, lines } = await loggedJournal(200);
      const validator = await createContractValidator();
      const dataset = collectDataset({ seed: 'journal', scale: 300, asOf: defaultDataset.asOf });
      const engine = createEngine({ dataset, validator, journalStore: journal });
      await engine.ready;
      const call = () => engine.fetch(new Request('http://mock/api/v1/firms?limit=1'), { clientAddress: '192.0.2.1' });
      const s = await redis();
      s.pause();
      try {
        // Answered once its entry's write gave up (the server frozen): the call itself never fails for it.
        expect((await call()).status).toBe(401);
        expect(journal.unwritten).toBe(1);
        for (let i = 0; i < 3; i++) expect((await call()).status).toBe(401);
        await expect.poll(() => journal.unwritten, { timeout: 10_000 }).toBe(4);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/request journal on redis:\/\/127\.0\.0\.1:\d+\/0\?prefix=j\d+: could not be written/);
        for (const read of [() => journal.page({}, 10), () => journal.snapshot(), () => journal.clear()])
          await expect(read()).rejects.toMatchObject({ code: 'state_unavailable', status: 503 });
        const control = await engine.fetch(new Request('http://mock/__control/journal'), { inProcess: true });
        expect(control.status).toBe(503);
        expect(await control.json()).toMatchObject({ code: 'state_unavailable' });
      } finally {
        s.resume();
      }
      // Back, it journals again.
      await expect.poll(async () => (await call()).status).toBe(401);
      await expect
        .poll(async () => (await journal.page({}, 10).catch(() => null))?.entries.length ?? 0)
        .toBeGreaterThan(0);
    },
    30_000,
  );
});
