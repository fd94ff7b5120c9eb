/**
 * One contract every incident store passes (store.ts): the memory one (store-contract.test.ts) and
 * the mock's Redis one (packages/mock/src/stores/redis/incidents-contract.test.ts), through the same
 * cases: an incident posted, listed, matched (the newest wins), its count taken exactly, ended by
 * its duration or its time on the simulated clock, ended one by one or all, and no more than
 * MAX_INCIDENTS in force.
 */
import { describe, expect, test } from 'vitest';
import { MAX_INCIDENTS, type CallFacts, type IncidentInput } from './incidents.ts';
import type { IncidentStore } from './store.ts';

export interface IncidentStoreSetup {
  name: string;
  /** Why the store cannot run here (said in the suite's name), or null. */
  skip?: string | null;
  /** A store of its own, empty, and how to close it. */
  open(): Promise<{ store: IncidentStore; close(): Promise<void> }>;
}

const firms: CallFacts = { operation: 'listFirms', method: 'GET', path: '/api/v1/firms', keyId: 'key_aaaaaaaaaaaa' };
const firm: CallFacts = { ...firms, operation: 'getFirm', path: '/api/v1/firms/harbor-lane' };
const now = Date.parse('2026-11-20T03:00:00Z');
const outage = (more: Partial<IncidentInput> = {}): IncidentInput => ({
  kind: 'outage',
  match: {},
  parameters: { retry_after: 5 },
  ...more,
});
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the store holds, as the control plane lists it (refreshed first). */
async function listed(store: IncidentStore, at = now): Promise<string[]> {
  await store.refresh?.(at);
  return store.list(at).map((i) => i.id);
}

export function runIncidentStoreContract(setup: IncidentStoreSetup): void {
  const withStore =
    (body: (store: IncidentStore) => Promise<void>): (() => Promise<void>) =>
    async () => {
      const opened = await setup.open();
      try {
        await body(opened.store);
      } finally {
        await opened.close();
      }
    };

  describe.skipIf(Boolean(setup.skip))(
    `the ${setup.name} incident store${setup.skip ? ` (skipped: ${setup.skip})` : ''}`,
    () => {
      test(
        'an incident posted is listed as posted, oldest first, and met by the calls it matches',
        withStore(async (store) => {
          const slow = await store.add({
            kind: 'latency',
            match: { operation: 'listFirms' },
            parameters: { latency_ms: 5 },
          });
          expect(slow).toMatchObject({ kind: 'latency', latency_ms: 5, calls_left: null, hits: 0, ends_at: null });
          expect(slow.id).toMatch(/^inc_[0-9a-f]{12}$/);
          const down = await store.add(outage({ match: { path: '/api/v1/firms/*' }, calls: 3 }), now);
          expect(await listed(store)).toEqual([slow.id, down.id]);
          expect(store.list(now)[1]).toMatchObject({
            kind: 'outage',
            match: { path: '/api/v1/firms/*' },
            calls_left: 3,
          });
          expect(store.any).toBe(true);
          expect(await store.take(firms, now)).toMatchObject({ id: slow.id, hits: 1 });
          expect(await store.take({ ...firms, operation: 'listPeople', path: '/api/v1/people' }, now)).toBeNull();
          // The newest incident a call matches is the one it meets.
          expect(await store.take(firm, now)).toMatchObject({ id: down.id, calls_left: 2, hits: 1 });
        }),
      );

      test(
        'an incident for N calls changes exactly N matching calls, then is gone from the list',
        withStore(async (store) => {
          const down = await store.add(outage({ match: { operation: 'listFirms' }, calls: 5 }), now);
          const taken = await Promise.all(Array.from({ length: 20 }, async () => await store.take(firms, now)));
          expect(taken.filter((t) => t?.id === down.id)).toHaveLength(5);
          expect(
            taken
              .map((t) => t?.calls_left)
              .filter((n) => n !== undefined)
              .sort(),
          ).toEqual([0, 1, 2, 3, 4]);
          expect(await store.take(firms, now)).toBeNull();
          expect(await listed(store)).toEqual([]);
        }),
      );

      test(
        'an incident ends at its wall-clock duration or at its time on the simulated clock',
        withStore(async (store) => {
          const brief = await store.add(outage({ durationMs: 300 }), now);
          const late = await store.add(outage({ kind: 'bad_gateway', until: now + 60_000 }), now);
          expect(brief.ends_at).not.toBeNull();
          expect(await listed(store)).toEqual([brief.id, late.id]);
          expect((await store.take(firms, now))?.id).toBe(late.id);
          await store.end(late.id, now);
          expect((await store.take(firms, now))?.id).toBe(brief.id);
          await store.add(outage({ kind: 'gateway_timeout', until: now + 60_000 }), now);
          await sleep(400);
          expect(await listed(store, now)).toHaveLength(1);
          expect(await store.take(firms, now + 59_999)).toMatchObject({ kind: 'gateway_timeout' });
          expect(await store.take(firms, now + 60_000)).toBeNull();
          expect(await listed(store, now + 60_000)).toEqual([]);
        }),
      );

      test(
        'ending one incident or clearing them all says what ended, and no call meets them after',
        withStore(async (store) => {
          const one = await store.add(outage({ calls: 2 }), now);
          await store.add(outage({ match: { operation: 'getFirm' } }), now);
          expect(await store.end(one.id, now)).toMatchObject({ id: one.id, retry_after: 5, calls_left: 2 });
          expect(await store.end(one.id, now)).toBeUndefined();
          expect(await store.take(firms, now)).toBeNull();
          expect(await store.clear()).toBe(1);
          expect(await store.take(firm, now)).toBeNull();
          expect(await listed(store)).toEqual([]);
        }),
      );

      test(
        'at most MAX_INCIDENTS are in force: one more is a 409 too_many_incidents, and ending one makes room',
        withStore(async (store) => {
          const ids = [];
          for (let i = 0; i < MAX_INCIDENTS; i++)
            ids.push((await store.add(outage({ match: { operation: `op${i}` } }), now)).id);
          await expect(Promise.resolve().then(() => store.add(outage(), now))).rejects.toMatchObject({
            code: 'too_many_incidents',
            status: 409,
          });
          await store.end(ids[0]!, now);
          expect((await store.add(outage(), now)).kind).toBe('outage');
        }),
        30_000,
      );
    },
  );
}
