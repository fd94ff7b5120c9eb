/**
 * The changes feed against the records themselves (DECISIONS.md#changes-feed, #record-and-key-states):
 * the feed lists every create, update and unpublish, so a record's `updated_at` is the time of its
 * latest create or update in the feed and its `first_seen_at` that of its create; every record the
 * run holds that changed inside the window is in the feed at that time; a record the feed last says
 * was unpublished is gone, from its own endpoint and from under its parent. Read through what the run
 * holds: the records other properties read are judged at no cost.
 */
import fc from 'fast-check';
import { operationFor } from '@investor-graph/contract';
import type { Answer } from '../client/client.ts';
import { planRule, type SuiteContext } from '../core/context.ts';
import { valueShown } from '../shown/failure-text.ts';
import { type Property, DAY, assert, expectStatus, isoSecond, keyOf, pageOf, sameData, walk } from './support.ts';

/** The resource a read's rows are, by its operation. */
const resourceOf: Record<string, string> = {
  listFirms: 'firm',
  getFirm: 'firm',
  listCompanies: 'company',
  getCompany: 'company',
  listRounds: 'round',
  listCompanyRounds: 'round',
  listInvestments: 'investment',
  listFirmPortfolio: 'investment',
  listCompanyInvestors: 'investment',
  listFunds: 'fund',
  getFund: 'fund',
  listFilings: 'filing',
  listFirmFilings: 'filing',
  listOfferings: 'offering',
  listCompanyOfferings: 'offering',
  listAdvFunds: 'adv-fund',
  listFirmFunds: 'adv-fund',
  listLists: 'list',
  getList: 'list',
};
/** A record's own endpoint, and the nested lists a record of a resource sits in (by the field naming the parent). */
const own: Record<string, string> = { firm: 'firms', company: 'companies', fund: 'funds', list: 'lists' };
const parents: Record<string, [field: string, list: (parent: string) => string][]> = {
  investment: [
    ['firm_slug', (p) => `/api/v1/firms/${p}/portfolio`],
    ['company_slug', (p) => `/api/v1/companies/${p}/investors`],
  ],
  round: [['company_slug', (p) => `/api/v1/companies/${p}/rounds`]],
  offering: [['company_slug', (p) => `/api/v1/companies/${p}/offerings`]],
  filing: [['firm_slug', (p) => `/api/v1/firms/${p}/filings`]],
  'adv-fund': [['firm_slug', (p) => `/api/v1/firms/${p}/funds`]],
};
const PAGES = 3;
const RECORDS = 6;
const page = (ctx: SuiteContext) => pageOf(ctx, 500);

/** The rows of the records the run holds, with the resource and the answer they came in. */
function heldRows(ctx: SuiteContext): { resource: string; row: any; answer: Answer }[] {
  return ctx.client.answers.all().flatMap(([path, { answer }]) => {
    const resource = resourceOf[operationFor('GET', new URL(path, 'http://x').pathname)?.operationId ?? ''];
    if (!resource || answer.status !== 200) return [];
    const data = answer.body?.data;
    return (Array.isArray(data) ? data : [data])
      .filter((row) => row && typeof row === 'object')
      .map((row) => ({ resource, row, answer }));
  });
}

export const feed: Property = {
  id: 'feed',
  title:
    "the changes feed against the records: a record's updated_at is its latest change's time " +
    "and first_seen_at its create's, every record read that changed inside the window is in " +
    'the feed at that time, and an unpublished record is gone, also from under its parent',
  spec: ['6. Events', '1. What the service does', '3. States and transitions'],
  assumed: ['changes-feed', 'record-and-key-states'],
  skip: (ctx) => (planRule(ctx).changes_feed ? null : `the ${ctx.config.plan} plan has no changes feed`),
  // A page of firms and of companies, the feed walked, a few records read, and two parents' nested
  // lists walked (two pages of 50).
  cost: (ctx) => ({
    calls: 2 + PAGES + RECORDS + 4,
    rows:
      2 * ctx.client.rowCost(pageOf(ctx, 100)) +
      PAGES * ctx.client.rowCost(page(ctx)) +
      RECORDS * ctx.client.rowCost(1) +
      4 * ctx.client.rowCost(pageOf(ctx, 50)),
  }),
  arbitrary: () => fc.record({ days: fc.integer({ min: 1, max: 60 }) }),
  examples: () => [{ days: 30 }, { days: 1 }],
  async check(ctx, { days }: { days: number }) {
    const since = isoSecond(Date.parse(ctx.asOf) - days * DAY);
    // The records of a page of firms and of companies are judged beside every other record the run holds.
    for (const list of ['firms', 'companies'])
      await ctx.client.read(`/api/v1/${list}?limit=${pageOf(ctx, 100)}`, { rows: pageOf(ctx, 100) });
    const walked = await walk(ctx, `/api/v1/changes?since=${since}&include=rows`, page(ctx), PAGES);
    if (!walked.ended) return;
    const items = walked.rows;
    const latest = new Map<string, any>();
    const created = new Map<string, any>();
    for (const item of items) {
      latest.set(`${item.resource}/${item.key}`, item);
      if (item.kind === 'create') created.set(`${item.resource}/${item.key}`, item);
    }
    const at = new Set(
      items.filter((i) => i.kind !== 'unpublish').map((i) => `${i.resource}/${i.key}@${Date.parse(i.changed_at)}`),
    );
    const feedAsOf = walked.answers.at(-1)!.body.as_of;
    // A feed may keep a limited history: judged from its first item on (or since, when that is later).
    const from = Math.max(Date.parse(since), items.length ? Date.parse(items[0].changed_at) : Infinity);
    // Every record the run holds, read no later than the feed, that changed inside the window: in
    // the feed at that time.
    for (const { resource, row, answer } of heldRows(ctx)) {
      const key = keyOf(row);
      if (
        !key ||
        answer.body.as_of > feedAsOf ||
        typeof row.updated_at !== 'string' ||
        Date.parse(row.updated_at) < from
      )
        continue;
      // A lagged plan has no feed, so a row here is the record, not a view of it.
      assert(
        at.has(`${resource}/${key}@${Date.parse(row.updated_at)}`),
        `${resource} ${key}, updated_at ${row.updated_at}`,
        `a create or update of it at ${row.updated_at} in the feed since ${since} (it lists every one)`,
        latest.get(`${resource}/${key}`)
          ? `its latest change ${valueShown(latest.get(`${resource}/${key}`), 160)}`
          : 'none of it',
      );
      if (typeof row.first_seen_at === 'string' && Date.parse(row.first_seen_at) >= from) {
        const made = created.get(`${resource}/${key}`);
        assert(
          made && Date.parse(made.changed_at) === Date.parse(row.first_seen_at),
          `${resource} ${key}, first_seen_at ${row.first_seen_at}`,
          `its create at ${row.first_seen_at} in the feed`,
          made ? `a create at ${made.changed_at}` : 'no create of it',
        );
      }
    }
    // The records the feed changed last, read: their times are the feed's; an unpublished one is gone.
    const last = [...latest.values()].reverse();
    for (const item of last.filter((i) => own[i.resource]).slice(0, RECORDS)) {
      const answer = await ctx.client.read(`/api/v1/${own[item.resource]}/${encodeURIComponent(item.key)}`, {
        rows: 1,
      });
      if (!sameData(answer, walked.answers.at(-1))) continue;
      if (item.kind === 'unpublish') {
        expectStatus(
          answer,
          404,
          `${item.resource} ${item.key}, unpublished at ${item.changed_at} (the feed's last word on it)`,
        );
        continue;
      }
      expectStatus(answer, 200, `${item.resource} ${item.key}, ${item.kind}d at ${item.changed_at}`);
      const now = answer.body.data;
      assert(
        Date.parse(now.updated_at) === Date.parse(item.changed_at),
        `${item.resource} ${item.key}`,
        `updated_at ${item.changed_at}, its latest change in the feed (change ${item.sequence}, a ${item.kind})`,
        `${now.updated_at}`,
      );
      const made = created.get(`${item.resource}/${item.key}`);
      if (made)
        assert(
          Date.parse(now.first_seen_at) === Date.parse(made.changed_at),
          `${item.resource} ${item.key}`,
          `first_seen_at ${made.changed_at}, its create in the feed`,
          `${now.first_seen_at}`,
        );
    }
    // An unpublished record whose parent the run knows (from the feed's rows or a list it read) is not under it.
    const knownRows = new Map<string, any>();
    for (const { resource, row } of heldRows(ctx)) if (keyOf(row)) knownRows.set(`${resource}/${keyOf(row)}`, row);
    for (const item of items) if (item.row) knownRows.set(`${item.resource}/${item.key}`, item.row);
    const gone = last
      .filter((i) => i.kind === 'unpublish' && parents[i.resource] && knownRows.has(`${i.resource}/${i.key}`))
      .slice(0, 2);
    for (const item of gone) {
      const [field, list] = parents[item.resource]![0]!;
      const parent = knownRows.get(`${item.resource}/${item.key}`)[field];
      if (typeof parent !== 'string') continue;
      const nested = await walk(ctx, list(encodeURIComponent(parent)), pageOf(ctx, 50), 2);
      if (!sameData(walked.answers.at(-1), ...nested.answers)) continue;
      assert(
        !nested.rows.some((r) => keyOf(r) === item.key),
        `${list(parent)}`,
        `no ${item.resource} ${item.key} (unpublished at ${item.changed_at}, the feed's last word on it)`,
        'it listed under its parent',
      );
    }
  },
};
