/** Faults of counting and charging: calls counted twice or not at all, charges misreported. */
import type { Answer } from '../answer.ts';
import { countAnotherCall, jsonOf, onJson, type Fault } from './fault.ts';

const isDumpFile = (url: URL): boolean => /^\/api\/v1\/exports\/[^/]+\/[^/]+$/.test(url.pathname);

/** Counts one call more, unseen, when `before` says so of the request, or `after` of its answer. */
const countedTwice =
  (when: {
    before?: (request: Request, url: URL) => boolean;
    after?: (answer: Answer, request: Request) => boolean | Promise<boolean>;
  }): Fault['wrap'] =>
  (next) =>
  async (request, context) => {
    if (when.before?.(request, new URL(request.url))) await countAnotherCall(next, request, context);
    const answer = await next(request, context);
    if (when.after && (await when.after(answer, request))) await countAnotherCall(next, request, context);
    return answer;
  };

export const billingFaults = {
  'frozen-usage': {
    breaks: "reports usage as it was before the key's first call, on every answer",
    wrap: onJson(({ status, body }) => {
      if (status !== 200 || !body.usage || typeof body.usage !== 'object') return;
      const usage = body.usage as Record<string, unknown>;
      body.usage = {
        ...usage,
        calls_used: 0,
        ...(typeof usage.calls_limit === 'number' ? { calls_remaining: usage.calls_limit } : {}),
      };
    }),
  },
  'account-counted': {
    breaks: 'counts a call on the key for every /account read, as if the account call were not free',
    wrap: countedTwice({ before: (request, url) => url.pathname === '/api/v1/account' && request.method === 'GET' }),
  },
  'head-counted-twice': {
    breaks: 'counts a HEAD as two calls',
    wrap: countedTwice({ before: (request) => request.method === 'HEAD' && request.headers.has('authorization') }),
  },
  'download-counted-twice': {
    breaks: 'counts a dump file download as two calls',
    wrap: countedTwice({ before: (request, url) => request.method === 'GET' && isDumpFile(url) }),
  },
  'errors-counted': {
    breaks: 'counts (and, on pay as you go, charges) a call that answered 404',
    wrap: countedTwice({
      after: (answer, request) => answer.status === 404 && request.headers.has('authorization'),
    }),
  },
  'insufficient-balance-charged': {
    breaks: 'charges the minimum a call for a call the balance could not cover',
    wrap: countedTwice({
      after: async (answer, request) =>
        answer.status === 402 &&
        request.headers.has('authorization') &&
        (await jsonOf(answer).catch(() => null))?.code === 'insufficient_balance',
    }),
  },
  'payg-minimum-ignored': {
    breaks:
      'reports a pay-as-you-go call that serves fewer rows than the minimum a call as charging only its rows, ' +
      'the balance to match',
    wrap: onJson(({ status, body }) => {
      const usage = body.usage as { rows_charged?: number; balance_rows?: number } | undefined;
      const served = Array.isArray(body.data) ? body.data.length : body.data ? 1 : 0;
      if (
        status !== 200 ||
        typeof usage?.rows_charged !== 'number' ||
        typeof usage.balance_rows !== 'number' ||
        served >= usage.rows_charged
      )
        return;
      body.usage = { ...usage, rows_charged: served, balance_rows: usage.balance_rows + usage.rows_charged - served };
    }),
  },
  'feed-charge-misreported': {
    breaks: "reports a feed page's charge as at most the minimum a call, whatever its items",
    wrap: onJson(({ status, body, url }) => {
      const usage = body.usage as { rows_charged?: number } | undefined;
      if (status === 200 && url.pathname === '/api/v1/changes' && typeof usage?.rows_charged === 'number')
        body.usage = { ...usage, rows_charged: Math.min(usage.rows_charged, 10) };
    }),
  },
} satisfies Record<string, Fault>;
