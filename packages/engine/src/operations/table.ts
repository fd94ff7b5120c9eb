/**
 * The operation table: every operation of the contract is one entry. An entry answered without a
 * key (the trial key, the contract document) is `open`; the others say the plan feature they need,
 * whether they are counted, what they check beyond the contract's schemas, what they prepare before
 * the call is admitted (asynchronous work) and what they serve. Adding an operation is one entry.
 */
import { firstPlanWith, planIds, plans, type PlanRule } from '@investor-graph/contract/plans';
import { openapiDocument } from '@investor-graph/contract/document';
import type { Row } from '@investor-graph/dataset-tools';
import { planView } from '../accounts/accounts.ts';
import { jsonText } from '../answer.ts';
import type { Call } from '../context.ts';
import type { KeyedOperation, Operation, OperationEnv, Prepared } from './types.ts';
import { ProblemError } from '../problems.ts';
import { pageLimit } from '../http/query.ts';
import { lagCutoff, roundVisible } from '../data/round-lag.ts';
import { statisticNames, type StatisticName } from '../data/statistics.ts';
import { list, nestedList, single } from './reads.ts';
import { createTrialKey } from './trial-key.ts';

export type { KeyedOperation, OpenInput, Operation, OperationEnv, Prepared, ServeInput, Served } from './types.ts';

/** The names of the plans with a feature, as a sentence writes them: "Business and Enterprise". */
const plansWith = (feature: 'changes_feed' | 'exports'): string => {
  const names = planIds.filter((id) => plans[id][feature]).map((id) => plans[id].name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
};

/** The 402 of a plan without an operation's feature, with the first plan up the ladder that has it. */
const missingFeature: Record<NonNullable<KeyedOperation['feature']>, (plan: PlanRule) => ProblemError> = {
  changes_feed: (plan) =>
    new ProblemError('plan_feature_unavailable', `The changes feed is not included in the ${plan.name} plan.`, {
      plan: plan.id,
      suggested: firstPlanWith('changes_feed'),
    }),
  exports: (plan) =>
    new ProblemError(
      'plan_feature_unavailable',
      `Nightly dumps are included in the ${plansWith('exports')} plans, not ${plan.name}.`,
      { plan: plan.id, suggested: firstPlanWith('exports') },
    ),
};

export function checkFeature(operation: KeyedOperation, plan: PlanRule): void {
  if (operation.feature && !plan[operation.feature]) throw missingFeature[operation.feature](plan);
}

/** The dumps a manifest or a file download needs, by date (only dates that exist). */
const prepareDumps = async (call: Call, { dumps, now }: OperationEnv): Promise<Prepared> => {
  const at = now();
  const date = call.route.params.get('date');
  const wanted =
    call.route.operationId === 'getExportManifest'
      ? dumps.dates(at)
      : date !== undefined && dumps.has(date, at)
        ? [date]
        : [];
  return { dumps: new Map(await Promise.all(wanted.map(async (day) => [day, await dumps.day(day)] as const))) };
};

export const operations = {
  listFirms: list('firm'),
  listCompanies: list('company'),
  // The round lag and announced_since are one date range: a seek on the dates' index.
  listRounds: list('round', (call, store) => {
    const to = lagCutoff(store, call.plan);
    const from = call.query.get('announced_since') || null;
    const visible = roundVisible(to);
    if (from === null && to === null) return undefined;
    return {
      keep: from === null ? visible : (r) => visible(r) && (r.announced_on as string) >= from,
      range: { column: 'announced_on', from, to },
    };
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
  listCompanyRounds: nestedList('listCompanyRounds'),
  listCompanyInvestors: nestedList('listCompanyInvestors'),
  listCompanyOfferings: nestedList('listCompanyOfferings'),
  listChanges: {
    feature: 'changes_feed',
    counted: true,
    serve: ({ call, afterKey }, { store }) => {
      const page = store.changePage(
        call.query.get('since')!,
        afterKey === null ? 0 : Number(afterKey),
        pageLimit(call.plan, call.query),
      );
      const withRows = call.query.get('include') === 'rows';
      const items = page.items.map((c) =>
        withRows ? { ...c, row: c.kind === 'unpublish' ? null : (store.get(c.resource, c.key) ?? null) } : { ...c },
      );
      const last = page.items[page.items.length - 1];
      return { body: items, rows: items.length, next: page.more && last ? String(last.sequence) : null };
    },
  },
  getStatistic: {
    counted: true,
    // A name identifies a resource: unknown is 404 with the allowed ones (DECISIONS.md#statistics-shapes).
    check: (call) => {
      const name = call.route.params.get('name')!;
      if (!statisticNames.includes(name))
        throw new ProblemError('unknown_statistic', `There is no statistic named "${name}".`, {
          extra: { allowed: [...statisticNames] },
        });
    },
    // Counted from stored counts, or (the memory store) from every row a slice at a time: before the call is admitted.
    prepare: async (call, { store, statistics }) => ({
      statistic: await statistics.rows(call.route.params.get('name') as StatisticName, lagCutoff(store, call.plan)),
    }),
    serve: ({ call, prepared }) => ({
      body: { name: call.route.params.get('name'), rows: prepared.statistic! },
      rows: 1,
    }),
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
        date: dump.date,
        generated_at: dump.generated_at,
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
      if (!file)
        throw new ProblemError(
          'not_found',
          `There is no dump file ${call.route.params.get('file')} for ${date}; the manifest lists the dates there are.`,
        );
      return { body: null, rows: file.rows, raw: file.body, contentType: 'application/gzip', etag: file.sha256 };
    },
  },
  // The account call is free: neither counted nor held to the quota. Its data shows the key as
  // the call left it, so it is made once the call is admitted.
  getAccount: {
    counted: false,
    serve: ({ call }, { accounts, now }) => ({
      body: null,
      rows: 0,
      afterCharge: (key, usage) => ({
        plan: planView(call.plan),
        usage,
        keys: [accounts.summary(key, now())],
        balance:
          key.balanceRows === null
            ? null
            : {
                prepaid_rows: key.balanceRows,
                value_usd: Math.round(key.balanceRows * plans.payg.price_usd_per_row! * 100) / 100,
              },
      }),
    }),
  },
  // ---- without a key
  createTrialKey: {
    open: ({ request, requestId, clientAddress }, env) => createTrialKey(request, requestId, clientAddress, env),
  },
  // The contract as served: its `servers` names this mock, where it was fetched from.
  getOpenApiDocument: {
    open: ({ requestId }, { publicBase }) =>
      new Promise((resolve) =>
        resolve(
          jsonText(200, servedDocument(publicBase()), {
            'x-request-id': requestId,
            'cache-control': 'public, max-age=300',
          }),
        ),
      ),
  },
} satisfies Record<string, Operation>;

let served: { base: string; json: string } | undefined;
function servedDocument(base: string): string {
  // Described as the contract's own servers are (an environment, not internal), so the served
  // document passes the OWASP option of the kit's ruleset as the file does.
  if (served?.base !== base)
    served = {
      base,
      json: JSON.stringify({
        ...openapiDocument,
        servers: [{ url: base, description: 'Sandbox: this mock of the Investor Graph API', 'x-internal': false }],
      }),
    };
  return served.json;
}
