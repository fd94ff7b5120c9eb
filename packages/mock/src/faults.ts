/**
 * Deliberate faults for the mock: each one makes it break one rule of the spec or the contract, the
 * way a real service might. They exist so that a checker (the contract tests, the validation
 * proxy, an integrator's own client tests) can show it catches the break. A wrapper around the
 * engine's fetch, so the engine itself stays correct and every adapter can switch them on.
 */
import type { RequestContext } from './engine/context.ts';
import type { Engine } from './engine/engine.ts';
import { ProblemError } from './engine/problems.ts';

export const faults = {
  'drop-actions': 'answers 401, 402 and 429 without their actions',
  'drop-retry-after': 'answers 429 without Retry-After',
  'leak-email': 'adds a contact e-mail address to the first row of every page',
  'ignore-limit': 'serves twice the rows that limit asks for',
  'repeat-row': 'starts every page reached by a cursor with the last row of the page before',
  'wrong-status': 'answers 403 where the contract says 401',
  'server-error-on-bad-input': 'answers 500 where a request is rejected with 400',
  'accept-bad-cursor': 'serves the first page for a cursor it should reject',
  'unstable-updated-at': 'moves updated_at on every read, although the content is unchanged',
  'unordered-changes': 'lists the changes feed out of sequence order',
  'ignore-announced-since': 'ignores announced_since on the first page of rounds',
  'wrong-content-type': 'answers data as text/plain instead of application/json',
  'ignore-if-none-match': 'answers 200 with the whole body where If-None-Match holds the current ETag',
  'stale-openapi': 'serves an /api/v1/openapi.json that lacks the offerings list',
  'refuse-head': 'answers HEAD with 405, as if only GET were allowed',
  'frozen-usage': "reports usage as it was before the key's first call, on every answer",
  'refuse-exports': 'answers the nightly dumps with 402 on every plan, as if no plan had them',
  'quota-as-429': 'answers a used-up trial or quota with 429 instead of 402',
  'statistics-down': 'answers every statistics rollup with 500, as a service whose rollup query fails',
} as const satisfies Record<string, string>;

export type FaultName = keyof typeof faults;

export const faultNames = Object.keys(faults) as FaultName[];

export function isFaultName(value: string): value is FaultName {
  return Object.hasOwn(faults, value);
}

type Fetch = Engine['fetch'];
type Json = Record<string, unknown> & { data?: unknown; next_cursor?: unknown; actions?: unknown; status?: unknown; code?: unknown };

function rewriteQuery(request: Request, edit: (params: URLSearchParams) => void): Request {
  const url = new URL(request.url);
  edit(url.searchParams);
  return new Request(url, request);
}

/** The engine's fetch with the named faults switched on; control endpoints are left alone. */
export function withFaults(fetch: Fetch, names: readonly FaultName[]): Fetch {
  const on = new Set(names);
  if (on.size === 0) return fetch;
  // repeat-row: the last row of each page, by the cursor that leads past it (bounded).
  const lastRowBehind = new Map<string, unknown>();
  let tick = 0;

  return async (request: Request, context?: RequestContext): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__control')) return fetch(request, context);
    if (on.has('refuse-head') && request.method === 'HEAD') return new Response(null, { status: 405, headers: { allow: 'GET' } });
    if (on.has('statistics-down') && url.pathname.startsWith('/api/v1/statistics/')) {
      return new ProblemError('internal_error', 'The rollup could not be computed.').toResponse(url.pathname, 'req_fault_statistics_down');
    }
    let sent = request;
    const limit = url.searchParams.get('limit');
    if (on.has('ignore-limit') && limit && /^\d+$/.test(limit)) sent = rewriteQuery(sent, (p) => p.set('limit', String(Number(limit) * 2)));
    if (on.has('ignore-announced-since') && !url.searchParams.has('cursor')) sent = rewriteQuery(sent, (p) => p.delete('announced_since'));
    if (on.has('ignore-if-none-match') && sent.headers.has('if-none-match')) {
      const without = new Headers(sent.headers);
      without.delete('if-none-match');
      // From its parts: the Node adapter's own request class cannot be copied by undici's Request.
      sent = new Request(sent.url, { method: sent.method, headers: without });
    }

    let response = await fetch(sent, context);
    // A HEAD or a 304 has no body to break.
    if (request.method === 'HEAD' || response.status === 304 || !(response.headers.get('content-type') ?? '').includes('json')) return response;
    let body = (await response.clone().json()) as Json;
    let status = response.status;
    const headers = new Headers(response.headers);

    if (on.has('accept-bad-cursor') && status === 400 && body.code === 'invalid_cursor') {
      response = await fetch(rewriteQuery(sent, (p) => p.delete('cursor')), context);
      body = (await response.clone().json()) as Json;
      status = response.status;
      response.headers.forEach((v, k) => headers.set(k, v));
    }
    if (on.has('drop-actions') && [401, 402, 429].includes(status)) delete body.actions;
    if (on.has('drop-retry-after') && status === 429) headers.delete('retry-after');
    if (on.has('wrong-status') && status === 401) status = body.status = 403;
    if (on.has('server-error-on-bad-input') && status === 400) status = body.status = 500;
    if (on.has('quota-as-429') && status === 402 && (body.code === 'trial_exhausted' || body.code === 'quota_exhausted')) {
      status = body.status = 429;
      headers.set('retry-after', '1');
    }
    if (on.has('refuse-exports') && status === 200 && url.pathname.startsWith('/api/v1/exports')) {
      const refused = new ProblemError('plan_feature_unavailable', 'The nightly dumps are not in your plan.');
      status = 402;
      body = refused.body(url.pathname, response.headers.get('x-request-id') ?? '') as Json;
      headers.set('content-type', 'application/problem+json');
    }
    if (on.has('frozen-usage') && status === 200 && body.usage && typeof body.usage === 'object') {
      const usage = body.usage as Record<string, unknown>;
      body.usage = { ...usage, calls_used: 0, ...(typeof usage.calls_limit === 'number' ? { calls_remaining: usage.calls_limit } : {}) };
    }
    const rows = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : null;
    if (rows && status === 200) {
      const cursor = url.searchParams.get('cursor');
      if (on.has('repeat-row') && cursor && lastRowBehind.has(cursor) && rows.length) {
        rows.unshift(lastRowBehind.get(cursor) as Record<string, unknown>);
        rows.pop();
      }
      if (on.has('repeat-row') && typeof body.next_cursor === 'string' && rows.length) {
        if (lastRowBehind.size > 10_000) lastRowBehind.clear();
        lastRowBehind.set(body.next_cursor, rows.at(-1));
      }
      if (on.has('leak-email') && rows[0]) rows[0] = { ...rows[0], contact_email: 'partners@example-capital.com' };
      if (on.has('unstable-updated-at')) {
        tick += 1;
        const moved = new Date(Date.now() + tick * 1000).toISOString();
        for (const row of rows) if (typeof row.updated_at === 'string') row.updated_at = moved;
      }
      if (on.has('unordered-changes') && url.pathname === '/api/v1/changes') rows.reverse();
    }
    if (on.has('stale-openapi') && url.pathname === '/api/v1/openapi.json' && body.paths && typeof body.paths === 'object') delete (body.paths as Record<string, unknown>)['/api/v1/offerings'];
    if (on.has('wrong-content-type') && status === 200) headers.set('content-type', 'text/plain; charset=utf-8');
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status, headers });
  };
}
