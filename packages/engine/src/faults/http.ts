/** Faults of HTTP as DECISIONS.md writes it: methods, conditional requests, headers, problems and parameters. */
import { ProblemError } from '../problems.ts';
import {
  answerBefore,
  boundedMap,
  onHeaders,
  onJson,
  onRequest,
  rewriteQuery,
  untouched,
  withHeaders,
  type Fault,
} from './fault.ts';

/** The query parameters the contract defines on some operation. */
export const knownParameters = new Set(['limit', 'cursor', 'announced_since', 'since', 'include']);

/** Doubles an item's q in RateLimit-Policy. */
const doubled = (headers: Headers, item: string): void => {
  const policy = headers.get('ratelimit-policy');
  if (policy)
    headers.set(
      'ratelimit-policy',
      policy.replace(new RegExp(`"${item}";q=(\\d+)`), (_, q: string) => `"${item}";q=${Number(q) * 2}`),
    );
};

export const httpFaults = {
  'wrong-status': {
    breaks: 'answers 403 where the contract says 401',
    wrap: onJson((a) => void (a.status === 401 && a.relabel(403))),
  },
  'server-error-on-bad-input': {
    breaks: 'answers 500 where a request is rejected with 400',
    wrap: onJson((a) => void (a.status === 400 && a.relabel(500))),
  },
  'wrong-content-type': {
    breaks: 'answers data as text/plain instead of application/json',
    wrap: onJson((a) => void (a.status === 200 && a.headers.set('content-type', 'text/plain; charset=utf-8'))),
  },
  'ignore-if-none-match': {
    breaks: 'answers 200 with the whole body where If-None-Match holds the current ETag',
    wrap: onRequest((request) =>
      request.headers.has('if-none-match') ? withHeaders(request, (h) => h.delete('if-none-match')) : null,
    ),
  },
  'strict-if-none-match': {
    breaks: 'gives 304 only when If-None-Match is the ETag to the letter (no weak comparison, no list, no *)',
    wrap: (next) => async (request, context) => {
      const answer = await next(request, context);
      if (answer.status !== 304 || request.headers.get('if-none-match') === (answer.headers.etag ?? null))
        return answer;
      return next(
        withHeaders(request, (h) => h.delete('if-none-match')),
        context,
      );
    },
  },
  'cached-304': {
    breaks: 'answers a matching If-None-Match with 304 from a cache in front, without counting the call',
    wrap: (next) => {
      // The ETag last served, by key and request.
      const seenTags = boundedMap<string, string>();
      return async (request, context) => {
        const url = new URL(request.url);
        const cacheKey = `${request.headers.get('authorization') ?? ''} ${url.pathname}${url.search}`;
        const asked = request.headers.get('if-none-match');
        if (request.method === 'GET' && asked && seenTags.get(cacheKey) === asked)
          return { status: 304, headers: { etag: asked }, body: null };
        const answer = await next(request, context);
        if (answer.status === 200 && answer.headers.etag) seenTags.set(cacheKey, answer.headers.etag);
        return answer;
      };
    },
  },
  'refuse-head': {
    breaks: 'answers HEAD with 405, as if only GET were allowed',
    wrap: answerBefore((request) =>
      request.method === 'HEAD' ? { status: 405, headers: { allow: 'GET' }, body: null } : null,
    ),
  },
  'head-without-auth': {
    breaks: 'answers HEAD without a key with 200, as a front that checks keys on GET only',
    wrap: answerBefore((request) =>
      request.method === 'HEAD' && !request.headers.has('authorization')
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: null }
        : null,
    ),
  },
  'rate-limit-policy-wrong': {
    breaks: "states twice the plan's rate in RateLimit-Policy",
    wrap: onHeaders((h) => doubled(h, 'default')),
  },
  'quota-item-wrong': {
    breaks: "states twice the plan's monthly calls in the quota item of RateLimit-Policy",
    wrap: onHeaders((h) => doubled(h, 'quota')),
  },
  'drop-retry-after': {
    breaks: 'answers 429 without Retry-After',
    wrap: onJson((a) => void (a.status === 429 && a.headers.delete('retry-after'))),
  },
  'cors-closed': {
    breaks: 'answers without Access-Control-Allow-Origin, so no browser app may read it',
    wrap: onHeaders((h) => [...h.keys()].forEach((name) => name.startsWith('access-control-') && h.delete(name))),
  },
  'shared-cache': {
    breaks: 'lets shared caches keep data answers (Cache-Control: public, max-age=600, no Vary)',
    wrap: onHeaders((h, answer) => {
      if (answer.status !== 200) return;
      h.set('cache-control', 'public, max-age=600');
      h.delete('vary');
    }),
  },
  'drop-request-id': {
    breaks: 'answers without the X-Request-Id the request sent',
    wrap: onHeaders((h) => h.delete('x-request-id')),
  },
  'drop-www-authenticate': {
    breaks: 'answers 401 without WWW-Authenticate',
    wrap: onHeaders((h, answer) => void (answer.status === 401 && h.delete('www-authenticate'))),
  },
  'delete-not-405': {
    breaks: 'answers DELETE with 404, as if the path did not exist for it',
    wrap: onJson((a) => {
      if (a.request.method !== 'DELETE' || a.status !== 405) return;
      a.answerWith('route_not_found', 'No such route.');
      a.headers.delete('allow');
    }),
  },
  'problem-without-code': {
    breaks: 'answers problems without their code',
    wrap: onJson((a) => void (a.status >= 400 && delete a.body.code)),
  },
  'long-url-as-400': {
    breaks: 'answers a URL over 8,192 characters with 400 instead of 414',
    wrap: onJson((a) => {
      if (a.status !== 414) return;
      a.relabel(400, 'invalid_request');
    }),
  },
  // A lenient server: what it should refuse, it serves as if the offending parameter were not there.
  'ignore-unknown-parameter': {
    breaks: 'ignores a query parameter the operation does not define instead of answering 400',
    wrap: onJson(async (a) => {
      if (a.status === 400 && a.body.code === 'unknown_parameter')
        await a.refetch(
          rewriteQuery(a.request, (p) =>
            [...p.keys()].filter((k) => !knownParameters.has(k)).forEach((k) => p.delete(k)),
          ),
        );
    }),
  },
  'first-of-repeated-parameter': {
    breaks: 'takes the first of a repeated query parameter instead of answering 400',
    wrap: onJson(async (a) => {
      const keys = [...a.url.searchParams.keys()];
      if (a.status === 400 && keys.some((k, i) => keys.indexOf(k) !== i))
        await a.refetch(rewriteQuery(a.request, (p) => new Set(p.keys()).forEach((k) => p.set(k, p.get(k)!))));
    }),
  },
  'lenient-include': {
    breaks: 'ignores an include value other than rows instead of answering 400',
    wrap: onJson(async (a) => {
      const include = a.url.searchParams.get('include');
      if (a.status === 400 && include !== null && include !== 'rows')
        await a.refetch(rewriteQuery(a.request, (p) => p.delete('include')));
    }),
  },
  'bad-request-without-errors': {
    breaks: 'answers 400 without the errors that say which parameter is wrong',
    wrap: onJson((a) => void (a.status === 400 && delete a.body.errors)),
  },
  'route-moved': {
    breaks: 'serves the offerings list at /offerings, outside /api/v1, and answers /api/v1/offerings with 404',
    wrap: (next) => (request, context) => {
      const url = new URL(request.url);
      if (url.pathname === '/offerings')
        return next(
          new Request(new URL(`/api/v1/offerings${url.search}`, url), {
            method: request.method,
            headers: request.headers,
          }),
          context,
        );
      if (url.pathname === '/api/v1/offerings')
        return Promise.resolve(
          new ProblemError('route_not_found', 'No such route.').toAnswer(url.pathname, 'req_fault_route_moved'),
        );
      return next(request, context);
    },
  },
  'bare-limit-answers': {
    breaks:
      'answers headers too slow, a body too large and headers too large (408, 413, 431) with a bare text line, ' +
      'an Expect it cannot meet and CONNECT as Node does by itself (a bare 417, a closed connection), and ' +
      'lets dot segments and requests without Host through, as many fronts do',
    wrap: untouched,
    adapter: { bareLimitAnswers: true },
  },
} satisfies Record<string, Fault>;
