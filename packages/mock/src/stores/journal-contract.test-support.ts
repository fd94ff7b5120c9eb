/**
 * The journal store contract: what every request journal store (the engine's memory ring, the
 * Redis stream) must do, as one suite each runs (as store-contract.test-support.ts does for the
 * key stores). Entries are the ones `entryOf` makes, member for member; a walk of pages gives each
 * once; filters, the bound, `dropped`, a clear and a journal of 0 mean the same on each; and no key
 * is kept in any form.
 */
import { describe, expect, test } from 'vitest';
import { entryOf, kept, type AnsweredCall, type JournalEntry } from '@investor-graph/engine/adapter';
import type { JournalStore } from '@investor-graph/engine/adapter';
import type { JournalFilter } from '@investor-graph/engine/adapter';
import { verify } from '@investor-graph/engine/adapter';

/** A journal store opened afresh for one test (nothing of another test in it). */
export interface OpenedJournal {
  journal: JournalStore;
  close: () => Promise<void> | void;
}

export interface JournalContract {
  name: string;
  open: (capacity: number) => Promise<OpenedJournal>;
  /** Why this store cannot run here (the suite is skipped, saying so), or null. */
  skip?: string | null;
}

const NOW = Date.parse('2026-11-20T03:00:00Z');

/** An answered call as the engine hands it over: a Team key's listFirms unless `over` says otherwise. */
export function answered(over: Partial<AnsweredCall> = {}, n = 0): AnsweredCall {
  return {
    target: `/api/v1/firms?limit=${n + 1}`,
    known: [],
    method: 'GET',
    requestId: `req_contract_${n}`,
    status: 200,
    note: { operation: 'listFirms', keyId: 'key_0123456789ab', plan: 'team', rowsServed: n + 1, counted: true },
    at: NOW + n * 1000,
    serviceTime: NOW,
    durationMs: 1.234567,
    ...over,
  };
}

/** Six calls of different kinds, in this order: two listFirms, a company, a 401, a POST, a payg 402. */
export function mixedCalls(): AnsweredCall[] {
  const payg = { keyId: 'key_payg00000001', plan: 'payg' as const };
  return [
    answered({}, 0),
    answered({}, 1),
    answered({ target: '/api/v1/companies/acme-robotics', note: { operation: 'getCompany', rowsServed: 1 } }, 2),
    answered({ status: 401, body: '{"code":"invalid_key"}', note: { operation: 'listFirms' } }, 3),
    answered({ method: 'POST', target: '/api/v1/keys/trial', status: 201, note: { operation: 'createTrialKey' } }, 4),
    answered({ status: 402, note: { operation: 'listFirms', ...payg, problem: 'insufficient_balance' } }, 5),
  ];
}

/** A key's secret part and the forms it may be sent in (as sent, percent-encoded once and twice). */
export function keyForms(key: string): string[] {
  const secret = key.replace(/^igk_[a-z]+_/, '');
  return [key, encodeURIComponent(key), encodeURIComponent(encodeURIComponent(key)), secret];
}

/** Calls carrying `keys` in a path, a query's value and a name, each as sent and percent-encoded once and twice. */
export function callsWithKeys(keys: string[]): AnsweredCall[] {
  return keys.flatMap((key, k) =>
    [key, encodeURIComponent(key), encodeURIComponent(encodeURIComponent(key))].flatMap((shown, i) =>
      [`/api/v1/firms/${shown}`, `/api/v1/firms?limit=1&api_key=${shown}`, `/api/v1/firms?${shown}=1`].map(
        (target, j) => answered({ target, known: keys }, k * 100 + i * 10 + j),
      ),
    ),
  );
}

/** Every page of `filter`, `limit` a page, from the start: the entries, and how many pages it took. */
async function walk(journal: JournalStore, filter: JournalFilter, limit: number) {
  const entries: JournalEntry[] = [];
  let pages = 0;
  let cursor: number | undefined;
  for (;;) {
    const page = await journal.page(filter, limit, cursor);
    pages++;
    entries.push(...page.entries);
    if (page.next_cursor === null) return { entries, pages };
    // Never an empty page before the end, and a cursor always moves on.
    expect(page.entries.length).toBe(limit);
    expect(Number(page.next_cursor)).toBe(page.entries.at(-1)!.seq);
    cursor = Number(page.next_cursor);
  }
}

export function runJournalContract({ name, open, skip = null }: JournalContract): void {
  describe.skipIf(skip)(`the journal store contract: ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    async function setup(capacity = 1_000) {
      const opened = await open(capacity);
      // Written one after another, each waited for as the engine waits for it: the order is the calls'.
      const record = async (calls: AnsweredCall[]) => {
        for (const c of calls) await opened.journal.record(c);
      };
      const all = async () => (await opened.journal.page({}, 1_000)).entries;
      return { ...opened, record, all };
    }

    test('entries come back oldest first, seq after seq, each the entry entryOf makes, member for member', async () => {
      const { journal, record, all, close } = await setup();
      const calls = mixedCalls();
      await record(calls);
      const entries = await all();
      const first = entries[0]!.seq;
      // Whatever the store keeps, it shows the entry the journal makes (a member added to it comes through).
      expect(entries).toEqual(calls.map((call, i) => ({ ...entryOf(kept(first + i, call)) })));
      expect(entries.map((e) => e.problem)).toEqual([null, null, null, 'invalid_key', null, 'insufficient_balance']);
      expect((await journal.snapshot()).entries()).toEqual(entries);
      await close();
    });

    test('no key is kept, in any place of a target or any encoding, whatever is read', async () => {
      const keys = ['igk_team_u5gMaPea1WrYK9fMYU0C9caUagKi3mzn', 'Users.Own-key~of-no-form'];
      const { journal, record, all, close } = await setup();
      await record(callsWithKeys(keys));
      const texts = [JSON.stringify(await all()), JSON.stringify((await journal.snapshot()).entries())];
      expect(JSON.parse(texts[0]!)).toHaveLength(18);
      const shown = keys.flatMap(keyForms).filter((form) => texts.some((text) => text.includes(form)));
      expect(shown).toEqual([]);
      await close();
    });

    test('a walk of pages gives each entry exactly once, filtered or not, at any page size', async () => {
      const { journal, record, all, close } = await setup();
      await record([...mixedCalls(), ...mixedCalls(), ...mixedCalls(), ...mixedCalls()]);
      const everything = await all();
      expect(everything).toHaveLength(24);
      const cases: [JournalFilter, (e: JournalEntry) => boolean][] = [
        [{}, () => true],
        [{ operation: 'listFirms' }, (e) => e.operation === 'listFirms'],
        [{ status: '4xx' }, (e) => e.status >= 400 && e.status < 500],
        [{ operation: 'noSuchOperation' }, () => false],
      ];
      for (const [filter, named] of cases) {
        const wanted = everything.filter(named);
        for (const limit of [1, 2, 5, 7, wanted.length || 1, 100]) {
          const { entries, pages } = await walk(journal, filter, limit);
          expect(
            entries.map((e) => e.seq),
            `${JSON.stringify(filter)} by ${limit}`,
          ).toEqual(wanted.map((e) => e.seq));
          expect(pages).toBe(Math.max(1, Math.ceil(wanted.length / limit)));
        }
      }
      await close();
    });

    test(
      'a page is filtered by operation, method, path, status or ' + 'its class, key id, plan, query and since',
      async () => {
        const { journal, record, close } = await setup();
        await record(mixedCalls());
        const first = (await journal.page({}, 1)).entries[0]!.seq;
        const seqs = async (filter: JournalFilter) =>
          (await journal.page(filter, 100)).entries.map((e) => e.seq - first);
        expect(await seqs({ operation: 'listFirms' })).toEqual([0, 1, 3, 5]);
        expect(await seqs({ method: 'post' })).toEqual([4]);
        expect(await seqs({ path: '/api/v1/compan*' })).toEqual([2]);
        expect(await seqs({ status: 401 })).toEqual([3]);
        expect(await seqs({ status: '4xx' })).toEqual([3, 5]);
        expect(await seqs({ key_id: 'key_0123456789ab', operation: 'listFirms' })).toEqual([0, 1]);
        expect(await seqs({ plan: 'payg' })).toEqual([5]);
        expect(await seqs({ query: { limit: '2' } })).toEqual([1]);
        expect(await seqs({ since: NOW + 4000 })).toEqual([4, 5]);
        await close();
      },
    );

    test('the bound keeps the newest calls exactly, and pages and a verification say how many went', async () => {
      const { journal, record, all, close } = await setup(5);
      // Far past the bound: a store that trims in steps (Redis's MAXLEN ~) still shows exactly five.
      await record(Array.from({ length: 260 }, (_, n) => answered({}, n)));
      const entries = await all();
      expect(entries.map((e) => e.query.limit)).toEqual(['256', '257', '258', '259', '260']);
      expect(await journal.page({}, 2)).toMatchObject({ capacity: 5, dropped: 255 });
      const view = await journal.snapshot();
      expect({ held: view.entries().length, dropped: view.dropped(), capacity: view.capacity }).toEqual({
        held: 5,
        dropped: 255,
        capacity: 5,
      });
      expect(verify(view, { query: { limit: '1' } }).message).toContain('255 older calls were pushed out');
      expect(verify(view, { operation: 'listFirms' }, 5).ok).toBe(true);
      await close();
    });

    test(
      'a clear forgets every entry and says how many it held; ' + 'the seq goes on past a cursor from before',
      async () => {
        const { journal, record, all, close } = await setup(3);
        await record(mixedCalls().slice(0, 5));
        const before = await all();
        expect(await journal.clear()).toBe(3);
        expect(await journal.page({}, 10)).toEqual({ entries: [], next_cursor: null, capacity: 3, dropped: 0 });
        expect(await journal.clear()).toBe(0);
        await record([answered({ target: '/api/v1/companies?limit=1' }, 9)]);
        const after = await journal.page({}, 10, before.at(-1)!.seq);
        expect(after.entries.map((e) => e.path)).toEqual(['/api/v1/companies']);
        expect(after.entries[0]!.seq).toBeGreaterThan(before.at(-1)!.seq);
        expect(after.dropped).toBe(0);
        await close();
      },
    );

    test('a long journal is walked whole, a page at a time and filtered for its one last match', async () => {
      const { journal, record, close } = await setup(2_000);
      // Longer than a store on a server reads a round trip (Redis: 500), so walks go past its batches.
      await record(Array.from({ length: 1_234 }, (_, n) => answered(n === 1_233 ? { status: 404 } : {}, n)));
      const { entries, pages } = await walk(journal, {}, 1_000);
      expect({ held: entries.length, pages, distinct: new Set(entries.map((e) => e.seq)).size }).toEqual({
        held: 1_234,
        pages: 2,
        distinct: 1_234,
      });
      expect((await journal.page({ status: 404 }, 10)).entries.map((e) => e.query.limit)).toEqual(['1234']);
      expect((await journal.page({ status: 200 }, 1_000)).next_cursor).not.toBeNull();
      expect((await journal.snapshot()).entries()).toHaveLength(1_234);
      await close();
    });

    test('a cursor past the last entry gives an empty last page', async () => {
      const { journal, record, close } = await setup();
      await record(mixedCalls());
      expect(await journal.page({}, 10, 1_000_000)).toMatchObject({ entries: [], next_cursor: null });
      await close();
    });

    test('a journal of 0 keeps nothing, and a verification over it says it is off', async () => {
      const { journal, record, close } = await setup(0);
      await record(mixedCalls());
      expect(await journal.page({}, 10)).toEqual({ entries: [], next_cursor: null, capacity: 0, dropped: 0 });
      expect(await journal.clear()).toBe(0);
      const verdict = verify(await journal.snapshot(), {}, { max: 0 });
      expect(verdict.ok).toBe(false);
      expect(verdict.message).toContain('the request journal is off');
      await close();
    });
  });
}
