/**
 * Faults of what is made from other records (DECISIONS.md#resource-fields and #round-lag): a
 * trial's view leaking what its round lag holds back through a derived field or a nested list.
 */
import { plans } from '@investor-graph/contract';
import type { Handler } from '../wrapper.ts';
import { jsonOf, onJson, rewriteQuery, withHeaders, type Fault, type FaultDeps } from './fault.ts';

const isTrial = (request: Request): boolean => /^Bearer igk_trial_/.test(request.headers.get('authorization') ?? '');

/** The same request sent with an Enterprise key made once (a plan with no lag), its JSON body. */
function asPaidPlan(next: Handler, deps: FaultDeps): (request: Request) => Promise<{ data?: unknown } | null> {
  let paid: Promise<string> | undefined;
  return async (request) => {
    const engine = deps.engine;
    if (!engine) return null;
    paid ??= engine.accounts.create('enterprise', engine.clock.now()).then((issued) => issued.key);
    const key = await paid;
    const answer = await next(withHeaders(request, (h) => h.set('authorization', `Bearer ${key}`)));
    return answer.status === 200 ? await jsonOf(answer) : null;
  };
}

type Rows = Record<string, unknown>[];
const rowsOf = (data: unknown): Rows =>
  Array.isArray(data) ? (data as Rows) : data && typeof data === 'object' ? [data as Record<string, unknown>] : [];

export const derivedFaults = {
  'portfolio-counts-edges': {
    breaks:
      "counts a firm's edges in its portfolio_count, not the distinct companies they reach (a company backed in " +
      'two rounds counted twice)',
    wrap: (next, deps) =>
      onJson(({ status, body, url }) => {
        const store = deps.engine?.store;
        if (!store || status !== 200 || !/^\/api\/v1\/firms(\/[^/]+)?$/.test(url.pathname)) return;
        for (const row of rowsOf(body.data))
          if (typeof row.portfolio_count === 'number')
            row.portfolio_count = store.nestedRows('listFirmPortfolio', row.slug as string).length;
      })(next, deps),
  },
  'lagged-totals': {
    breaks:
      "serves a trial key a company's total_raised_usd and a firm's portfolio_count as a paid plan's, counting " +
      'the rounds and edges its round lag holds back',
    wrap: (next, deps) => {
      const paid = asPaidPlan(next, deps);
      return onJson(async ({ status, body, request, url }) => {
        if (status !== 200 || !isTrial(request) || !/^\/api\/v1\/(companies|firms)(\/[^/]+)?$/.test(url.pathname))
          return;
        const unlagged = new Map(rowsOf((await paid(request))?.data).map((row) => [row.slug, row]));
        for (const row of rowsOf(body.data)) {
          const theirs = unlagged.get(row.slug);
          if (!theirs) continue;
          if ('total_raised_usd' in row) row.total_raised_usd = theirs.total_raised_usd;
          if ('portfolio_count' in row) row.portfolio_count = theirs.portfolio_count;
        }
      })(next, deps);
    },
  },
  'nested-lag-ignored': {
    breaks:
      "serves a trial key a company's rounds as a paid plan's, rounds inside its round lag included (/rounds " +
      'keeps the lag)',
    wrap: (next, deps) => {
      const paid = asPaidPlan(next, deps);
      return onJson(async (answer) => {
        if (
          answer.status !== 200 ||
          !isTrial(answer.request) ||
          !/^\/api\/v1\/companies\/[^/]+\/rounds$/.test(answer.url.pathname)
        )
          return;
        const unlagged = await paid(answer.request);
        if (unlagged)
          Object.assign(answer.body, {
            data: unlagged.data,
            next_cursor: (unlagged as { next_cursor?: unknown }).next_cursor,
          });
      })(next, deps);
    },
  },
  'lag-skips-edges': {
    breaks:
      "serves a trial key the edges of rounds inside its round lag (in /investments, a firm's portfolio and a " +
      "company's investors) as a paid plan's",
    wrap: (next, deps) => {
      const paid = asPaidPlan(next, deps);
      return onJson(async (answer) => {
        const { status, request, url } = answer;
        if (
          status !== 200 ||
          !isTrial(request) ||
          !/^\/api\/v1\/(investments|firms\/[^/]+\/portfolio|companies\/[^/]+\/investors)$/.test(url.pathname)
        )
          return;
        // At most the trial's page size, so that only the lag is broken.
        const capped = rewriteQuery(request, (q) =>
          q.set(
            'limit',
            String(Math.min(Number(q.get('limit') ?? plans.trial.rows_per_page) || 1, plans.trial.rows_per_page)),
          ),
        );
        const unlagged = await paid(capped);
        // The paid plan's page, cursor and all: a page of the same request, as a plan without a lag has it.
        if (unlagged)
          Object.assign(answer.body, {
            data: unlagged.data,
            next_cursor: (unlagged as { next_cursor?: unknown }).next_cursor,
          });
      })(next, deps);
    },
  },
} satisfies Record<string, Fault>;
