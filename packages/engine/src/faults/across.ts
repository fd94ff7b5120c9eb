/**
 * Faults that only calls together show, as a checker meets them across a run: a walk that does not
 * end where its list does, a feed that leaves out what the records say changed, a rollup off from
 * its rows, counters that do not move with the calls made.
 */
import { boundedMap, jsonOf, onHeaders, onJson, onRows, recordOf, rewriteQuery, type Fault } from './fault.ts';

let ends = 0;

export const acrossFaults = {
  'last-page-cursor': {
    breaks: 'gives the last page of a list a cursor, which leads to a page of no rows: a walk ends a page late',
    wrap: (next, deps) => {
      // The cursors handed out past a last page: each leads to the empty page that ends the walk.
      const past = boundedMap<string, true>();
      const handOut = onRows((rows, { body, url }) => {
        if (body.next_cursor !== null || !rows.length || url.pathname === '/api/v1/exports') return;
        const cursor = `eyJlbmQiOnRydWV9.${(ends++).toString(36).padStart(8, 'e')}`;
        past.set(cursor, true);
        body.next_cursor = cursor;
      });
      return handOut(async (request, context) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        if (!cursor || !past.has(cursor)) return next(request, context);
        // The page after the last: the first page's envelope, counted as a call, with no rows and no cursor.
        const first = await next(
          rewriteQuery(request, (q) => q.delete('cursor')),
          context,
        );
        const body = await jsonOf(first);
        const headers = new Headers(first.headers);
        headers.delete('content-length');
        return {
          status: first.status,
          headers: recordOf(headers),
          body: JSON.stringify({ ...body, data: [], next_cursor: null }),
        };
      }, deps);
    },
  },
  'cursor-unchanged': {
    breaks: 'hands the last page of a walk reached by a cursor that same cursor back, so the walk never ends',
    wrap: onRows((rows, { body, url }) => {
      const cursor = url.searchParams.get('cursor');
      if (cursor && body.next_cursor === null && rows.length && url.pathname !== '/api/v1/exports')
        body.next_cursor = cursor;
    }),
  },
  'feed-skips-company-updates': {
    breaks: 'leaves the updates of companies out of the changes feed (their updated_at still moves)',
    wrap: onRows((rows, { url }) => {
      if (url.pathname !== '/api/v1/changes') return;
      for (let i = rows.length - 1; i >= 0; i--)
        if (rows[i]!.resource === 'company' && rows[i]!.kind === 'update') rows.splice(i, 1);
    }),
  },
  'stage-median-as-mean': {
    breaks:
      "states rounds-by-stage's median_amount_usd as the mean of the stage's amounts (its sum over its rounds " +
      'with an amount)',
    wrap: (next, deps) =>
      onJson(({ status, body, url }) => {
        const rows = (
          body.data as { rows?: { stage: string; amount_usd: number; median_amount_usd: number | null }[] } | undefined
        )?.rows;
        if (status !== 200 || url.pathname !== '/api/v1/statistics/rounds-by-stage' || !rows || !deps.engine) return;
        for (const row of rows) {
          const known = [...deps.engine.store.all('round')].filter(
            (r) => r.stage === row.stage && typeof r.amount_usd === 'number',
          ).length;
          if (known) row.median_amount_usd = Math.round(row.amount_usd / known);
        }
      })(next, deps),
  },
  'quota-left-stuck': {
    breaks:
      "states the quota's remaining calls in RateLimit as the whole quota on every answer, never falling as " +
      'calls are spent',
    wrap: onHeaders((headers) => {
      const quota = /"quota";q=(\d+)/.exec(headers.get('ratelimit-policy') ?? '')?.[1];
      const left = headers.get('ratelimit');
      if (quota && left) headers.set('ratelimit', left.replace(/"quota";r=\d+/, `"quota";r=${quota}`));
    }),
  },
} satisfies Record<string, Fault>;
