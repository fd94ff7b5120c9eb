/**
 * The operation table: for each operation of the data API, the plan feature it needs, whether it
 * is a counted call, what it prepares before the key store's transaction (asynchronous work), and
 * what it serves (synchronously, inside it). Adding an operation is one entry here.
 * The trial call and the contract document need no key: engine.ts answers them before this table.
 */
import { firstPlanWith, planIds, plans, type PlanRule } from '@investor-graph/contract/plans';
import type { ResourceName, Row } from '@investor-graph/fixtures';
import type { Call } from './context.ts';
import type { Dump, Dumps } from './exports.ts';
import { ProblemError } from './problems.ts';
import { pageLimit } from './request.ts';
import { lagCutoff, roundVisible, viewRow } from './round-lag.ts';
import type { Statistics, StatisticName } from './statistics.ts';
import { nested, type Store } from './store.ts';

/** What an operation serves: the data of the envelope, or a file's bytes. */
export interface Served {
  body: unknown;
  /** Rows served: what a pay-as-you-go call is charged by. */
  rows: number;
  /** The key of the last row, when a next page may follow. */
  next?: string | null;
  /** A file's bytes (a dump): a Blob, which may live on disk and is streamed. */
  raw?: Blob;
  contentType?: string;
  etag?: string;
  /** The body is the store's rows (or one row), which a rebuild replaces and never edits: their JSON may be remembered. */
  stored?: boolean;
}

export interface OperationEnv {
  store: Store;
  statistics: Statistics;
  dumps: Dumps;
  now: () => number;
  /** The base URL clients reach the mock at, for the absolute URLs it writes. */
  publicBase: () => string;
}

export interface ServeInput {
  call: Call;
  /** The key of the last row of the previous page, from the cursor (null on the first page). */
  afterKey: string | null;
  /** What `prepare` made ready, empty otherwise. */
  prepared: Prepared;
}

/** What an operation's `prepare` makes ready before the transaction: work that takes a while and must not block. */
export interface Prepared {
  /** The dumps a manifest or a file needs, by date (only dates that exist). */
  dumps?: Map<string, Dump>;
  /** A rollup's rows. */
  statistic?: Row[];
}

export interface Operation {
  /** The plan feature the call needs: without it, 402 before anything is served. */
  feature?: 'changes_feed' | 'exports';
  /** Counted against the quota (and charged, on pay as you go). */
  counted: boolean;
  prepare?: (call: Call, env: OperationEnv) => Promise<Prepared>;
  /** What the call serves; 404s are thrown here, before anything is counted. */
  serve: (input: ServeInput, env: OperationEnv) => Served;
}

/** The names of the plans with a feature, as a sentence writes them: "Business and Enterprise". */
const plansWith = (feature: 'changes_feed' | 'exports'): string => {
  const names = planIds.filter((id) => plans[id][feature]).map((id) => plans[id].name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
};

/** The 402 of a plan without an operation's feature, with the first plan up the ladder that has it. */
const missingFeature: Record<NonNullable<Operation['feature']>, (plan: PlanRule) => ProblemError> = {
  changes_feed: (plan) => new ProblemError('plan_feature_unavailable', `The changes feed is not included in the ${plan.name} plan.`, { plan: plan.id, suggested: firstPlanWith('changes_feed') }),
  exports: (plan) => new ProblemError('plan_feature_unavailable', `Nightly dumps are included in the ${plansWith('exports')} plans, not ${plan.name}.`, { plan: plan.id, suggested: firstPlanWith('exports') }),
};

export function checkFeature(operation: Operation, plan: PlanRule): void {
  if (operation.feature && !plan[operation.feature]) throw missingFeature[operation.feature](plan);
}

const notFound = (what: string, key: string): never => {
  throw new ProblemError('not_found', `No ${what} has the ${what === 'fund' ? 'id' : 'slug'} ${key}.`);
};

/** A page of a top-level resource, rows as the caller's plan sees them. */
const list = (resource: ResourceName, keep?: (call: Call, store: Store) => (row: Row) => boolean): Operation => ({
  counted: true,
  serve: ({ call, afterKey }, { store }) => {
    const cutoff = lagCutoff(store, call.plan);
    const page = store.page(resource, afterKey, pageLimit(call.plan, call.query), keep?.(call, store));
    return { body: page.rows.map((r) => viewRow(store, resource, r, cutoff)), rows: page.rows.length, next: page.nextKey, stored: true };
  },
});

/** One row by its slug (or a fund's id). */
const single = (resource: ResourceName): Operation => ({
  counted: true,
  serve: ({ call }, { store }) => {
    const key = call.route.params.get(resource === 'fund' ? 'id' : 'slug')!;
    const row = store.get(resource, key) ?? notFound(resource, key);
    return { body: viewRow(store, resource, row, lagCutoff(store, call.plan)), rows: 1, stored: true };
  },
});

/** A page of rows under a parent (a firm's portfolio, a company's rounds). */
const nestedList = (index: keyof typeof nested, lagged = false): Operation => ({
  counted: true,
  serve: ({ call, afterKey }, { store }) => {
    const parentKey = call.route.params.get('slug')!;
    if (!store.get(nested[index].parent, parentKey)) notFound(nested[index].parent, parentKey);
    const keep = lagged ? roundVisible(lagCutoff(store, call.plan)) : undefined;
    const page = store.nestedPage(index, parentKey, afterKey, pageLimit(call.plan, call.query), keep);
    return { body: page.rows, rows: page.rows.length, next: page.nextKey, stored: true };
  },
});

/** The dumps a manifest or a file download needs, by date (only dates that exist). */
const prepareDumps = async (call: Call, { dumps, now }: OperationEnv): Promise<Prepared> => {
  const at = now();
  const date = call.route.params.get('date');
  const wanted = call.route.operationId === 'getExportManifest' ? dumps.dates(at) : date !== undefined && dumps.has(date, at) ? [date] : [];
  return { dumps: new Map(await Promise.all(wanted.map(async (day) => [day, await dumps.day(day)] as const))) };
};

export const operations: Record<string, Operation> = {
  listFirms: list('firm'),
  listCompanies: list('company'),
  listRounds: list('round', (call, store) => {
    const visible = roundVisible(lagCutoff(store, call.plan));
    const since = call.query.get('announced_since');
    return since ? (r) => visible(r) && (r.announced_on as string) >= since : visible;
  }),
  listInvestments: list('investment'),
  listFunds: list('fund'),
  listFilings: list('filing'),
  listOfferings: list('offering'),
  listAdvFunds: list('adv-fund'),
  listLists: {
    counted: true,
    serve: (input, env) => {
      const page = list('list').serve(input, env);
      return { ...page, body: (page.body as Row[]).map(({ members: _members, ...summary }) => summary) };
    },
  },
  getFirm: single('firm'),
  getCompany: single('company'),
  getFund: single('fund'),
  getList: single('list'),
  listFirmPortfolio: nestedList('listFirmPortfolio'),
  listFirmFilings: nestedList('listFirmFilings'),
  listFirmFunds: nestedList('listFirmFunds'),
  listCompanyRounds: nestedList('listCompanyRounds', true),
  listCompanyInvestors: nestedList('listCompanyInvestors'),
  listCompanyOfferings: nestedList('listCompanyOfferings'),
  listChanges: {
    feature: 'changes_feed',
    counted: true,
    serve: ({ call, afterKey }, { store }) => {
      const page = store.changePage(call.query.get('since')!, afterKey === null ? 0 : Number(afterKey), pageLimit(call.plan, call.query));
      const withRows = call.query.get('include') === 'rows';
      const items = page.items.map((c) => (withRows ? { ...c, row: c.kind === 'unpublish' ? null : (store.get(c.resource, c.key) ?? null) } : { ...c }));
      const last = page.items[page.items.length - 1];
      return { body: items, rows: items.length, next: page.more && last ? String(last.sequence) : null };
    },
  },
  getStatistic: {
    counted: true,
    // A rollup reads every round (ten million rows take seconds): done before, a slice at a time.
    prepare: async (call, { store, statistics }) => {
      const cutoff = lagCutoff(store, call.plan);
      return { statistic: await statistics.rows(call.route.params.get('name') as StatisticName, cutoff, roundVisible(cutoff)) };
    },
    serve: ({ call, prepared }) => ({ body: { name: call.route.params.get('name'), rows: prepared.statistic! }, rows: 1 }),
  },
  getExportManifest: {
    feature: 'exports',
    counted: true,
    prepare: prepareDumps,
    serve: ({ call, afterKey, prepared }, { publicBase }) => {
      const base = `${publicBase()}/api/v1/exports`;
      // Newest first, keyed by date: the cursor carries the last date served.
      const days = [...prepared.dumps!.values()].filter((dump) => afterKey === null || dump.date < afterKey);
      const limit = pageLimit(call.plan, call.query);
      const body = days.slice(0, limit).map((dump) => ({
        date: dump.date, generated_at: dump.generated_at,
        files: dump.files.map(({ body: _body, ...f }) => ({ ...f, url: `${base}/${dump.date}/${f.name}` })),
      }));
      return { body, rows: body.length, next: days.length > limit ? body[body.length - 1]!.date : null };
    },
  },
  getExportFile: {
    feature: 'exports',
    counted: true,
    prepare: prepareDumps,
    serve: ({ call, prepared }) => {
      const date = call.route.params.get('date')!;
      const file = prepared.dumps!.get(date)?.files.find((f) => f.name === call.route.params.get('file'));
      if (!file) throw new ProblemError('not_found', `There is no dump file ${call.route.params.get('file')} for ${date}; the manifest lists the dates there are.`);
      return { body: null, rows: file.rows, raw: file.body, contentType: 'application/gzip', etag: file.sha256 };
    },
  },
  // The account call is free: neither counted nor held to the quota. Its data is made in the envelope.
  getAccount: { counted: false, serve: () => ({ body: null, rows: 0 }) },
};
