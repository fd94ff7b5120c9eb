/**
 * The changes feed, and what it says seen in the resources: changed records as they are now,
 * unpublished ones gone from every list.
 */
import fc from 'fast-check';
import { planRule } from '../core/context.ts';
import { valueShown } from '../shown/failure-text.ts';
import { type Property, DAY, assert, expectStatus, isoSecond, keyOf, pageOf, walk } from './support.ts';

export const changes: Property = {
  id: 'changes',
  title: 'the changes feed is in order, starts at since, and what it lists is visible in the resource',
  spec: ['6. Events', '1. What the service does'],
  assumed: ['changes-feed'],
  skip: (ctx) => (planRule(ctx).changes_feed ? null : `the ${ctx.config.plan} plan has no changes feed`),
  cost: (ctx) => ({ calls: 4, rows: 2 * ctx.client.rowCost(25) + 2 * ctx.client.rowCost(1) }),
  arbitrary: () =>
    fc.record({
      daysBack: fc.integer({ min: 0, max: 30 }),
      limit: fc.integer({ min: 1, max: 25 }),
      rows: fc.boolean(),
    }),
  // The last day's changes with their rows, and a month's without.
  examples: () => [
    { daysBack: 1, limit: 25, rows: true },
    { daysBack: 30, limit: 25, rows: false },
  ],
  async check(ctx, { daysBack, limit, rows: withRows }) {
    const since = isoSecond(Date.parse(ctx.asOf) - daysBack * DAY);
    const { rows: items } = await walk(
      ctx,
      `/api/v1/changes?since=${since}${withRows ? '&include=rows' : ''}`,
      limit,
      2,
    );
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      assert(
        Date.parse(item.changed_at) >= Date.parse(since),
        `the changes feed since=${since}`,
        `changes at or after ${since}`,
        `change ${item.sequence} at ${item.changed_at}`,
      );
      if (i > 0) {
        assert(
          item.sequence > items[i - 1].sequence,
          `the changes feed since=${since}`,
          `sequence numbers rising, after ${items[i - 1].sequence}`,
          `${item.sequence}`,
        );
        assert(
          Date.parse(item.changed_at) >= Date.parse(items[i - 1].changed_at),
          `the changes feed since=${since}`,
          `change ${item.sequence} at or after the one before it, ${items[i - 1].changed_at}`,
          `${item.changed_at}`,
        );
      }
      if (withRows)
        assert(
          item.kind === 'unpublish' ? item.row === null : item.row && typeof item.row === 'object',
          `change ${item.sequence} (${item.kind}) with include=rows`,
          item.kind === 'unpublish' ? 'row null' : 'the row as an object',
          `row ${valueShown(item.row, 80)}`,
        );
    }
    // The latest change of a record with an endpoint of its own must show there.
    const latest = new Map<string, any>();
    for (const item of items)
      if (['firm', 'company', 'fund', 'list'].includes(item.resource)) latest.set(`${item.resource}/${item.key}`, item);
    for (const item of [...latest.values()].slice(-2)) {
      const base = { firm: 'firms', company: 'companies', fund: 'funds', list: 'lists' }[item.resource as string]!;
      const answer = await ctx.client.call(`/api/v1/${base}/${encodeURIComponent(item.key)}`, { rows: 1 });
      if (item.kind === 'unpublish')
        expectStatus(answer, 404, `${item.resource} ${item.key}, unpublished at ${item.changed_at}`);
      else {
        expectStatus(answer, 200, `${item.resource} ${item.key}, ${item.kind}d at ${item.changed_at}`);
        const now = answer.body.data;
        assert(
          Date.parse(now.updated_at) >= Date.parse(item.changed_at),
          `${item.resource} ${item.key}`,
          `updated_at at or after its ${item.kind} at ${item.changed_at}`,
          `${now.updated_at}`,
        );
        // An update changes a record that was seen before: first_seen_at stays where it was.
        if (item.kind === 'update' && typeof now.first_seen_at === 'string')
          assert(
            Date.parse(now.first_seen_at) < Date.parse(item.changed_at),
            `${item.resource} ${item.key}`,
            `first_seen_at before its update at ${item.changed_at} (an update does not move it)`,
            `${now.first_seen_at}`,
          );
        // The row that came with the change is the record, as the record's own endpoint serves it
        // while unchanged since. (A record's own endpoint may add to the row, as a list adds its
        // members: the row's fields are compared.)
        if (withRows && item.row && item.row.updated_at === now.updated_at) {
          const differs = Object.keys(item.row).find(
            (field) => JSON.stringify(item.row[field]) !== JSON.stringify(now[field]),
          );
          assert(
            differs === undefined,
            `${item.resource} ${item.key}, the row with change ${item.sequence} (same updated_at ${now.updated_at})`,
            `the record as its endpoint serves it, ${differs} ${valueShown(now[differs!], 80)}`,
            `${differs} ${valueShown(item.row[differs!], 80)} in the feed`,
          );
        }
      }
    }
  },
};

/** The lists a record of each resource the feed names is listed in, in keyset order of its key. */
const listOf: Record<string, string> = {
  firm: '/api/v1/firms',
  company: '/api/v1/companies',
  investment: '/api/v1/investments',
  fund: '/api/v1/funds',
  list: '/api/v1/lists',
  'adv-fund': '/api/v1/adv-funds',
};
/** How far a walk goes to where keyset order puts a record: pages of at most PAGE rows. */
const PAGE = 100;
const PAGES = 8;

export const unpublished: Property = {
  id: 'unpublished',
  title:
    'a record the changes feed last says was unpublished is in no list: its list is walked, ' +
    'in keyset order, to where the record would be',
  spec: ['3. States and transitions', '6. Events'],
  assumed: ['record-and-key-states', 'changes-feed', 'filters-and-sort-order'],
  skip: (ctx) =>
    planRule(ctx).changes_feed
      ? null
      : `the ${ctx.config.plan} plan has no changes feed, which says what was unpublished`,
  cost: (ctx) => {
    const limit = pageOf(ctx, PAGE);
    return { calls: 2 + 2 * PAGES, rows: ctx.client.rowCost(limit) * (2 + 2 * PAGES) };
  },
  arbitrary: () => fc.constant(null),
  once: true,
  async check(ctx) {
    const limit = pageOf(ctx, PAGE);
    const { rows: items } = await walk(
      ctx,
      `/api/v1/changes?since=${isoSecond(Date.parse(ctx.asOf) - 365 * DAY)}`,
      limit,
      2,
    );
    // A record's last word in the feed: an unpublished record may come back with a create.
    const last = new Map<string, { resource: string; key: string; kind: string; changed_at: string }>();
    for (const item of items) last.set(`${item.resource}/${item.key}`, item);
    const gone = [...last.values()].filter((item) => item.kind === 'unpublish' && listOf[item.resource]);
    // The first gone record of (at most) two resources: the one a walk reaches soonest.
    const firsts = new Map<string, (typeof gone)[number]>();
    for (const item of gone)
      if (!firsts.has(item.resource) || item.key < firsts.get(item.resource)!.key) firsts.set(item.resource, item);
    for (const item of [...firsts.values()].slice(0, 2)) {
      let cursor: string | null = null;
      for (let page = 0; page < PAGES; page++) {
        const answer = await ctx.client.call(
          `${listOf[item.resource]}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { rows: limit },
        );
        expectStatus(answer, 200, `page ${page + 1} of ${listOf[item.resource]}`);
        const keys = (answer.body.data as unknown[]).map(keyOf);
        assert(
          !keys.includes(item.key),
          `page ${page + 1} of ${listOf[item.resource]}`,
          `no ${item.resource} ${item.key} (unpublished at ${item.changed_at}, the feed's last word on it)`,
          'it listed',
        );
        cursor = answer.body.next_cursor;
        if (cursor === null || keys.some((k) => k !== null && k > item.key)) break;
      }
    }
  },
};
