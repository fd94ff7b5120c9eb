/**
 * The properties. Each generates its own inputs with fast-check, spends only through the budgeted
 * client, and fails on what it asserts itself and on any single-response rule broken by a call it
 * made (see @investor-graph/contract's rules). `spec` and `assumed` say what each one rests on: a
 * section of the spec, or a decision the kit took where the spec says "not shown".
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { defaultLimit, operationById, operationFor, operations, parameterEnum, planIds, plans, queryOf } from '@investor-graph/contract';
import { BudgetExhausted, type Answer, type Spending } from './client.ts';
import { dataOperations, fillPath, listOperations, planRule, type SuiteContext } from './context.ts';

export interface Property {
  id: string;
  title: string;
  spec: string[];
  assumed: string[];
  /** Why it cannot run here (plan, flags, budget), or null. */
  skip(ctx: SuiteContext): string | null;
  /** The most one generated case can spend. */
  cost(ctx: SuiteContext): Spending;
  /** One generated case; throws on a broken property. */
  arbitrary(ctx: SuiteContext): fc.Arbitrary<any>;
  /**
   * The boundary and example cases every run opens with, in order of importance (the budget may
   * cut the list short), before generated ones: a broken server is caught on every seed.
   */
  examples?(ctx: SuiteContext): any[];
  check(ctx: SuiteContext, input: any): Promise<void>;
  /** One case a run: what it reads is the same every time (the account, the description), and each read spends the budget. */
  once?: boolean;
}

const DAY = 86_400_000;

export class PropertyFailure extends Error {
  override name = 'PropertyFailure';
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new PropertyFailure(message);
}

function expectStatus(answer: Answer, status: number | ((s: number) => boolean), what: string): void {
  const ok = typeof status === 'number' ? answer.status === status : status(answer.status);
  assert(ok, `${what}: got ${answer.status} ${answer.text.slice(0, 300)}`);
}

function expectActions(answer: Answer, what: string, type?: string): void {
  const actions = answer.body?.actions;
  assert(Array.isArray(actions) && actions.length > 0, `${what}: a ${answer.status} without actions`);
  if (type) assert(actions.some((a: { type?: string }) => a?.type === type), `${what}: actions ${JSON.stringify(actions.map((a: { type?: string }) => a?.type))} lack ${type}`);
}

const cap = (ctx: SuiteContext): number => planRule(ctx).rows_per_page;
/** Whether the key's plan has the feature an operation needs (the changes feed, the nightly dumps). */
const planServes = (ctx: SuiteContext, op: { path: string; operationId: string }): boolean =>
  (planRule(ctx).exports || !op.path.includes('exports')) && (planRule(ctx).changes_feed || op.operationId !== 'listChanges');
/** The page the statistics property walks rounds in: the plan's size, at most 250. */
const statisticsPage = (ctx: SuiteContext): number => Math.min(cap(ctx), 250);
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const isoSecond = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** A walk of at most `pages` pages; returns the rows and whether it reached the end. */
async function walk(ctx: SuiteContext, path: string, limit: number, pages: number): Promise<{ rows: any[]; ended: boolean; answers: Answer[] }> {
  const rows: any[] = [];
  const answers: Answer[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < pages; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const answer = await ctx.client.call(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { rows: limit });
    expectStatus(answer, 200, `page ${page + 1} of ${path}`);
    answers.push(answer);
    rows.push(...answer.body.data);
    cursor = answer.body.next_cursor;
    if (cursor === null) return { rows, ended: true, answers };
  }
  return { rows, ended: false, answers };
}

/** A row's key, as its list is ordered by: slug, id, accession number or private fund id (null for a dump day). */
const keyOf = (row: any): string | null => {
  const key = row?.slug ?? row?.id ?? row?.accession_number ?? row?.private_fund_id;
  return typeof key === 'string' ? key : null;
};

/** A call of the kit's mock's control API (only with --use-control): JSON in, its answer out. */
const control = (ctx: SuiteContext, path: string, method = 'GET', body?: unknown): Promise<Response> =>
  fetch(`${ctx.config.baseUrl}/__control${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });

/** A dump day's files, smallest first: the ones a case can afford to download. */
const smallestFiles = (day: { files?: { bytes: number }[] } | undefined): any[] => [...(day?.files ?? [])].sort((x, y) => x.bytes - y.bytes);

const identity = (row: any): string => (typeof row?.service_url === 'string' ? row.service_url : JSON.stringify(row));

/** Rows with updated_at taken out, to compare content. */
const content = (row: any): string => JSON.stringify({ ...row, updated_at: undefined });

function requestFor(ctx: SuiteContext, op: (typeof dataOperations)[number], pick: number, limit: number | null, since: number): string | null {
  const path = fillPath(op.path, ctx.samples, pick);
  if (!path) return null;
  const query = new URLSearchParams();
  if (limit !== null && op.query.includes('limit')) query.set('limit', String(limit));
  if (op.query.includes('since')) query.set('since', isoSecond(since));
  const q = query.toString();
  return q ? `${path}?${q}` : path;
}

/** Operations any key can read twice alike: not the account (its usage moves), the feed or the dumps (plan features). */
const readOperations = dataOperations.filter((o) => o.operationId !== 'getAccount' && o.operationId !== 'listChanges' && !o.path.includes('exports'));

/** The plan features a key may or may not have (the plan table's changes_feed and exports). */
const features = ['changes', 'exports'] as const;


export const properties: readonly Property[] = [
  {
    id: 'conforms',
    title: 'every operation answers with a documented status, content type and body',
    spec: ['4. Endpoints', '2. Response envelope'],
    assumed: ['status-codes', 'limit'],
    skip: () => null,
    cost: (ctx) => ({ calls: 2, rows: ctx.client.rowCost(Math.min(cap(ctx), 50)) + ctx.client.rowCost(1) }),
    arbitrary: (ctx) =>
      fc.record({
        op: fc.constantFrom(...dataOperations),
        pick: fc.nat(),
        limit: fc.option(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: Math.min(cap(ctx), 50) }) }), { nil: null }),
        sinceDays: fc.integer({ min: 0, max: 60 }),
      }),
    // Every operation once, a row a page, then a long list without limit (the default page size).
    examples: () => [...dataOperations.map((op) => ({ op, pick: 0, limit: 1, sinceDays: 1 })), { op: operationById('listInvestments'), pick: 0, limit: null, sinceDays: 1 }],
    async check(ctx, { op, pick, limit, sinceDays }) {
      const path = requestFor(ctx, op, pick, limit, Date.parse(ctx.asOf) - sinceDays * DAY);
      if (!path) return;
      const answer = await ctx.client.call(path, { rows: op.query.includes('limit') ? (limit ?? Math.min(cap(ctx), defaultLimit)) : 1 });
      assert(answer.status < 500, `${path}: ${answer.status}`);
      // A top-level list of the spec's table is there for every key whose plan serves it.
      const served = planServes(ctx, op);
      if (!op.path.includes('{') && served) expectStatus(answer, 200, `${path}, an endpoint of the spec's table under /api/v1`);
      // A list's members exist, and it counts them (DECISIONS.md#list-shapes): its first member is read.
      if (op.operationId === 'getList' && answer.status === 200) {
        const list = answer.body.data;
        assert(list.member_count === list.members.length, `${path}: member_count ${list.member_count}, ${list.members.length} members listed`);
        const first = list.members[0];
        if (first) {
          const member = await ctx.client.call(`/api/v1/${first.kind === 'firm' ? 'firms' : 'companies'}/${encodeURIComponent(first.slug)}`, { rows: 1 });
          expectStatus(member, 200, `${path}: its member ${first.kind} ${first.slug}`);
        }
      }
      // Without limit a page is the default size, or the plan's page size if lower (DECISIONS.md#limit).
      if (limit === null && op.query.includes('limit') && answer.status === 200 && typeof answer.body?.next_cursor === 'string') {
        const want = Math.min(defaultLimit, cap(ctx));
        assert(answer.body.data.length === want, `${path} without limit served ${answer.body.data.length} rows with more to come; the default page is ${want}`);
      }
    },
  },
  {
    id: 'envelope',
    title: 'as_of, plan and usage agree with the key and with each other across calls',
    spec: ['2. Response envelope', '8. Limits'],
    assumed: ['plan-and-usage-in-the-envelope', 'pay-as-you-go-billing'],
    skip: () => null,
    cost: (ctx) => ({ calls: 3, rows: 3 * ctx.client.rowCost(5) }),
    arbitrary: () => fc.array(fc.record({ op: fc.constantFrom(...listOperations.filter((o) => o.operationId !== 'listChanges')), pick: fc.nat(), limit: fc.integer({ min: 1, max: 5 }) }), { minLength: 2, maxLength: 3 }),
    async check(ctx, calls: { op: (typeof listOperations)[number]; pick: number; limit: number }[]) {
      const rule = planRule(ctx);
      let before: any = null;
      for (const { op, pick, limit } of calls) {
        const path = requestFor(ctx, op, pick, limit, 0);
        if (!path) continue;
        const answer = await ctx.client.call(path, { rows: limit });
        if (answer.status !== 200) continue;
        const { plan, usage, as_of: asOf, data } = answer.body;
        assert(plan.id === ctx.config.plan, `plan.id ${plan.id} for a ${ctx.config.plan} key`);
        for (const field of ['rows_per_page', 'rate_per_second', 'round_lag_days', 'changes_feed', 'exports'] as const) {
          assert(plan[field] === rule[field], `plan.${field} is ${plan[field]}, the plan table says ${rule[field]}`);
        }
        assert(usage.calls_limit === rule.calls_limit, `usage.calls_limit ${usage.calls_limit}, the plan table says ${rule.calls_limit}`);
        if (usage.calls_limit !== null) assert(usage.calls_remaining === usage.calls_limit - usage.calls_used, `calls_remaining ${usage.calls_remaining} is not ${usage.calls_limit} - ${usage.calls_used}`);
        if (ctx.config.plan === 'payg') {
          const served = Array.isArray(data) ? data.length : 1;
          assert(usage.rows_charged === Math.max(served, rule.min_rows_per_call ?? 0), `${served} rows served, ${usage.rows_charged} charged`);
        }
        if (before) {
          assert(Date.parse(asOf) >= Date.parse(before.as_of), `as_of went back from ${before.as_of} to ${asOf}`);
          // One accepted call later: this key is the suite's own, so nothing else counts on it.
          if (usage.calls_limit !== null) assert(usage.calls_used === before.usage.calls_used + 1, `calls_used went from ${before.usage.calls_used} to ${usage.calls_used} over one call`);
          if (ctx.config.plan === 'payg') assert(usage.balance_rows === before.usage.balance_rows - usage.rows_charged, `balance went from ${before.usage.balance_rows} to ${usage.balance_rows} charging ${usage.rows_charged}`);
        }
        before = answer.body;
      }
    },
  },
  {
    id: 'pagination',
    title: 'walking a list with any limit gives no duplicate and no gap, no page over the limit, and next_cursor null exactly at the end',
    spec: ['4. Endpoints'],
    // Only the cursor parameter's name is the kit's: no gap, no duplicate and the cap are the spec's.
    assumed: ['cursor'],
    skip: () => null,
    cost: (ctx) => ({ calls: 5, rows: 4 * ctx.client.rowCost(7) + ctx.client.rowCost(28) }),
    arbitrary: () => fc.record({ op: fc.constantFrom(...listOperations.filter((o) => o.operationId !== 'listChanges')), pick: fc.nat(), limit: fc.integer({ min: 1, max: 7 }) }),
    // Pages of one row, and of the most the arbitrary asks, on a top list and a nested one.
    examples: () => [
      { op: operationById('listInvestments'), pick: 0, limit: 1 },
      { op: operationById('listFirms'), pick: 0, limit: 7 },
      { op: operationById('listFirmPortfolio'), pick: 0, limit: 1 },
    ],
    async check(ctx, { op, pick, limit }) {
      const path = requestFor(ctx, op, pick, null, 0);
      if (!path) return;
      const pages = 4;
      const reference = await ctx.client.call(`${path}?limit=${pages * limit}`, { rows: pages * limit });
      if (reference.status !== 200) return;
      const expected: any[] = reference.body.data;
      const { rows, ended, answers } = await walk(ctx, path, limit, pages);
      answers.forEach((a, i) => assert(a.body.data.length <= limit, `page ${i + 1} has ${a.body.data.length} rows for limit=${limit}`));
      const ids = rows.map(identity);
      assert(new Set(ids).size === ids.length, `a row came twice walking ${path} with limit=${limit}`);
      // Every list is in ascending order of its key (DECISIONS.md#filters-and-sort-order).
      const keys = rows.map(keyOf);
      const back = keys.findIndex((k, i) => i > 0 && k !== null && keys[i - 1] !== null && !(keys[i - 1]! < k));
      assert(back < 0, `walking ${path} with limit=${limit}: key ${keys[back]} comes after ${keys[back - 1]}, not in ascending order of the list's key`);
      const want = expected.slice(0, rows.length).map(identity);
      assert(JSON.stringify(ids) === JSON.stringify(want), `walking ${path} with limit=${limit} gave ${ids.length} rows that are not the first rows of one page of ${pages * limit}: first difference at ${ids.findIndex((id, i) => id !== want[i])}`);
      if (reference.body.next_cursor === null) {
        // The whole list fits in the reference page: the walk must end exactly where it does.
        if (rows.length === expected.length) assert(ended, `the walk saw all ${expected.length} rows but next_cursor is not null`);
        if (ended) assert(rows.length === expected.length, `next_cursor was null after ${rows.length} of ${expected.length} rows`);
      } else {
        assert(!ended && rows.length === pages * limit, `the list has more than ${pages * limit} rows, but the walk ${ended ? 'ended' : 'stalled'} after ${rows.length}`);
      }
    },
  },
  {
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
    // One of each way a cursor goes wrong.
    examples: () => [{ kind: 'flip', at: 0, by: 1 }, { kind: 'truncate', at: 0 }, { kind: 'append', tail: 'x' }, { kind: 'foreign' }, { kind: 'made-up', text: 'abc.def' }, { kind: 'other-filters', days: 1 }],
    async check(ctx, change: { kind: string; at?: number; by?: number; tail?: string; text?: string; days?: number }) {
      if (change.kind === 'other-filters') {
        // A cursor is bound to the filters it was issued for: sent with others, it is refused.
        const issued = await ctx.client.call('/api/v1/rounds?announced_since=2000-01-01&limit=1', { rows: 1 });
        expectStatus(issued, 200, 'the first page of rounds announced since 2000-01-01');
        if (!issued.body.next_cursor) return;
        const other = isoDay(Date.parse('2000-01-01T00:00:00Z') + change.days! * DAY);
        const answer = await ctx.client.call(`/api/v1/rounds?announced_since=${other}&limit=1&cursor=${encodeURIComponent(issued.body.next_cursor)}`, { rows: 1 });
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
  },
  {
    id: 'filters',
    title: "rounds from announced_since=D are on or after D, and a trial sees none inside the round lag",
    spec: ['4. Known parameters', '8. Limits'],
    assumed: [],
    skip: () => null,
    cost: (ctx) => ({ calls: 3, rows: 2 * ctx.client.rowCost(20) + ctx.client.rowCost(5) }),
    arbitrary: (ctx) => fc.record({ daysBack: fc.integer({ min: -30, max: 3 * 365 }), limit: fc.integer({ min: 1, max: 20 }), pick: fc.nat() }),
    // The as-of day itself, either side of the trial's round lag, and a day still to come.
    examples: () => [0, plans.trial.round_lag_days, plans.trial.round_lag_days + 1, -1].map((daysBack) => ({ daysBack, limit: 20, pick: 0 })),
    async check(ctx, { daysBack, limit, pick }) {
      const since = isoDay(Date.parse(ctx.asOf) - daysBack * DAY);
      const { rows } = await walk(ctx, `/api/v1/rounds?announced_since=${since}`, limit, 2);
      const early = rows.find((r) => r.announced_on < since);
      assert(!early, `announced_since=${since} served a round announced ${early?.announced_on}`);
      const lag = planRule(ctx).round_lag_days;
      const company = fillPath('/api/v1/companies/{slug}/rounds', ctx.samples, pick);
      const theirs = company ? await ctx.client.call(`${company}?limit=5`, { rows: 5 }) : null;
      if (lag > 0) {
        const edge = isoDay(Date.parse(ctx.asOf) - lag * DAY);
        for (const r of [...rows, ...(theirs?.status === 200 ? theirs.body.data : [])]) assert(r.announced_on <= edge, `a ${ctx.config.plan} key saw a round of ${r.announced_on}, inside the ${lag}-day lag`);
      }
    },
  },
  {
    id: 'auth',
    title: 'no key or a wrong key is a 401 with a get_trial_key action, on every operation',
    spec: ['5. Authentication', '7. Errors'],
    assumed: ['actions', 'status-codes'],
    skip: () => null,
    cost: () => ({ calls: 1, rows: 0 }),
    arbitrary: () =>
      fc.record({
        op: fc.constantFrom(...dataOperations),
        pick: fc.nat(),
        key: fc.oneof(
          fc.constant(null),
          fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /^[\x21-\x7e]+$/.test(s)),
          fc.record({ plan: fc.constantFrom(...planIds), tail: fc.stringMatching(/^[A-Za-z0-9]{32}$/) }).map(({ plan, tail }) => `igk_${plan}_${tail}`),
        ),
        typo: fc.boolean(),
      }),
    // No key, a key of another form and a well-formed unknown one, on a list, a record and the account.
    examples: () => [
      { op: operationById('listFirms'), pick: 0, key: null },
      { op: operationById('getCompany'), pick: 0, key: 'not-a-key' },
      { op: operationById('getAccount'), pick: 0, key: `igk_team_${'A'.repeat(32)}` },
      // A call is authenticated before its query is looked at: a misspelt parameter is still a 401.
      { op: operationById('listRounds'), pick: 0, key: null, typo: true },
    ],
    async check(ctx, { op, pick, key, typo }) {
      const base = requestFor(ctx, op, pick, 1, Date.parse(ctx.asOf) - DAY);
      if (!base) return;
      const path = typo ? `${base}${base.includes('?') ? '&' : '?'}limt=1` : base;
      const answer = await ctx.client.call(path, { key });
      expectStatus(answer, 401, `${path} with ${key === null ? 'no key' : 'a wrong key'}`);
      expectActions(answer, path, 'get_trial_key');
    },
  },
  {
    id: 'plan-features',
    title: 'what the plan includes (the changes feed, the nightly dumps) is served, and what it lacks is a 402 with actions',
    spec: ['6. Events', '8. Limits', '7. Errors'],
    assumed: ['status-codes', 'actions'],
    skip: () => null,
    cost: (ctx) => ({ calls: 1, rows: ctx.client.rowCost(1) }),
    arbitrary: () => fc.record({ feature: fc.constantFrom(...features), daysBack: fc.integer({ min: 0, max: 30 }) }),
    // Each feature once, whether the plan has it or not.
    examples: () => features.map((feature) => ({ feature, daysBack: 1 })),
    async check(ctx, { feature, daysBack }: { feature: (typeof features)[number]; daysBack: number }) {
      const included = feature === 'changes' ? planRule(ctx).changes_feed : planRule(ctx).exports;
      const path = feature === 'changes' ? `/api/v1/changes?since=${isoSecond(Date.parse(ctx.asOf) - daysBack * DAY)}&limit=1` : '/api/v1/exports';
      const answer = await ctx.client.call(path, { rows: 1 });
      if (included) {
        expectStatus(answer, 200, `${path}: the ${ctx.config.plan} plan includes ${feature === 'changes' ? 'the changes feed' : 'the nightly dumps'}`);
        return;
      }
      expectStatus(answer, 402, `${path} on ${ctx.config.plan}`);
      expectActions(answer, path, 'subscribe');
    },
  },
  {
    id: 'trial-runs-out',
    title: 'a used-up or expired trial is a 402 with actions on every data operation, and can still read its account',
    spec: ['3. States and transitions', '7. Errors', '8. Limits'],
    assumed: ['exhausted-quota', 'actions', 'trial-key-response', 'account'],
    skip: (ctx) => (ctx.control || ctx.config.exhaustTrial ? null : `needs --use-control against the kit's mock, or --exhaust-trial to spend a fresh trial's ${plans.trial.calls_limit!.toLocaleString('en')} calls`),
    cost: (ctx) => ({ calls: ctx.control ? 4 : plans.trial.calls_limit! + 3, rows: ctx.control ? 0 : plans.trial.calls_limit! }),
    // A trial past its calls; with the control API also one past its days (made a week ago).
    arbitrary: () => fc.record({ op: fc.constantFrom(...dataOperations.filter((o) => o.operationId !== 'getAccount')), pick: fc.nat(), tag: fc.stringMatching(/^[a-z0-9]{10}$/), how: fc.constant('used-up') }),
    examples: (ctx) => [
      { op: operationById('listFirms'), pick: 0, tag: 'usedup0001', how: 'used-up' },
      ...(ctx.control ? [{ op: operationById('getCompany'), pick: 0, tag: 'expired001', how: 'expired' }] : []),
    ],
    async check(ctx, { op, pick, tag, how }) {
      let key: string;
      if (how === 'expired') {
        // A trial made eight days ago through the control API: past its seven days without moving
        // the clock, which every other key and client of the mock shares.
        const clock = (await (await control(ctx, '/clock')).json()) as { now: string };
        const made = await control(ctx, '/keys', 'POST', { plan: 'trial', created_at: isoSecond(Date.parse(clock.now) - 8 * DAY) });
        assert(made.status === 201, `the mock's control API made no trial key in the past: ${made.status}`);
        key = ((await made.json()) as { key: string }).key;
      } else {
        const domain = ctx.config.email?.split('@')[1] ?? 'example.com';
        // The case's tag, the key's plan and the seed: a replay asks for the same address, which a live trial may still hold (409).
        const issued = await ctx.client.call('/api/v1/keys/trial', { method: 'POST', key: null, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `contract-tests+${tag}-${ctx.config.plan}-${ctx.config.seed}@${domain}` }) });
        if (issued.status === 409) return;
        expectStatus(issued, 201, 'a fresh trial key');
        key = issued.body.key;
        const keyId = issued.body.key_id;
        assert(typeof key === 'string' && /^igk_trial_[A-Za-z0-9]{32}$/.test(key), `a trial key looks like igk_trial_ and 32 base62 characters (DECISIONS.md#key-scopes-expiry-and-revocation); got one of ${String(key).length} characters`);
        assert(/\bno-store\b/.test(issued.headers.get('cache-control') ?? ''), `the answer that shows a key once is never stored (Cache-Control: no-store), got "${issued.headers.get('cache-control')}"`);
        if (ctx.control) {
          const set = await control(ctx, `/keys/${keyId}/usage`, 'PUT', { calls_used: plans.trial.calls_limit });
          assert(set.status === 200, `the mock's control endpoint refused the usage: ${set.status}`);
        } else {
          for (let n = 0; n < plans.trial.calls_limit!; n++) {
            const used = await ctx.client.call('/api/v1/firms?limit=1', { key, rows: 1 });
            if (used.status === 402) break;
          }
        }
      }
      const path = requestFor(ctx, op, pick, 1, Date.parse(ctx.asOf) - DAY);
      if (!path) return;
      const answer = await ctx.client.call(path, { key });
      expectStatus(answer, 402, `${path} on a ${how} trial`);
      expectActions(answer, path);
      const account = await ctx.client.call('/api/v1/account', { key });
      expectStatus(account, 200, `/api/v1/account of a ${how} trial (DECISIONS.md#account: it can still read its account)`);
    },
  },
  {
    id: 'rate',
    title: "a burst above the plan's rate meets 429 with Retry-After, and honouring it succeeds",
    spec: ['8. Limits', '7. Errors'],
    assumed: ['rate-limit-headers'],
    skip: (ctx) => (ctx.config.allowRate ? null : 'the burst above the rate was left out (--no-rate-burst, or allowRate unset)'),
    cost: (ctx) => ({ calls: Math.ceil(planRule(ctx).rate_per_second * 3) + 2, rows: (Math.ceil(planRule(ctx).rate_per_second * 3) + 2) * ctx.client.rowCost(1) }),
    // Only what the plan serves: a burst on a feature it lacks meets 402s, not the rate.
    arbitrary: (ctx) => fc.record({ op: fc.constantFrom(...listOperations.filter((o) => !o.path.includes('{') && o.operationId !== 'listChanges' && planServes(ctx, o))) }),
    async check(ctx, { op }) {
      const burst = Math.ceil(planRule(ctx).rate_per_second * 3);
      const answers = await Promise.all(Array.from({ length: burst }, () => ctx.client.call(`${op.path}?limit=1`, { rows: 1, honour429: false, unpaced: true })));
      const limited = answers.find((a) => a.status === 429);
      assert(limited, `${burst} calls at once on a ${planRule(ctx).rate_per_second} req/s plan met no 429`);
      const wait = Number(limited.headers.get('retry-after'));
      // The contract's RetryAfter: a whole number of seconds, at least 1; more than a minute would be no plan's rate.
      assert(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After ${JSON.stringify(limited.headers.get('retry-after'))} is not a whole number of seconds from 1 to 60`);
      expectActions(limited, 'a 429');
      await new Promise((r) => setTimeout(r, wait * 1000 + 50));
      const after = await ctx.client.call(`${op.path}?limit=1`, { rows: 1, honour429: false, unpaced: true });
      expectStatus(after, 200, `a call after waiting Retry-After ${wait}`);
    },
  },
  {
    id: 'stability',
    title: 'two reads with no change between them agree, and updated_at moves only with content',
    spec: ['1. What the service does'],
    assumed: [],
    skip: () => null,
    cost: (ctx) => ({ calls: 2, rows: 2 * ctx.client.rowCost(10) }),
    arbitrary: (ctx) => fc.record({ op: fc.constantFrom(...readOperations), pick: fc.nat(), limit: fc.integer({ min: 1, max: 10 }), rebuild: fc.boolean() }),
    async check(ctx, { op, pick, limit, rebuild }) {
      const path = requestFor(ctx, op, pick, limit, 0);
      if (!path) return;
      const rows = op.query.includes('limit') ? limit : 1;
      const a = await ctx.client.call(path, { rows });
      if (a.status !== 200) return;
      // On the mock, half the cases let an hour of rebuilds happen between the reads.
      if (rebuild && ctx.control) {
        await control(ctx, '/clock/advance', 'POST', { duration: 'PT1H' });
      }
      const b = await ctx.client.call(path, { rows });
      if (b.status !== 200) return;
      const before = new Map((Array.isArray(a.body.data) ? a.body.data : [a.body.data]).map((r: any) => [identity(r), r]));
      const after: any[] = Array.isArray(b.body.data) ? b.body.data : [b.body.data];
      if (a.body.as_of === b.body.as_of) {
        assert(JSON.stringify(a.body.data) === JSON.stringify(b.body.data), `${path} changed between two reads with the same as_of ${a.body.as_of}`);
      }
      for (const row of after) {
        const old = before.get(identity(row)) as any;
        if (!old || typeof row.updated_at !== 'string') continue;
        if (content(old) === content(row)) assert(old.updated_at === row.updated_at, `${identity(row)}: updated_at moved from ${old.updated_at} to ${row.updated_at} with the content unchanged`);
        else assert(Date.parse(row.updated_at) > Date.parse(old.updated_at), `${identity(row)}: the content changed but updated_at stayed ${row.updated_at}`);
      }
    },
  },
  {
    id: 'conditional',
    title: 'a record or page asked again with its ETag in If-None-Match is a 304 with no body, counted as a call and charging no rows',
    spec: [],
    assumed: ['conditional-requests', 'plan-and-usage-in-the-envelope'],
    skip: () => null,
    cost: (ctx) => ({ calls: 4, rows: 2 * ctx.client.rowCost(10) }),
    arbitrary: () => fc.record({ op: fc.constantFrom(...readOperations), pick: fc.nat(), limit: fc.integer({ min: 1, max: 10 }), form: fc.constantFrom('as-given', 'strong-in-a-list', 'any') }),
    // Each form a client may send the tag back in (RFC 9110 compares If-None-Match weakly).
    examples: () => (['as-given', 'strong-in-a-list', 'any'] as const).map((form) => ({ op: operationById('listFirms'), pick: 0, limit: 2, form })),
    async check(ctx, { op, pick, limit, form }) {
      const path = requestFor(ctx, op, pick, limit, 0);
      if (!path) return;
      const rows = op.query.includes('limit') ? limit : 1;
      const first = await ctx.client.call(path, { rows });
      if (first.status !== 200) return;
      const etag = first.headers.get('etag');
      assert(etag !== null && /^W\/"[^"]+"$/.test(etag), `${path}: a data answer's ETag is weak (its usage changes every call), got ${etag}`);
      // The tag as given; its strong form after another tag in a list; or `*`, which any current answer matches.
      const sent = form === 'any' ? '*' : form === 'strong-in-a-list' ? `W/"not-this-one", ${etag.slice(2)}` : etag;
      const again = await ctx.client.call(path, { rows, headers: { 'if-none-match': sent } });
      // A rebuild between the two calls changes the data and its tag: a 200 with a new tag is right then.
      if (again.status === 200 && again.headers.get('etag') !== etag && again.body?.as_of !== first.body.as_of) return;
      expectStatus(again, 304, `${path} with If-None-Match: ${sent} (the answer's ETag is ${etag})`);
      assert(again.text === '', `${path}: a 304 has no body, got ${again.text.length} bytes`);
      assert(again.headers.get('etag') === etag, `${path}: the 304 carries ETag ${again.headers.get('etag')}, not the ${etag} it confirms`);
      const other = await ctx.client.call(path, { rows, headers: { 'if-none-match': 'W/"not-this-one"' } });
      expectStatus(other, 200, `${path} with an If-None-Match that matches nothing`);
      const before = first.body.usage;
      const after = other.body.usage;
      // Three calls on this key, the 304 among them; it charged nothing.
      if (before.calls_limit !== null) assert(after.calls_used === before.calls_used + 2, `calls_used went from ${before.calls_used} to ${after.calls_used} over a 304 and a 200: the 304 is a call`);
      if (ctx.config.plan === 'payg') assert(after.balance_rows === before.balance_rows - after.rows_charged, `the balance went from ${before.balance_rows} to ${after.balance_rows} over a 304 and a call charging ${after.rows_charged}: the 304 charged rows`);
    },
  },
  {
    id: 'http-conventions',
    title: 'HEAD answers as GET without a body, OPTIONS and a browser preflight are answered, another method is 405 with Allow, caching and CORS headers are on data, a request id is echoed, a refused key says WWW-Authenticate',
    spec: [],
    assumed: ['http-conventions'],
    skip: () => null,
    cost: (ctx) => ({ calls: 7, rows: 3 * ctx.client.rowCost(5) }),
    arbitrary: () =>
      fc.record({
        op: fc.constantFrom(...readOperations),
        pick: fc.nat(),
        limit: fc.integer({ min: 1, max: 5 }),
        origin: fc.constantFrom('https://app.example', 'http://localhost:5173'),
        requestId: fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/),
      }),
    // A page and a record first: the conventions hold on both kinds of answer.
    examples: () => ['listFirms', 'getCompany'].map((id) => ({ op: readOperations.find((o) => o.operationId === id)!, pick: 0, limit: 2, origin: 'https://app.example', requestId: 'ct-conventions-1' })),
    async check(ctx, { op, pick, limit, origin, requestId }) {
      const path = requestFor(ctx, op, pick, limit, 0);
      if (!path) return;
      const rows = op.query.includes('limit') ? limit : 1;
      // Uncompressed, so GET and HEAD can be held to the same Content-Length.
      const plain = { 'accept-encoding': 'identity' };
      const get = await ctx.client.call(path, { rows, headers: { ...plain, origin, 'x-request-id': requestId } });
      expectStatus(get, 200, `${path}, a record or page that exists`);
      const header = (a: Answer, name: string) => a.headers.get(name) ?? '';
      const tokens = (a: Answer, name: string) => header(a, name).toLowerCase().split(',').map((t) => t.trim());
      assert(tokens(get, 'cache-control').includes('private'), `${path}: a data answer is private to its key (Cache-Control: private), got "${header(get, 'cache-control')}"`);
      assert(tokens(get, 'vary').includes('authorization'), `${path}: a data answer varies by key (Vary: Authorization), got "${header(get, 'vary')}"`);
      assert(header(get, 'x-request-id') === requestId, `${path}: the well-formed X-Request-Id ${requestId} is echoed, got "${header(get, 'x-request-id')}"`);
      const allowed = header(get, 'access-control-allow-origin');
      assert(allowed === '*' || allowed === origin, `${path}: a browser app at ${origin} may read the answer (Access-Control-Allow-Origin), got "${allowed}"`);
      if (header(get, 'content-encoding')) assert(tokens(get, 'vary').includes('accept-encoding'), `${path}: a compressed answer says Vary: Accept-Encoding`);

      const head = await ctx.client.call(path, { method: 'HEAD', rows, headers: plain });
      expectStatus(head, 200, `HEAD ${path} (the GET was 200)`);
      assert(head.text === '', `HEAD ${path}: no body, got ${head.text.length} bytes`);
      for (const name of ['content-type', 'cache-control']) {
        assert(header(head, name) === header(get, name), `HEAD ${path}: ${name} "${header(head, name)}" is the GET's "${header(get, name)}"`);
      }
      // The length of the body a GET would get now: its usage counts one more call, so a counter
      // gaining a digit may make it a byte or two longer than the GET's.
      const lengths = [Number(header(head, 'content-length')), Number(header(get, 'content-length'))];
      assert(Number.isInteger(lengths[0]) && lengths[0]! > 0 && Math.abs(lengths[0]! - lengths[1]!) <= 8, `HEAD ${path}: Content-Length "${header(head, 'content-length')}" is the length of the GET's body (${header(get, 'content-length')})`);
      // The same tag, unless the data was rebuilt between the two calls: then a GET now has the HEAD's.
      if (header(head, 'etag') !== header(get, 'etag')) {
        const again = await ctx.client.call(path, { rows, headers: plain });
        assert(header(again, 'etag') === header(head, 'etag'), `HEAD ${path}: ETag "${header(head, 'etag')}" is neither the GET's "${header(get, 'etag')}" nor a GET's since, "${header(again, 'etag')}"`);
      }

      // HEAD is the GET without its body: without a key, the GET's 401.
      const anonymous = await ctx.client.call(path, { method: 'HEAD', key: null, headers: plain });
      expectStatus(anonymous, 401, `HEAD ${path} without a key (the GET would be a 401)`);

      const preflight = await ctx.client.call(path, { method: 'OPTIONS', key: null, headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
      expectStatus(preflight, (s) => s === 200 || s === 204, `a browser's preflight of GET ${path} from ${origin}`);
      assert(tokens(preflight, 'access-control-allow-headers').includes('authorization'), `preflight of ${path}: Authorization is allowed, got "${header(preflight, 'access-control-allow-headers')}"`);
      assert(tokens(preflight, 'access-control-allow-methods').includes('get'), `preflight of ${path}: GET is allowed, got "${header(preflight, 'access-control-allow-methods')}"`);
      assert(['*', origin].includes(header(preflight, 'access-control-allow-origin')), `preflight of ${path}: ${origin} is allowed, got "${header(preflight, 'access-control-allow-origin')}"`);

      // Without a key: a read-only API refuses the method before it looks for one.
      const other = await ctx.client.call(path, { method: 'DELETE', key: null });
      expectStatus(other, 405, `DELETE ${path} (a read-only API)`);
      assert(['get', 'head'].every((m) => tokens(other, 'allow').includes(m)), `DELETE ${path}: the 405 lists GET and HEAD in Allow, got "${header(other, 'allow')}"`);

      // A well-formed key that is no key (never the run's own key altered: a service that echoes
      // what it refused would put it in the report).
      const refused = await ctx.client.call(path, { key: `igk_team_${'Z'.repeat(32)}` });
      expectStatus(refused, 401, `${path} with a key that is not one`);
      assert(/^Bearer\b/i.test(header(refused, 'www-authenticate')), `${path}: a 401 names its scheme (WWW-Authenticate: Bearer), got "${header(refused, 'www-authenticate')}"`);
    },
  },
  {
    id: 'account',
    title: "the account lists the key by its prefix and last four characters, never whole, and reading it is free",
    spec: ['5. Authentication'],
    assumed: ['account', 'trial-key-response'],
    skip: () => null,
    cost: () => ({ calls: 2, rows: 0 }),
    arbitrary: () => fc.constant(null),
    once: true,
    async check(ctx) {
      const first = await ctx.client.call('/api/v1/account', { rows: 0 });
      expectStatus(first, 200, 'GET /api/v1/account');
      const second = await ctx.client.call('/api/v1/account', { rows: 0 });
      expectStatus(second, 200, 'GET /api/v1/account again');
      const [a, b] = [first.body.data, second.body.data];
      assert(a?.plan?.id === ctx.config.plan, `the account's plan is ${JSON.stringify(a?.plan?.id)} for a ${ctx.config.plan} key`);
      // Free: neither counted nor charged (DECISIONS.md#account).
      assert(b.usage.calls_used === a.usage.calls_used, `calls_used went from ${a.usage.calls_used} to ${b.usage.calls_used} over an account read: the account call is free`);
      if (ctx.config.plan === 'payg') assert(b.balance?.prepaid_rows === a.balance?.prepaid_rows, `the balance went from ${a.balance?.prepaid_rows} to ${b.balance?.prepaid_rows} over an account read`);
      else assert(a.balance === null, `balance is ${JSON.stringify(a.balance)} on a ${ctx.config.plan} key: null but on pay as you go`);
      // The key the run holds is listed by its last four characters, and shown nowhere whole
      // (the key-not-echoed rule reads the whole answer; this reads where a key would be listed).
      const key = ctx.client.options.key ?? '';
      const keys: any[] = Array.isArray(a.keys) ? a.keys : [];
      assert(keys.some((k) => k?.last4 === key.slice(-4)), `no key of the account ends in the run's key's last four characters`);
      // A trial lives 7 days or 1,000 calls: its account says so, no control API needed.
      const trial = plans.trial;
      if (ctx.config.plan === 'trial') {
        assert(a.usage.calls_limit === trial.calls_limit, `a trial's calls_limit is ${a.usage.calls_limit}; the spec says ${trial.calls_limit}`);
        const mine = keys.find((k) => k?.last4 === key.slice(-4));
        const days = (Date.parse(mine?.expires_at) - Date.parse(mine?.created_at)) / DAY;
        assert(days === trial.key_lifetime_days, `the trial key was made ${mine?.created_at} and expires ${mine?.expires_at}: ${days} days, not ${trial.key_lifetime_days}`);
      }
      for (const k of keys) {
        for (const [field, value] of Object.entries(k ?? {})) assert(typeof value !== 'string' || !key || !value.includes(key), `the account lists the key whole, in ${field}`);
        assert(typeof k?.prefix !== 'string' || k.prefix === '' || /^igk_[a-z]+_$/.test(k.prefix), `a key's prefix is the kit's igk_<plan>_ and never more of the key, got one of ${String(k?.prefix).length} characters`);
      }
    },
  },
  {
    id: 'exports',
    title: "the dump manifest's files are served as it says: their size, sha256 and row count, gzip JSONL, a strong ETag; malformed dates and files refused",
    spec: ['1. What the service does', '4. Endpoints'],
    assumed: ['exports-manifest-and-files', 'path-formats', 'conditional-requests'],
    skip: (ctx) => (planRule(ctx).exports ? null : `the ${ctx.config.plan} plan has no nightly dumps (plan-features checks the 402)`),
    cost: (ctx) => ({ calls: 4, rows: ctx.client.rowCost(1) }),
    arbitrary: () => fc.record({ pick: fc.nat(), badDate: fc.constantFrom('2026-13-01', '20261101', 'latest'), badFile: fc.constantFrom('firms.json', 'people.jsonl.gz', '..') }),
    examples: () => [{ pick: 0, badDate: '2026-13-01', badFile: 'people.jsonl.gz' }],
    async check(ctx, { pick, badDate, badFile }) {
      const manifest = await ctx.client.call('/api/v1/exports', { rows: 1 });
      expectStatus(manifest, 200, `/api/v1/exports on ${ctx.config.plan}`);
      const days: any[] = manifest.body.data;
      if (!days.length) return;
      // The smallest file of the newest day keeps the case cheap; pick chooses among the small ones.
      const files = smallestFiles(days[0]).slice(0, 3);
      const file = files[pick % files.length];
      const path = new URL(file.url, 'http://service.invalid').pathname;
      const download = await ctx.client.call(path, { rows: 0, raw: true });
      expectStatus(download, 200, `the dump file ${path}`);
      const bytes = download.bytes!;
      // The bytes as served are the file: fetch undoes a Content-Encoding, so none may stand over the gzip.
      assert(!download.headers.get('content-encoding'), `${path}: the file is gzip itself, yet it is served with Content-Encoding ${download.headers.get('content-encoding')}`);
      assert(bytes.length === file.bytes, `${path}: ${bytes.length} bytes served, the manifest says ${file.bytes}`);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      assert(sha256 === file.sha256, `${path}: sha256 ${sha256}, the manifest says ${file.sha256}`);
      assert(bytes[0] === 0x1f && bytes[1] === 0x8b, `${path}: not gzip (it starts ${Buffer.from(bytes.slice(0, 4)).toString('hex')})`);
      const lines = gunzipSync(bytes).toString('utf8').split('\n').filter(Boolean);
      assert(lines.length === file.rows, `${path}: ${lines.length} lines, the manifest says ${file.rows} rows`);
      for (const line of lines.slice(0, 50)) {
        let row: unknown;
        try {
          row = JSON.parse(line);
        } catch {
          row = null;
        }
        assert(row && typeof row === 'object' && !Array.isArray(row), `${path}: a line that is no JSON row: ${line.slice(0, 80)}`);
      }
      const etag = download.headers.get('etag') ?? '';
      assert(/^"[^"]+"$/.test(etag), `${path}: a dump file's bytes are fixed, so its ETag is strong, got ${JSON.stringify(etag)}`);
      const date = await ctx.client.call(path.replace(days[0].date, badDate), { rows: 0 });
      expectStatus(date, 400, `a dump date that is not YYYY-MM-DD (${badDate})`);
      const name = await ctx.client.call(path.replace(file.name, encodeURIComponent(badFile)), { rows: 0 });
      expectStatus(name, (s) => s === 400 || s === 404, `a dump file that is not one of the nine resources' (${badFile})`);
    },
  },
  {
    id: 'statistics',
    title: "a rollup agrees with the rows it sums (rounds-by-year's latest year against the rounds the key sees), and an unknown name is a 404 listing the names",
    spec: ['1. What the service does', '4. Endpoints'],
    assumed: ['statistics-shapes', 'round-lag'],
    skip: () => null,
    // The latest year's rounds, walked a few pages of at most 250 (the budget reserves a page's limit a call).
    cost: (ctx) => ({ calls: 5, rows: 3 * ctx.client.rowCost(statisticsPage(ctx)) }),
    arbitrary: () => fc.constant(null),
    once: true,
    async check(ctx) {
      const unknown = await ctx.client.call('/api/v1/statistics/no-such-rollup', { rows: 0 });
      expectStatus(unknown, 404, 'an unknown statistic (the name identifies a resource)');
      assert(unknown.body?.code === 'unknown_statistic', `an unknown statistic's code is ${JSON.stringify(unknown.body?.code)}, not unknown_statistic`);
      const names = parameterEnum('getStatistic', 'name');
      assert(Array.isArray(unknown.body?.allowed) && names.every((n) => unknown.body.allowed.includes(n)), `an unknown statistic's allowed ${JSON.stringify(unknown.body?.allowed)} does not list ${names.join(', ')}`);

      const rollup = await ctx.client.call('/api/v1/statistics/rounds-by-year', { rows: 1 });
      expectStatus(rollup, 200, '/api/v1/statistics/rounds-by-year');
      const latest = (rollup.body.data.rows as { year: number; rounds: number; amount_usd: number }[]).reduce<{ year: number; rounds: number; amount_usd: number } | null>((a, r) => (!a || r.year > a.year ? r : a), null);
      if (!latest) return;
      // Sampled within the budget: a year too large to walk on this share is left to a bigger one.
      const size = statisticsPage(ctx);
      const pages = Math.ceil((latest.rounds + 1) / size);
      if (pages > 3) throw new BudgetExhausted(`the latest year has ${latest.rounds} rounds, more than three pages of ${size}`);
      const { rows, ended, answers } = await walk(ctx, `/api/v1/rounds?announced_since=${latest.year}-01-01`, size, 4);
      // The same data on both sides: a rebuild between the calls would make them differ rightly.
      if (!ended || answers.some((a) => a.body.as_of !== rollup.body.as_of)) return;
      const theirs = rows.filter((r) => String(r.announced_on).startsWith(String(latest.year)));
      const amount = theirs.reduce((sum, r) => sum + (typeof r.amount_usd === 'number' ? r.amount_usd : 0), 0);
      assert(theirs.length === latest.rounds, `rounds-by-year says ${latest.rounds} rounds in ${latest.year}; /rounds?announced_since=${latest.year}-01-01 serves this key ${theirs.length}`);
      assert(amount === latest.amount_usd, `rounds-by-year says $${latest.amount_usd} in ${latest.year}; the rounds this key sees add up to $${amount}`);
    },
  },
  {
    id: 'key-states',
    title: "with the mock's control API: a paid plan's used-up quota is a 402 quota_exhausted offering a plan up, prepaid rows and a call, its account still read; a revoked key is a 401 revoked_key; a call a pay-as-you-go balance cannot cover is a 402 insufficient_balance that costs nothing",
    spec: ['3. States and transitions', '7. Errors', '8. Limits'],
    assumed: ['exhausted-quota', 'key-scopes-expiry-and-revocation', 'record-and-key-states', 'account', 'actions', 'pay-as-you-go-billing'],
    skip: (ctx) => (ctx.control ? null : "needs --use-control against the kit's mock (a month's calls, or a key to revoke, are the service's to give)"),
    cost: () => ({ calls: 6, rows: 1 }),
    arbitrary: () => fc.constant(null),
    once: true,
    async check(ctx) {
      const made = await control(ctx, '/keys', 'POST', { plan: 'team' });
      assert(made.status === 201, `the mock's control API made no key: ${made.status}`);
      const { key, key_id: keyId } = (await made.json()) as { key: string; key_id: string };
      const used = await control(ctx, `/keys/${keyId}/usage`, 'PUT', { calls_used: plans.team.calls_limit });
      assert(used.status === 200, `the mock's control API refused the usage: ${used.status}`);
      const answer = await ctx.client.call('/api/v1/firms?limit=1', { key, rows: 1 });
      expectStatus(answer, 402, 'a Team key past its monthly calls');
      assert(answer.body?.code === 'quota_exhausted', `a used-up monthly quota's code is ${JSON.stringify(answer.body?.code)}, not quota_exhausted`);
      for (const type of ['subscribe', 'buy_prepaid_rows', 'book_call']) expectActions(answer, 'a used-up monthly quota', type);
      const account = await ctx.client.call('/api/v1/account', { key });
      expectStatus(account, 200, "a used-up quota's /api/v1/account (it can still read its account)");
      const revoked = await control(ctx, `/keys/${keyId}/revoke`, 'POST', {});
      assert(revoked.status === 200, `the mock's control API did not revoke the key: ${revoked.status}`);
      const refused = await ctx.client.call('/api/v1/account', { key });
      expectStatus(refused, 401, 'a revoked key, even on /api/v1/account');
      assert(refused.body?.code === 'revoked_key', `a revoked key's code is ${JSON.stringify(refused.body?.code)}, not revoked_key`);

      // Pay as you go: a call that would cost more than the balance is refused and costs nothing.
      const minimum = plans.payg.min_rows_per_call!;
      const topped = await control(ctx, '/keys', 'POST', { plan: 'payg', prepaid_rows: minimum + 5 });
      assert(topped.status === 201, `the mock's control API made no pay-as-you-go key: ${topped.status}`);
      const payg = ((await topped.json()) as { key: string }).key;
      const dear = await ctx.client.call(`/api/v1/firms?limit=${minimum + 10}`, { key: payg, rows: minimum + 10 });
      expectStatus(dear, 402, `a page of ${minimum + 10} rows on a balance of ${minimum + 5}`);
      assert(dear.body?.code === 'insufficient_balance', `a call the balance cannot cover: code ${JSON.stringify(dear.body?.code)}, not insufficient_balance`);
      expectActions(dear, 'a call the balance cannot cover', 'buy_prepaid_rows');
      const balance = await ctx.client.call('/api/v1/account', { key: payg });
      expectStatus(balance, 200, "a pay-as-you-go key's /api/v1/account");
      assert(balance.body.data.balance?.prepaid_rows === minimum + 5, `the refused call cost rows: the balance is ${balance.body.data.balance?.prepaid_rows}, not ${minimum + 5}`);
    },
  },
  {
    id: 'trial-call',
    title: 'the trial call refuses what is not one JSON e-mail: another content type 415, over 4 KiB 413, anything but one valid email 400; an address with a live trial 409',
    spec: ['5. Authentication', '4. Endpoints'],
    assumed: ['trial-key-response', 'status-codes'],
    skip: () => null,
    cost: (ctx) => ({ calls: ctx.config.allowRate ? Math.ceil(plans.trial.rate_per_second * 3) : 2, rows: 0 }),
    arbitrary: () => fc.constantFrom('text', 'large', 'empty', 'not-an-address', 'extra-member', 'taken'),
    // Each way the call goes wrong; none of them makes a key (the taken address needs one made
    // already: the run's own from --email, or one made through the mock's control API). With the
    // rate burst allowed, also three seconds' worth of the trial's rate at once.
    examples: (ctx) => ['text', 'large', 'empty', 'not-an-address', 'extra-member', 'taken', ...(ctx.config.allowRate ? ['burst'] : [])],
    async check(ctx, kind: string) {
      if (kind === 'burst') {
        // Anyone may call it, so each client address has the trial's rate: a burst meets a 429.
        const burst = Math.ceil(plans.trial.rate_per_second * 3);
        const answers = await Promise.all(Array.from({ length: burst }, () => ctx.client.call('/api/v1/keys/trial', { method: 'POST', key: null, headers: { 'content-type': 'application/json' }, body: '{}', honour429: false, unpaced: true })));
        const limited = answers.find((a) => a.status === 429);
        assert(limited, `${burst} trial calls at once from one address (the trial's rate is ${plans.trial.rate_per_second} a second) met no 429`);
        expectActions(limited, 'a 429 of the trial call');
        assert(/^\d+$/.test(limited.headers.get('retry-after') ?? ''), `a 429 of the trial call with Retry-After ${JSON.stringify(limited.headers.get('retry-after'))}`);
        // Let the address's bucket fill again before the next case.
        await new Promise((r) => setTimeout(r, Number(limited.headers.get('retry-after')) * 1000 + 50));
        return;
      }
      const post = (body: string, type = 'application/json') => ctx.client.call('/api/v1/keys/trial', { method: 'POST', key: null, headers: { 'content-type': type }, body });
      const want: Record<string, [number, string]> = {
        text: [415, 'unsupported_media_type'],
        large: [413, 'payload_too_large'],
        empty: [400, 'invalid_body'],
        'not-an-address': [400, 'invalid_body'],
        'extra-member': [400, 'invalid_body'],
        taken: [409, 'trial_exists'],
      };
      let answer: Answer;
      if (kind === 'taken') {
        // One live trial per address, compared case-insensitively.
        let address = ctx.config.email;
        if (!address) {
          if (!ctx.control) return;
          address = `contract-tests+taken-${ctx.config.plan}-${ctx.config.seed}@example.com`;
          const first = await post(JSON.stringify({ email: address }));
          if (first.status !== 201 && first.status !== 409) expectStatus(first, 201, `a trial key for ${address}`);
        }
        answer = await post(JSON.stringify({ email: address.toUpperCase() }));
      } else if (kind === 'text') answer = await post('email=someone@example.com', 'text/plain');
      else if (kind === 'large') answer = await post(JSON.stringify({ email: 'someone@example.com', note: 'x'.repeat(5_000) }));
      else if (kind === 'empty') answer = await post('{}');
      else if (kind === 'not-an-address') answer = await post(JSON.stringify({ email: 'not an address' }));
      else answer = await post(JSON.stringify({ email: 'someone@example.com', plan: 'enterprise' }));
      const [status, code] = want[kind]!;
      expectStatus(answer, status, `the trial call with ${kind === 'taken' ? 'an address that has a live trial, in capitals' : `a ${kind} body`}`);
      assert(answer.body?.code === code, `the trial call with a ${kind} body: code ${JSON.stringify(answer.body?.code)}, not ${code}`);
    },
  },
  {
    id: 'billing',
    title: 'what a call costs, as the free account shows it: an error nothing, a HEAD what its GET would, the feed a row an item (pay as you go), a dump download one call',
    spec: ['8. Limits'],
    assumed: ['pay-as-you-go-billing', 'plan-and-usage-in-the-envelope', 'http-conventions', 'changes-feed', 'exports-manifest-and-files'],
    skip: () => null,
    cost: (ctx) => ({ calls: 10, rows: ctx.client.rowCost(2) + ctx.client.rowCost(25) + ctx.client.rowCost(1) }),
    arbitrary: () => fc.constant(null),
    once: true,
    async check(ctx) {
      const payg = ctx.config.plan === 'payg';
      const usage = async () => {
        const account = await ctx.client.call('/api/v1/account', { rows: 0 });
        expectStatus(account, 200, '/api/v1/account');
        return account.body.data.usage as { calls_used: number; balance_rows: number | null };
      };
      const moved = (before: { calls_used: number; balance_rows: number | null }, after: typeof before, calls: number, rows: number, what: string) => {
        assert(after.calls_used === before.calls_used + calls, `${what}: calls_used went from ${before.calls_used} to ${after.calls_used}, not up by ${calls}`);
        if (payg) assert(after.balance_rows === before.balance_rows! - rows, `${what}: the balance went from ${before.balance_rows} to ${after.balance_rows}, not down by ${rows}`);
      };
      const start = await usage();
      const missing = await ctx.client.call(`/api/v1/firms/no-such-firm-${ctx.config.seed}`, { rows: 0 });
      expectStatus(missing, 404, 'a firm that does not exist');
      const afterError = await usage();
      moved(start, afterError, 0, 0, 'an error (a 404) costs nothing and is no accepted call');
      const head = await ctx.client.call('/api/v1/firms?limit=2', { method: 'HEAD', rows: 2 });
      expectStatus(head, 200, 'HEAD /api/v1/firms?limit=2');
      const afterHead = await usage();
      moved(afterError, afterHead, 1, ctx.client.rowCost(2), 'a HEAD is counted and charged as its GET');
      let last = afterHead;
      if (planRule(ctx).changes_feed) {
        const feed = await ctx.client.call(`/api/v1/changes?since=${isoSecond(Date.parse(ctx.asOf) - 365 * DAY)}&limit=25`, { rows: 25 });
        expectStatus(feed, 200, 'a page of the changes feed');
        const items = feed.body.data.length;
        if (payg) assert(feed.body.usage.rows_charged === ctx.client.rowCost(items), `a feed page of ${items} items charged ${feed.body.usage.rows_charged} rows: every item counts as a row`);
        const afterFeed = await usage();
        moved(afterHead, afterFeed, 1, ctx.client.rowCost(items), `a feed page of ${items} items`);
        last = afterFeed;
      }
      if (planRule(ctx).exports) {
        const manifest = await ctx.client.call('/api/v1/exports?limit=1', { rows: 1 });
        expectStatus(manifest, 200, '/api/v1/exports');
        const file = smallestFiles(manifest.body.data[0])[0];
        if (!file) return;
        const download = await ctx.client.call(new URL(file.url, 'http://service.invalid').pathname, { rows: 0, raw: true });
        expectStatus(download, 200, `the dump file ${file.name}`);
        moved(last, await usage(), 2, 0, 'the manifest and a download, a call each');
      }
    },
  },
  {
    id: 'openapi',
    title: 'the served /api/v1/openapi.json describes every operation of the contract, with its parameters',
    spec: ['9. Versioning'],
    assumed: [],
    skip: () => null,
    cost: () => ({ calls: 1, rows: 0 }),
    arbitrary: () => fc.constant(null),
    once: true,
    async check(ctx) {
      const answer = await ctx.client.call('/api/v1/openapi.json', { key: null, rows: 0 });
      expectStatus(answer, 200, 'GET /api/v1/openapi.json');
      type Parameter = { name?: string; in?: string; $ref?: string };
      type PathItem = Record<string, { parameters?: Parameter[] }> & { parameters?: Parameter[] };
      const served = answer.body as { paths?: Record<string, PathItem>; servers?: { url?: string }[]; components?: { parameters?: Record<string, Parameter> } } | null;
      assert(served && typeof served.paths === 'object', 'the served description has no paths');
      // Its parameters may be $refs into its own components, or written out; its paths may leave
      // the /api/v1 prefix to its server URL.
      const resolved = (p: Parameter): Parameter => (p.$ref?.startsWith('#/components/parameters/') ? (served!.components?.parameters?.[p.$ref.split('/').at(-1)!] ?? p) : p);
      const prefix = (() => {
        try {
          return new URL(served.servers?.[0]?.url ?? '', 'http://server.invalid').pathname.replace(/\/+$/, '');
        } catch {
          return '';
        }
      })();
      // It lists this server, at the address the run reaches it by (DECISIONS.md#http-conventions).
      const origin = new URL(ctx.config.baseUrl).origin;
      const listed = (served.servers ?? []).map((s) => s.url ?? '');
      assert(listed.some((url) => { try { return new URL(url).origin === origin; } catch { return false; } }), `the served description's servers ${JSON.stringify(listed)} do not list ${origin}, the server that served it`);
      for (const op of operations) {
        const item = served.paths![op.path] ?? (prefix && op.path.startsWith(prefix) ? served.paths![op.path.slice(prefix.length)] : undefined);
        const entry = item?.[op.method.toLowerCase()];
        assert(item && entry, `the served description lacks ${op.method} ${op.path}`);
        // A paged operation links its 200 to its next page, so a client can walk it from the description.
        if (op.query.includes('cursor')) {
          const ok = (entry as { responses?: Record<string, unknown> }).responses?.['200'] as { $ref?: string; links?: Record<string, { parameters?: Record<string, unknown> }> } | undefined;
          const response = ok?.$ref?.startsWith('#/components/responses/') ? ((served as { components?: { responses?: Record<string, typeof ok> } }).components?.responses?.[ok.$ref.split('/').at(-1)!] ?? ok) : ok;
          assert(response?.links?.NextPage?.parameters?.cursor === '$response.body#/next_cursor', `the served description of ${op.method} ${op.path} has no NextPage link taking cursor from $response.body#/next_cursor`);
        }
        // Parameters of the path item hold for each of its operations (OpenAPI 3).
        const named = new Set([...(item.parameters ?? []), ...(entry.parameters ?? [])].map(resolved).map((p) => `${p.in}:${p.name}`));
        for (const parameter of op.parameters as Parameter[]) {
          assert(named.has(`${parameter.in}:${parameter.name}`), `the served description of ${op.method} ${op.path} lacks its ${parameter.in} parameter ${parameter.name}`);
        }
      }
    },
  },
  {
    id: 'changes',
    title: 'the changes feed is in order, starts at since, and what it lists is visible in the resource',
    spec: ['6. Events', '1. What the service does'],
    assumed: ['changes-feed'],
    skip: (ctx) => (planRule(ctx).changes_feed ? null : `the ${ctx.config.plan} plan has no changes feed`),
    cost: (ctx) => ({ calls: 4, rows: 2 * ctx.client.rowCost(25) + 2 * ctx.client.rowCost(1) }),
    arbitrary: () => fc.record({ daysBack: fc.integer({ min: 0, max: 30 }), limit: fc.integer({ min: 1, max: 25 }), rows: fc.boolean() }),
    // The last day's changes with their rows, and a month's without.
    examples: () => [{ daysBack: 1, limit: 25, rows: true }, { daysBack: 30, limit: 25, rows: false }],
    async check(ctx, { daysBack, limit, rows: withRows }) {
      const since = isoSecond(Date.parse(ctx.asOf) - daysBack * DAY);
      const { rows: items } = await walk(ctx, `/api/v1/changes?since=${since}${withRows ? '&include=rows' : ''}`, limit, 2);
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        assert(Date.parse(item.changed_at) >= Date.parse(since), `change ${item.sequence} at ${item.changed_at} is before since=${since}`);
        if (i > 0) {
          assert(item.sequence > items[i - 1].sequence, `change ${item.sequence} comes after ${items[i - 1].sequence}`);
          assert(Date.parse(item.changed_at) >= Date.parse(items[i - 1].changed_at), `change ${item.sequence} is dated before the one above it`);
        }
        if (withRows) assert(item.kind === 'unpublish' ? item.row === null : item.row && typeof item.row === 'object', `change ${item.sequence} (${item.kind}) with row ${JSON.stringify(item.row)?.slice(0, 80)}`);
      }
      // The latest change of a record with an endpoint of its own must show there.
      const latest = new Map<string, any>();
      for (const item of items) if (['firm', 'company', 'fund', 'list'].includes(item.resource)) latest.set(`${item.resource}/${item.key}`, item);
      for (const item of [...latest.values()].slice(-2)) {
        const base = { firm: 'firms', company: 'companies', fund: 'funds', list: 'lists' }[item.resource as string]!;
        const answer = await ctx.client.call(`/api/v1/${base}/${encodeURIComponent(item.key)}`, { rows: 1 });
        if (item.kind === 'unpublish') expectStatus(answer, 404, `${item.resource} ${item.key}, unpublished at ${item.changed_at}`);
        else {
          expectStatus(answer, 200, `${item.resource} ${item.key}, ${item.kind}d at ${item.changed_at}`);
          const now = answer.body.data;
          assert(Date.parse(now.updated_at) >= Date.parse(item.changed_at), `${item.resource} ${item.key} shows updated_at ${now.updated_at}, before its ${item.kind} at ${item.changed_at}`);
          // An update changes a record that was seen before: first_seen_at stays where it was.
          if (item.kind === 'update' && typeof now.first_seen_at === 'string') assert(Date.parse(now.first_seen_at) < Date.parse(item.changed_at), `${item.resource} ${item.key} shows first_seen_at ${now.first_seen_at}, not before its update at ${item.changed_at}: an update moved it`);
          // The row that came with the change is the record, as the record's own endpoint serves it while unchanged since.
          // (A record's own endpoint may add to the row, as a list adds its members: the row's fields are compared.)
          if (withRows && item.row && item.row.updated_at === now.updated_at) {
            const differs = Object.keys(item.row).find((field) => JSON.stringify(item.row[field]) !== JSON.stringify(now[field]));
            assert(differs === undefined, `${item.resource} ${item.key}: the row with change ${item.sequence} is not the record as it is (same updated_at ${now.updated_at}): ${differs} is ${JSON.stringify(item.row[differs!])?.slice(0, 80)} in the feed and ${JSON.stringify(now[differs!])?.slice(0, 80)} at its endpoint`);
          }
        }
      }
    },
  },
  {
    id: 'bad-input',
    title: 'a request the contract rejects gets a 4xx problem, never a 5xx; one it accepts never a 5xx',
    spec: [],
    assumed: ['status-codes', 'limit', 'filters-and-sort-order', 'path-formats'],
    skip: () => null,
    cost: (ctx) => ({ calls: 1, rows: ctx.client.rowCost(Math.min(cap(ctx), 100)) }),
    arbitrary: () => {
      const junk = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', '-1', '0', '1.5', '1e3', 'Infinity', '9'.repeat(30), '%00', '../', '2026-13-45', '2026-02-30T25:00:00Z'));
      return fc.record({
        op: fc.constantFrom(...dataOperations),
        pick: fc.nat(),
        param: fc.oneof(fc.constantFrom('limit', 'announced_since', 'since', 'include', 'cursor'), fc.stringMatching(/^[a-z_]{1,12}$/)),
        value: junk,
        twice: fc.boolean(),
        badSegment: fc.option(fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom('%', '%ZZ', '%C3%28', '..', 'a'.repeat(300))), { nil: null }),
      });
    },
    // The limit's edges and bad forms, a parameter given twice, one misspelt, and path segments
    // that are dots or broken escapes.
    examples: () => [
      ...['0', '-1', '1.5', '1e3', '', '9'.repeat(400)].map((value) => ({ op: operationById('listFirms'), pick: 0, param: 'limit', value, twice: false, badSegment: null })),
      { op: operationById('listFirms'), pick: 0, param: 'limit', value: '2', twice: true, badSegment: null },
      { op: operationById('listRounds'), pick: 0, param: 'limt', value: '5', twice: false, badSegment: null },
      { op: operationById('listChanges'), pick: 0, param: 'include', value: 'row', twice: false, badSegment: null },
      { op: operationById('getFirm'), pick: 0, param: 'limit', value: '1', twice: false, badSegment: '..' },
      { op: operationById('getFirm'), pick: 0, param: 'limit', value: '1', twice: false, badSegment: '%ZZ' },
      // A URL over 8,192 characters (RFC 9110's recommended least) is a 414 on every operation.
      { op: operationById('listFirms'), pick: 0, param: 'note', value: 'x'.repeat(8_300), twice: false, badSegment: null },
    ],
    async check(ctx, { op, pick, param, value, twice, badSegment }) {
      let path = fillPath(op.path, ctx.samples, pick);
      if (!path) return;
      if (badSegment !== null && op.path.includes('{')) {
        const segments = path.split('/');
        const at = op.path.split('/').findIndex((s: string) => s.startsWith('{'));
        segments[at] = /%/.test(badSegment) ? badSegment : encodeURIComponent(badSegment);
        path = segments.join('/');
      }
      const query = new URLSearchParams();
      if (op.query.includes('since') && param !== 'since') query.set('since', isoSecond(Date.parse(ctx.asOf) - DAY));
      query.append(param, value);
      if (twice) query.append(param, value);
      const url = `${path}?${query}`;
      const answer = await ctx.client.call(url, { rows: op.query.includes('limit') ? Math.min(cap(ctx), 100) : 1 });
      // Judged by the path as sent: URL parsing drops `.` and `..` segments (`/firms/..` is a
      // request for `/api/v1`), so the operation is the one the sent path routes to, if any.
      const sent = new URL(url, 'http://judge.invalid').pathname;
      const target = operationFor('GET', sent);
      const rejected = target === null || ctx.validator.validateRequest(target.operationId, { method: 'GET', path: sent, query: queryOf(query), headers: { authorization: 'Bearer x' } }).some((v) => v.severity === 'error');
      assert(answer.status < 500, `${url.slice(0, 200)}: ${answer.status}`);
      const served = planServes(ctx, op);
      if (url.length > 8_192) {
        expectStatus(answer, 414, `a URL of ${url.length} characters`);
        assert(answer.body?.code === 'uri_too_long', `a URL of ${url.length} characters: code ${JSON.stringify(answer.body?.code)}, not uri_too_long`);
        return;
      }
      // What DECISIONS.md refuses though the contract's schemas let it through: a parameter the
      // operation does not define, and any parameter given empty or twice.
      const plain = badSegment === null && target?.operationId === op.operationId && served;
      if (plain && !op.query.includes(param)) expectStatus(answer, 400, `${url.slice(0, 200)}: ${param} is no parameter of ${op.path} (a typo is refused, not ignored)`);
      if (plain && (twice || value === '')) expectStatus(answer, 400, `${url.slice(0, 200)}: ${param} given ${twice ? 'twice' : 'empty'}`);
      // A whole limit of 1 or more is capped at the plan's page size, however large: never refused.
      if (!rejected && param === 'limit' && /^[1-9]\d*$/.test(value) && !twice && badSegment === null && op.query.includes('limit') && target?.operationId === op.operationId && served) {
        expectStatus(answer, 200, `${url}: limit=${value.length > 12 ? `${value.slice(0, 12)}... (${value.length} digits)` : value} is capped at the plan's ${cap(ctx)} rows, not refused`);
        assert(answer.body.data.length <= cap(ctx), `${url}: ${answer.body.data.length} rows on a plan of ${cap(ctx)} a page`);
      }
      // A 400 says which parameter is wrong (DECISIONS.md#problem-body).
      if (answer.status === 400) {
        const errors = answer.body?.errors;
        assert(Array.isArray(errors) && errors.length > 0 && errors.every((e: any) => (typeof e?.parameter === 'string' || typeof e?.pointer === 'string') && typeof e?.detail === 'string'), `${url.slice(0, 200)}: a 400 without errors naming the parameter and what is wrong: ${JSON.stringify(errors)?.slice(0, 200)}`);
      }
      if (rejected) {
        assert(answer.status >= 400, `${url} breaks the contract's parameter rules but was answered ${answer.status}`);
        assert((answer.headers.get('content-type') ?? '').includes('application/problem+json'), `${url}: a ${answer.status} that is not problem+json`);
      }
    },
  },
];
