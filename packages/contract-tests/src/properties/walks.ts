/**
 * Walks: a list walked with any limit is one big page cut up, in key order, ending where the list
 * does (and a page asked again from a cursor the walk was handed is the page it was); a cursor is
 * the service's own, bound to the operation and filters it was issued for. The walk-order rule
 * (judges.ts) holds every walk any property makes to the same order and end.
 */
import fc from 'fast-check';
import { operationById } from '@investor-graph/contract';
import { listOperations, planRule } from '../core/context.ts';
import { cutBody } from '../shown/cut-body.ts';
import {
  type Property,
  DAY,
  assert,
  expectStatus,
  isoDay,
  isoSecond,
  walk,
  keyOf,
  identity,
  requestFor,
  sameData,
} from './support.ts';

export const pagination: Property = {
  id: 'pagination',
  title:
    'walking a list with any limit gives no duplicate and no gap, no page over the limit, ' +
    'and next_cursor null exactly at the end',
  spec: ['4. Endpoints'],
  // Only the cursor parameter's name is the kit's: no gap, no duplicate and the cap are the spec's.
  assumed: ['cursor'],
  skip: () => null,
  // A page of four limits, four pages, and a page asked again from the walk's second cursor.
  cost: (ctx) => ({ calls: 6, rows: 5 * ctx.client.rowCost(7) + ctx.client.rowCost(28) }),
  caseCost: (ctx, { limit }) => ({ calls: 6, rows: 5 * ctx.client.rowCost(limit) + ctx.client.rowCost(4 * limit) }),
  arbitrary: () =>
    fc.record({
      op: fc.constantFrom(...listOperations.filter((o) => o.operationId !== 'listChanges')),
      pick: fc.nat(),
      limit: fc.integer({ min: 1, max: 7 }),
    }),
  // Pages of one row, and of the most the arbitrary asks, on a top list and a nested one; then short
  // lists walked to their end (a walk that ends early, or does not end where the list does).
  examples: () => [
    { op: operationById('listInvestments'), pick: 0, limit: 1 },
    { op: operationById('listFirms'), pick: 0, limit: 7 },
    { op: operationById('listFirmPortfolio'), pick: 0, limit: 1 },
    { op: operationById('listLists'), pick: 0, limit: 2 },
    { op: operationById('listCompanyRounds'), pick: 0, limit: 2 },
    { op: operationById('listFirmFunds'), pick: 1, limit: 1 },
  ],
  async check(ctx, { op, pick, limit }) {
    const path = requestFor(ctx, op, pick, null, 0);
    if (!path) return;
    const pages = 4;
    const reference = await ctx.client.call(`${path}?limit=${pages * limit}`, { rows: pages * limit });
    if (reference.status !== 200) return;
    const expected: any[] = reference.body.data;
    const { rows, ended, answers } = await walk(ctx, path, limit, pages);
    // The same data on both sides: a rebuild between the reference and the walk changes them rightly.
    if (!sameData(reference, ...answers)) return;
    answers.forEach((a, i) =>
      assert(
        a.body.data.length <= limit,
        `page ${i + 1} of ${path}`,
        `at most limit=${limit} rows`,
        `${a.body.data.length} rows`,
      ),
    );
    const ids = rows.map(identity);
    assert(
      new Set(ids).size === ids.length,
      `walking ${path} with limit=${limit}`,
      'each row once',
      `${cutBody(ids.find((id, i) => ids.indexOf(id) !== i) ?? '', 200)} twice`,
    );
    // Every list is in ascending order of its key (DECISIONS.md#filters-and-sort-order).
    const keys = rows.map(keyOf);
    const back = keys.findIndex((k, i) => i > 0 && k !== null && keys[i - 1] !== null && !(keys[i - 1]! < k));
    assert(
      back < 0,
      `walking ${path} with limit=${limit}`,
      "rows in ascending order of the list's key",
      `key ${keys[back]} after ${keys[back - 1]}`,
    );
    const want = expected.slice(0, rows.length).map(identity);
    const differs = ids.findIndex((id, i) => id !== want[i]);
    assert(
      differs < 0,
      `walking ${path} with limit=${limit}`,
      `the first ${ids.length} rows of one page of ${pages * limit}, in order`,
      `${cutBody(ids[differs] ?? '', 200)} at row ${differs + 1}, where the page has ` +
        `${want[differs] === undefined ? 'no row' : cutBody(want[differs], 200)}`,
    );
    // From any start: the walk's second cursor, asked again, gives the page it gave.
    const second = answers[0]!.body.next_cursor;
    if (answers[1] && typeof second === 'string') {
      const again = await ctx.client.call(`${path}?limit=${limit}&cursor=${encodeURIComponent(second)}`, {
        rows: limit,
      });
      expectStatus(again, 200, `page 2 of ${path} with limit=${limit}, asked again with the same cursor`);
      const [was, is] = [answers[1].body.data.map(keyOf), again.body.data.map(keyOf)];
      if (sameData(again, answers[1]))
        assert(
          JSON.stringify(is) === JSON.stringify(was),
          `page 2 of ${path} with limit=${limit}, asked again`,
          `the rows it gave the first time, ${cutBody(JSON.stringify(was), 200)}`,
          cutBody(JSON.stringify(is), 200),
        );
    }
    if (reference.body.next_cursor === null) {
      // The whole list fits in the reference page: the walk must end exactly where it does.
      if (rows.length === expected.length)
        assert(
          ended,
          `walking ${path} with limit=${limit}, all ${expected.length} rows seen`,
          'next_cursor null',
          'a next_cursor',
        );
      if (ended)
        assert(
          rows.length === expected.length,
          `walking ${path} with limit=${limit}`,
          `next_cursor null after all ${expected.length} rows`,
          `next_cursor null after ${rows.length}`,
        );
    } else {
      assert(
        !ended && rows.length === pages * limit,
        `walking ${path}, a list of more than ${pages * limit} rows, with limit=${limit}`,
        `${pages} full pages with a next_cursor`,
        `a walk that ${ended ? 'ended' : 'stalled'} after ${rows.length} rows`,
      );
    }
  },
};

export const cursorTamper: Property = {
  id: 'cursor-tamper',
  title: 'a tampered, truncated, foreign or made-up cursor is rejected with a 400 problem',
  spec: ['4. Endpoints'],
  assumed: ['cursor', 'status-codes'],
  skip: () => null,
  cost: (ctx) => ({ calls: 3, rows: 2 * ctx.client.rowCost(1) }),
  arbitrary: () =>
    fc.oneof(
      fc.record({ kind: fc.constant('flip'), at: fc.nat(), by: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('truncate'), at: fc.nat() }),
      fc.record({ kind: fc.constant('append'), tail: fc.string({ minLength: 1, maxLength: 8 }) }),
      fc.record({ kind: fc.constant('foreign') }),
      fc.record({ kind: fc.constant('made-up'), text: fc.string({ minLength: 1, maxLength: 120 }) }),
      fc.record({ kind: fc.constant('other-filters'), days: fc.integer({ min: 1, max: 3000 }) }),
    ),
  // One of each way a cursor goes wrong; on a plan with the feed, its cursor with another since or include.
  examples: (ctx) => [
    { kind: 'flip', at: 0, by: 1 },
    { kind: 'truncate', at: 0 },
    { kind: 'append', tail: 'x' },
    { kind: 'foreign' },
    { kind: 'made-up', text: 'abc.def' },
    { kind: 'other-filters', days: 1 },
    ...(planRule(ctx).changes_feed ? [{ kind: 'other-since', days: 1 }, { kind: 'other-include' }] : []),
  ],
  async check(ctx, change: { kind: string; at?: number; by?: number; tail?: string; text?: string; days?: number }) {
    if (change.kind === 'other-since' || change.kind === 'other-include') {
      const since = isoSecond(Date.parse(ctx.asOf) - 30 * DAY);
      const issued = await ctx.client.call(`/api/v1/changes?since=${since}&limit=1`, { rows: 1 });
      expectStatus(issued, 200, `the first page of the changes feed since ${since}`);
      if (!issued.body.next_cursor) return;
      const other =
        change.kind === 'other-since'
          ? `since=${isoSecond(Date.parse(since) + change.days! * DAY)}`
          : `since=${since}&include=rows`;
      const answer = await ctx.client.call(
        `/api/v1/changes?${other}&limit=1&cursor=${encodeURIComponent(issued.body.next_cursor)}`,
        { rows: 1 },
      );
      expectStatus(answer, 400, `a cursor of the feed since=${since}, sent with ${other}`);
      return;
    }
    if (change.kind === 'other-filters') {
      // A cursor is bound to the filters it was issued for: sent with others, it is refused.
      const issued = await ctx.client.call('/api/v1/rounds?announced_since=2000-01-01&limit=1', { rows: 1 });
      expectStatus(issued, 200, 'the first page of rounds announced since 2000-01-01');
      if (!issued.body.next_cursor) return;
      const other = isoDay(Date.parse('2000-01-01T00:00:00Z') + change.days! * DAY);
      const answer = await ctx.client.call(
        `/api/v1/rounds?announced_since=${other}&limit=1&cursor=${encodeURIComponent(issued.body.next_cursor)}`,
        { rows: 1 },
      );
      expectStatus(answer, 400, `a cursor issued for announced_since=2000-01-01, sent with announced_since=${other}`);
      return;
    }
    const first = await ctx.client.call('/api/v1/firms?limit=1', { rows: 1 });
    expectStatus(first, 200, 'the first page of firms');
    const cursor: string | null = first.body.next_cursor;
    if (!cursor) return;
    let bad: string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    if (change.kind === 'flip') {
      const at = change.at! % cursor.length;
      const c = cursor[at]!;
      const i = alphabet.indexOf(c);
      bad = cursor.slice(0, at) + (i < 0 ? 'A' : alphabet[(i + change.by!) % alphabet.length]) + cursor.slice(at + 1);
    } else if (change.kind === 'truncate') bad = cursor.slice(0, change.at! % cursor.length);
    else if (change.kind === 'append') bad = cursor + change.tail!;
    else if (change.kind === 'foreign') {
      const other = await ctx.client.call('/api/v1/companies?limit=1', { rows: 1 });
      bad = other.body?.next_cursor ?? 'x';
    } else bad = change.text!;
    if (bad === cursor) return;
    const answer = await ctx.client.call(`/api/v1/firms?limit=1&cursor=${encodeURIComponent(bad)}`, { rows: 1 });
    expectStatus(answer, 400, `a ${change.kind} cursor`);
  },
};
