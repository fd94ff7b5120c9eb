/**
 * HTTP as public APIs speak it, around the engine's answers to the data API (never /__control):
 * OPTIONS and CORS preflights, CORS on answers, caching headers, HEAD without its body, and an
 * incoming request id echoed. In the engine, so the Node server and MSW answer alike.
 * DECISIONS.md#http-conventions says why each is as it is.
 */

/** Which origins a browser app may call the data API from: any (as Prism does) or a list. */
export type CorsOrigins = '*' | readonly string[];

/** What a browser script may read of an answer, besides the CORS-safelisted headers. */
const exposed = 'ETag, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, Preference-Applied, WWW-Authenticate';
/** What a browser script may send. */
const allowedHeaders = 'Authorization, Content-Type, If-None-Match, Prefer, X-Request-Id';

/**
 * A client's X-Request-Id, when it is one worth echoing: short and of safe characters, nothing of
 * the kit's key form (igk_), and nothing of the same request's bearer token, whole or in part (it
 * reaches logs and problem bodies). Trace ids (UUIDs, 32 hex digits) pass.
 */
export function echoedRequestId(request: Request): string | null {
  const id = request.headers.get('x-request-id');
  if (id === null || !/^[A-Za-z0-9._:-]{1,128}$/.test(id) || /igk_/i.test(id)) return null;
  const bearer = /^Bearer[ ]+(\S{8,})/i.exec(request.headers.get('authorization')?.trim() ?? '')?.[1];
  return bearer !== undefined && (id.includes(bearer) || (id.length >= 8 && bearer.includes(id))) ? null : id;
}

/**
 * The Access-Control-Allow-Origin an answer gets, or null. With any origin allowed it is `*` on
 * every answer, Origin or not, so the answer does not vary by Origin and a cache may share it; with
 * a list, the request's Origin when listed (and the answer says `Vary: Origin`).
 */
function allowOrigin(request: Request, origins: CorsOrigins): string | null {
  if (origins === '*') return '*';
  const origin = request.headers.get('origin');
  return origin !== null && origins.includes(origin) ? origin : null;
}

function vary(headers: Headers, name: string): void {
  const current = headers.get('vary');
  if (!current?.split(',').some((v) => v.trim().toLowerCase() === name.toLowerCase())) headers.set('vary', current ? `${current}, ${name}` : name);
}

/**
 * OPTIONS on a path of the API: 204 with `Allow`, and for a CORS preflight from an allowed origin
 * the Access-Control-Allow-* headers (from another origin, none: the browser then stops the call).
 */
export function preflight(request: Request, allow: readonly string[], origins: CorsOrigins, requestId: string): Response {
  const headers = new Headers({ allow: allow.join(', '), 'x-request-id': requestId, 'cache-control': 'no-store' });
  const origin = allowOrigin(request, origins);
  if (origin !== null && request.headers.has('access-control-request-method')) {
    headers.set('access-control-allow-origin', origin);
    headers.set('access-control-allow-methods', allow.join(', '));
    headers.set('access-control-allow-headers', allowedHeaders);
    headers.set('access-control-max-age', '600');
  }
  if (origins !== '*') vary(headers, 'Origin');
  return new Response(null, { status: 204, headers });
}

/**
 * Finishes an answer of the data API: CORS for an allowed origin, `Cache-Control` (a data answer
 * may be kept by the client alone and revalidated with its ETag; an error is not kept), `Vary:
 * Authorization` (the same URL answers each key differently), and HEAD as the GET without its body.
 */
export async function finish(request: Request, response: Response, origins: CorsOrigins): Promise<Response> {
  const headers = response.headers;
  const origin = allowOrigin(request, origins);
  if (origin !== null) {
    headers.set('access-control-allow-origin', origin);
    headers.set('access-control-expose-headers', exposed);
  }
  if (origins !== '*') vary(headers, 'Origin');
  if (!headers.has('cache-control')) headers.set('cache-control', response.status === 200 || response.status === 304 ? 'private, no-cache' : 'no-store');
  vary(headers, 'Authorization');
  if (request.method !== 'HEAD') return response;
  // The GET's headers, its length included, and no body (RFC 9110 9.3.2).
  if (response.body !== null) headers.set('content-length', String((await response.arrayBuffer()).byteLength));
  return new Response(null, { status: response.status, headers });
}
