/**
 * HTTP as public APIs speak it, around the engine's answers to the data API (never /__control):
 * OPTIONS and CORS preflights, CORS on answers, caching headers, HEAD without its body, and an
 * incoming request id echoed. In the engine, so the Node server and MSW answer alike.
 * DECISIONS.md#http-conventions says why each is as it is.
 */
import { bearerOf, holdsAnyKey } from '@investor-graph/cli/redact';
import { isPieces, piecesLength, type Answer } from '../answer.ts';

/** Which origins a browser app may call the data API from: any (as Prism does) or a list. */
export type CorsOrigins = '*' | readonly string[];

/** What a browser script may read of an answer, besides the CORS-safelisted headers. */
const exposed = 'ETag, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, Preference-Applied, WWW-Authenticate';
/** What a browser script may send. */
const allowedHeaders = 'Authorization, Content-Type, If-None-Match, Prefer, X-Request-Id';

/**
 * A client's X-Request-Id, when it is one worth echoing: short and of safe characters, and holding
 * no key in any form `redact` finds (the kit's, a secret's shape, a preset or custom key, the same
 * request's own key, whole or in part), since it reaches logs and problem bodies. Otherwise the
 * call gets an id of the mock's own. Trace ids (UUIDs, 32 hex digits) pass. `known` is asked only
 * when there is an id to judge (most calls send none).
 */
export function echoedRequestId(request: Request, known: () => readonly string[] = () => []): string | null {
  const id = request.headers.get('x-request-id');
  if (id === null || !/^[A-Za-z0-9._:-]{1,128}$/.test(id) || holdsAnyKey(id, known())) return null;
  const bearer = bearerOf(request.headers.get('authorization'));
  return bearer !== undefined && bearer.length >= 8 && (id.includes(bearer) || (id.length >= 8 && bearer.includes(id)))
    ? null
    : id;
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

/** Adds a name to the answer's Vary, once. */
function vary(headers: Record<string, string>, name: string): void {
  const current = headers.vary;
  if (!current?.split(',').some((v) => v.trim().toLowerCase() === name.toLowerCase()))
    headers.vary = current ? `${current}, ${name}` : name;
}

/**
 * OPTIONS on a path of the API: 204 with `Allow`, and for a CORS preflight from an allowed origin
 * the Access-Control-Allow-* headers (from another origin, none: the browser then stops the call).
 */
export function preflight(request: Request, allow: readonly string[], origins: CorsOrigins, requestId: string): Answer {
  const headers: Record<string, string> = {
    allow: allow.join(', '),
    'x-request-id': requestId,
    'cache-control': 'no-store',
  };
  const origin = allowOrigin(request, origins);
  if (origin !== null && request.headers.has('access-control-request-method')) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-allow-methods'] = allow.join(', ');
    headers['access-control-allow-headers'] = allowedHeaders;
    headers['access-control-max-age'] = '600';
  }
  return { status: 204, headers, body: null };
}

/**
 * Finishes an answer of the data API: CORS for an allowed origin, `Cache-Control` (a data answer
 * may be kept by the client alone and revalidated with its ETag; an error is not kept), `Vary`
 * (the same URL answers each key differently; by Origin when only some origins are let in; by
 * Accept-Encoding when the server in front compresses), and HEAD as the GET without its body.
 */
export function finish(request: Request, answer: Answer, origins: CorsOrigins, compressed = false): Answer {
  const headers = answer.headers;
  const origin = allowOrigin(request, origins);
  if (origin !== null) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-expose-headers'] = exposed;
  }
  if (origins !== '*') vary(headers, 'Origin');
  headers['cache-control'] ??= answer.status === 200 || answer.status === 304 ? 'private, no-cache' : 'no-store';
  vary(headers, 'Authorization');
  // A 304 says the Vary its 200 would (RFC 9110 15.4.5).
  if (compressed && ((answer.body !== null && /json/.test(headers['content-type'] ?? '')) || answer.status === 304))
    vary(headers, 'Accept-Encoding');
  if (request.method !== 'HEAD' || answer.body === null) return answer;
  // The GET's headers, its length included, and no body (RFC 9110 9.3.2).
  const body = answer.body;
  headers['content-length'] ??= String(
    typeof body === 'string'
      ? utf8.encode(body).length
      : body instanceof Blob
        ? body.size
        : isPieces(body)
          ? piecesLength(body)
          : body.length,
  );
  return { status: answer.status, headers, body: null };
}

const utf8 = new TextEncoder();
