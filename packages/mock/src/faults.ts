/**
 * Deliberate faults for the mock: each one makes it break one rule of the spec or the contract, the
 * way a real service might. They exist so that a checker (the contract tests, the validation
 * proxy, an integrator's own client tests) can show it catches the break. A wrapper around the
 * engine's fetch, so the engine itself stays correct and every adapter can switch them on.
 */
import type { RequestContext } from './engine/context.ts';
import type { Engine } from './engine/engine.ts';
import { isPlanId, plans } from '@investor-graph/contract';
import { planView } from './engine/accounts.ts';
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
  'head-without-auth': 'answers HEAD without a key with 200, as a front that checks keys on GET only',
  'strict-if-none-match': 'gives 304 only when If-None-Match is the ETag to the letter (no weak comparison, no list, no *)',
  'rate-limit-policy-wrong': "states twice the plan's rate in RateLimit-Policy",
  'echo-key': "lists the caller's whole key in /account",
  'account-counted': 'counts a call on the key for every /account read, as if the account call were not free',
  'query-before-auth': "answers a call without a valid key that has a misspelt parameter with 400 instead of 401, looking at the query first",
  'cursor-ignores-filters': 'accepts a cursor with filters other than those it was issued for, serving the walk it was issued for',
  'refuse-over-cap': "answers a limit above the plan's page size with 400 instead of capping it",
  'first-seen-follows-update': 'moves first_seen_at to updated_at on every row, as if an update made the record new',
  'stale-include-rows': 'serves the rows of include=rows as they were before their change, under the same updated_at',
  'expired-trial-as-401': 'answers an expired trial with 401 invalid_key instead of 402 trial_expired',
  'manifest-wrong-sha': "states a sha256 in the dump manifest that is not the file's",
  'drop-service-url': 'serves rows without their service_url',
  'unknown-evidence-tier': "gives every investor edge the evidence tier 'rumour', which is none of the decided tiers",
  'cors-closed': 'answers without Access-Control-Allow-Origin, so no browser app may read it',
  'shared-cache': 'lets shared caches keep data answers (Cache-Control: public, max-age=600, no Vary)',
  'drop-request-id': 'answers without the X-Request-Id the request sent',
  'drop-www-authenticate': 'answers 401 without WWW-Authenticate',
  'delete-not-405': 'answers DELETE with 404, as if the path did not exist for it',
  'plan-mislabelled': "states the plan's rate_per_second one higher in the envelope than the plan table",
  'as-of-goes-back': 'states an as_of a day earlier on every other data answer',
  'trial-feed-open': 'serves a trial key an (empty) changes feed instead of the 402',
  'problem-without-code': 'answers problems without their code',
  'endless-cursor': 'gives the last page of a list a next_cursor, as if more rows followed',
  'statistics-off-by-one': "counts one round more in rounds-by-year's latest year than its rounds",
  'unknown-statistic-400': 'answers an unknown statistic with 400 instead of 404 unknown_statistic',
  'trial-lives-long': "lists a trial key in /account as expiring 30 days after it was made",
  'long-url-as-400': 'answers a URL over 8,192 characters with 400 instead of 414',
  'default-limit-10': 'serves 10 rows a page when no limit is given, instead of 100 or the page size',
  'revoked-as-403': 'answers a revoked key with 403 instead of 401 revoked_key',
  'quota-actions-trimmed': "offers only subscribe with a used-up monthly quota's 402 (no prepaid rows, no call with sales)",
  'unsorted-pages': 'serves the rows of each page in descending order of their key',
  'ignore-unknown-parameter': 'ignores a query parameter the operation does not define instead of answering 400',
  'first-of-repeated-parameter': 'takes the first of a repeated query parameter instead of answering 400',
  'lenient-include': 'ignores an include value other than rows instead of answering 400',
  'trial-statuses-as-400': 'answers every refused trial call with 400, where a body of another type is 415, one too large 413 and a taken address 409',
  'head-counted-twice': 'counts a HEAD as two calls',
  'errors-counted': 'counts (and, on pay as you go, charges) a call that answered 404',
  'feed-charge-misreported': "reports a feed page's charge as at most the minimum a call, whatever its items",
  'trial-needs-card': 'answers the trial call with 402, asking for a card',
  'trial-key-cacheable': 'lets caches keep the answer that shows a trial key (Cache-Control: public)',
  'short-trial-keys': 'issues trial keys of 16 characters after their prefix instead of 32',
  'sources-without-url': "drops the url of every investor edge's sources",
  'unknown-change-kind': "reports changes of a kind other than create, update and unpublish ('delete')",
  'paid-feed-refused': 'refuses the changes feed with 402 on every plan, as if no plan had it',
  'fractional-amounts': 'serves amounts in dollars and cents instead of whole dollars',
  'fund-id-uppercase': 'serves fund ids in capitals, against the decided format',
  'slug-with-capitals': 'serves firm slugs with capitals, against the decided format',
  'list-member-missing': 'lists a member that does not exist in every list',
  'bad-dump-date-404': 'answers a malformed dump date with 404 instead of 400',
  'bad-request-without-errors': 'answers 400 without the errors that say which parameter is wrong',
  'unknown-statistic-without-allowed': 'answers an unknown statistic without the list of allowed names',
  'weak-dump-etag': "gives a dump file a weak ETag, although its bytes are fixed",
  'cached-304': 'answers a matching If-None-Match with 304 from a cache in front, without counting the call',
  'quota-item-wrong': "states twice the plan's monthly calls in the quota item of RateLimit-Policy",
  'download-counted-twice': 'counts a dump file download as two calls',
  'links-missing': 'serves an /api/v1/openapi.json without the NextPage links of its paged operations',
  'servers-elsewhere': 'serves an /api/v1/openapi.json whose servers name another host',
  'trial-call-unlimited': 'answers a burst of trial calls from one address as if there were no limit (400 for the bad bodies, no 429)',
  'insufficient-balance-charged': 'charges the minimum a call for a call the balance could not cover',
  'lag-ignored': "shows a trial key rounds inside its round lag (its rounds are served as a paid plan's)",
  'periods-from-the-15th': 'runs monthly periods from the 15th of a month instead of the first',
  'failed-auth-unlimited': 'answers calls without a valid key with 401 however many an address sends (no 429 too_many_failures)',
  'bare-limit-answers': 'answers headers too slow, a body too large and headers too large (408, 413, 431) with a bare text line, as many fronts do',
  'limiter-on-clock': "refills the rate limiter's buckets by the service's clock, so moving the test clock refills them",
  'prepaid-rows-expire': "shows a pay-as-you-go key's prepaid rows as gone a year after the key was made",
  'unpublished-still-listed': 'keeps unpublished investments in /api/v1/investments, where keyset order puts them',
  'revocation-forgotten': 'refuses a revoked key once, then serves it again as an active key of its plan',
  'route-moved': 'serves the offerings list at /offerings, outside /api/v1, and answers /api/v1/offerings with 404',
} as const satisfies Record<string, string>;

export type FaultName = keyof typeof faults;

export const faultNames = Object.keys(faults) as FaultName[];

export function isFaultName(value: string): value is FaultName {
  return Object.hasOwn(faults, value);
}

type Fetch = Engine['fetch'];
type Json = Record<string, unknown> & { data?: unknown; next_cursor?: unknown; actions?: unknown; status?: unknown; code?: unknown };

/** The query parameters the contract defines on some operation. */
const knownParameters = new Set(['limit', 'cursor', 'announced_since', 'since', 'include']);

/** The filters of a query: every parameter but the page's own (limit, cursor). */
const filters = (params: URLSearchParams): string[] => [...new Set(params.keys())].filter((k) => k !== 'limit' && k !== 'cursor');

function rewriteQuery(request: Request, edit: (params: URLSearchParams) => void): Request {
  const url = new URL(request.url);
  edit(url.searchParams);
  return new Request(url, request);
}

/**
 * The engine's fetch with the named faults switched on; control endpoints are left alone. A fault
 * that must act as another key (lag-ignored) takes the engine's accounts and clock.
 */
export function withFaults(fetch: Fetch, names: readonly FaultName[], engine?: Pick<Engine, 'accounts' | 'clock' | 'store'>): Fetch {
  const on = new Set(names);
  if (on.size === 0) return fetch;
  // repeat-row: the last row of each page, by the cursor that leads past it (bounded).
  const lastRowBehind = new Map<string, unknown>();
  // cursor-ignores-filters: the filters each cursor was issued with (bounded).
  const issuedWith = new Map<string, URLSearchParams>();
  // lag-ignored: a paid key the fault serves a trial's rounds with, made once.
  let unlagged: Promise<string> | undefined;
  // cached-304: the ETag last served, by key and request (bounded).
  const seenTags = new Map<string, string>();
  // revocation-forgotten: by the Authorization of a key refused once as revoked, the key that stands in for it (bounded).
  const forgotten = new Map<string, Promise<string>>();
  // unpublished-still-listed: the investments the feed says were unpublished, for the store's version.
  let unpublished = { version: -1, ids: [] as string[] };
  const unpublishedInvestments = (): string[] => {
    if (!engine) return [];
    if (unpublished.version !== engine.store.version) {
      const { items } = engine.store.changePage('1970-01-01T00:00:00Z', 0, 100_000);
      unpublished = { version: engine.store.version, ids: items.filter((c) => c.kind === 'unpublish' && c.resource === 'investment').map((c) => c.key) };
    }
    return unpublished.ids;
  };
  let tick = 0;

  return async (request: Request, context?: RequestContext): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__control')) return fetch(request, context);
    if (on.has('route-moved') && url.pathname === '/offerings') return fetch(new Request(new URL(`/api/v1/offerings${url.search}`, url), { method: request.method, headers: request.headers }), context);
    if (on.has('route-moved') && url.pathname === '/api/v1/offerings') {
      return new ProblemError('route_not_found', 'No such route.').toResponse(url.pathname, 'req_fault_route_moved');
    }
    if (on.has('refuse-head') && request.method === 'HEAD') return new Response(null, { status: 405, headers: { allow: 'GET' } });
    if (on.has('head-without-auth') && request.method === 'HEAD' && !request.headers.has('authorization')) return new Response(null, { status: 200, headers: { 'content-type': 'application/json' } });
    if (on.has('statistics-down') && url.pathname.startsWith('/api/v1/statistics/')) {
      return new ProblemError('internal_error', 'The rollup could not be computed.').toResponse(url.pathname, 'req_fault_statistics_down');
    }
    let sent = request;
    const limit = url.searchParams.get('limit');
    if (on.has('ignore-limit') && limit && /^\d+$/.test(limit)) sent = rewriteQuery(sent, (p) => p.set('limit', String(Number(limit) * 2)));
    if (on.has('default-limit-10') && request.method === 'GET' && !limit && /^\/api\/v1\/(firms|companies|rounds|investments|funds|filings|offerings|adv-funds|lists)$/.test(url.pathname)) sent = rewriteQuery(sent, (p) => p.set('limit', '10'));
    if (on.has('ignore-announced-since') && !url.searchParams.has('cursor')) sent = rewriteQuery(sent, (p) => p.delete('announced_since'));
    if (on.has('ignore-if-none-match') && sent.headers.has('if-none-match')) {
      const without = new Headers(sent.headers);
      without.delete('if-none-match');
      // From its parts: the Node adapter's own request class cannot be copied by undici's Request.
      sent = new Request(sent.url, { method: sent.method, headers: without });
    }

    const cursor = url.searchParams.get('cursor');
    const issued = cursor ? issuedWith.get(cursor) : undefined;
    if (on.has('cursor-ignores-filters') && issued) {
      sent = rewriteQuery(sent, (p) => {
        for (const k of filters(p)) p.delete(k);
        issued.forEach((v, k) => p.set(k, v));
      });
    }
    // Faults that count (and charge) a call too many make one more, unseen, with the same key.
    const countAnotherCall = async () => void (await (await fetch(new Request(new URL('/api/v1/firms?limit=1', url), { headers: request.headers }), context)).arrayBuffer());
    const dumpFile = /^\/api\/v1\/exports\/[^/]+\/[^/]+$/.test(url.pathname);
    if (on.has('head-counted-twice') && request.method === 'HEAD' && request.headers.has('authorization')) await countAnotherCall();
    if (on.has('download-counted-twice') && request.method === 'GET' && dumpFile) await countAnotherCall();
    if (on.has('account-counted') && url.pathname === '/api/v1/account' && request.method === 'GET') await countAnotherCall();

    const trialRounds = /^Bearer igk_trial_/.test(request.headers.get('authorization') ?? '') && /^\/api\/v1\/(rounds|companies\/[^/]+\/rounds|statistics\/rounds-by-(year|stage))$/.test(url.pathname);
    if (on.has('lag-ignored') && trialRounds && engine) {
      unlagged ??= engine.accounts.create('enterprise', engine.clock.now()).then((issued) => issued.key);
      const swapped = new Headers(sent.headers);
      swapped.set('authorization', `Bearer ${await unlagged}`);
      sent = new Request(sent.url, { method: sent.method, headers: swapped });
    }
    const authorization = request.headers.get('authorization') ?? '';
    const standIn = on.has('revocation-forgotten') ? forgotten.get(authorization) : undefined;
    if (standIn) {
      const swapped = new Headers(sent.headers);
      swapped.set('authorization', `Bearer ${await standIn}`);
      sent = new Request(sent.url, { method: sent.method, headers: swapped });
    }
    // cached-304: the last ETag a key was given for a path, answered from here (never counted).
    const cacheKey = `${request.headers.get('authorization') ?? ''} ${url.pathname}${url.search}`;
    if (on.has('cached-304') && request.method === 'GET' && request.headers.get('if-none-match') && seenTags.get(cacheKey) === request.headers.get('if-none-match')) {
      return new Response(null, { status: 304, headers: { etag: seenTags.get(cacheKey)! } });
    }

    let response = await fetch(sent, context);
    if (on.has('cached-304') && response.status === 200 && response.headers.get('etag')) {
      if (seenTags.size > 10_000) seenTags.clear();
      seenTags.set(cacheKey, response.headers.get('etag')!);
    }
    if (on.has('strict-if-none-match') && response.status === 304 && request.headers.get('if-none-match') !== response.headers.get('etag')) {
      const without = new Headers(sent.headers);
      without.delete('if-none-match');
      response = await fetch(new Request(sent.url, { method: sent.method, headers: without }), context);
    }
    // The faults that break only headers, on every answer (HEAD and 304 included), in one pass.
    const edited = new Headers(response.headers);
    const doubled = (item: string) => edited.set('ratelimit-policy', edited.get('ratelimit-policy')!.replace(new RegExp(`"${item}";q=(\\d+)`), (_, q: string) => `"${item}";q=${Number(q) * 2}`));
    if (on.has('rate-limit-policy-wrong') && edited.has('ratelimit-policy')) doubled('default');
    if (on.has('quota-item-wrong') && edited.has('ratelimit-policy')) doubled('quota');
    if (on.has('weak-dump-etag') && response.status === 200 && dumpFile && edited.get('etag')) edited.set('etag', `W/${edited.get('etag')}`);
    if (on.has('cors-closed')) for (const name of [...edited.keys()]) if (name.startsWith('access-control-')) edited.delete(name);
    if (on.has('shared-cache') && response.status === 200) {
      edited.set('cache-control', 'public, max-age=600');
      edited.delete('vary');
    }
    if (on.has('drop-request-id')) edited.delete('x-request-id');
    if (on.has('drop-www-authenticate') && response.status === 401) edited.delete('www-authenticate');
    if ([...edited].join() !== [...response.headers].join()) response = new Response(response.body, { status: response.status, statusText: response.statusText, headers: edited });
    if (on.has('insufficient-balance-charged') && response.status === 402 && request.headers.has('authorization') && (await response.clone().json().catch(() => null))?.code === 'insufficient_balance') await countAnotherCall();
    if (on.has('errors-counted') && response.status === 404 && request.headers.has('authorization')) await countAnotherCall();
    // A HEAD or a 304 has no body to break.
    if (request.method === 'HEAD' || response.status === 304 || !(response.headers.get('content-type') ?? '').includes('json')) return response;
    let body = (await response.clone().json()) as Json;
    let status = response.status;
    const headers = new Headers(response.headers);
    /** Answers instead with the problem of the kit's table: its status, body and content type. */
    const answerWith = (code: ConstructorParameters<typeof ProblemError>[0], detail: string) => {
      const problem = new ProblemError(code, detail);
      status = problem.status;
      body = problem.body(url.pathname, response.headers.get('x-request-id') ?? '') as Json;
      headers.set('content-type', 'application/problem+json');
    };

    // A lenient server: what it should refuse, it serves as if the offending parameter were not there.
    const lenient = (keep: (params: URLSearchParams) => void) => async () => {
      response = await fetch(rewriteQuery(sent, keep), context);
      body = (await response.clone().json()) as Json;
      status = response.status;
      response.headers.forEach((v, k) => headers.set(k, v));
    };
    if (on.has('ignore-unknown-parameter') && status === 400 && body.code === 'unknown_parameter') await lenient((p) => [...p.keys()].filter((k) => !knownParameters.has(k)).forEach((k) => p.delete(k)))();
    if (on.has('first-of-repeated-parameter') && status === 400 && [...url.searchParams.keys()].some((k, i, all) => all.indexOf(k) !== i)) {
      await lenient((p) => new Set(p.keys()).forEach((k) => p.set(k, p.get(k)!)))();
    }
    if (on.has('lenient-include') && status === 400 && url.searchParams.has('include') && url.searchParams.get('include') !== 'rows') await lenient((p) => p.delete('include'))();
    if (on.has('accept-bad-cursor') && status === 400 && body.code === 'invalid_cursor') {
      response = await fetch(rewriteQuery(sent, (p) => p.delete('cursor')), context);
      body = (await response.clone().json()) as Json;
      status = response.status;
      response.headers.forEach((v, k) => headers.set(k, v));
    }
    if (on.has('revocation-forgotten') && engine && status === 401 && body.code === 'revoked_key' && !forgotten.has(authorization)) {
      if (forgotten.size > 10_000) forgotten.clear();
      const plan = /^Bearer igk_([a-z]+)_/.exec(authorization)?.[1];
      forgotten.set(authorization, engine.accounts.create(isPlanId(plan) ? plan : 'enterprise', engine.clock.now()).then((made) => made.key));
    }
    if (on.has('failed-auth-unlimited') && status === 429 && body.code === 'too_many_failures') {
      answerWith('invalid_key', 'The key is not valid.');
      headers.delete('retry-after');
      headers.set('www-authenticate', 'Bearer realm="investor-graph"');
    }
    if (on.has('periods-from-the-15th') && status === 200) {
      const fortnight = 14 * 86_400_000;
      for (const usage of [body.usage, (body.data as { usage?: unknown } | undefined)?.usage] as { period_start?: string | null; period_end?: string | null }[]) {
        if (!usage?.period_start || !usage.period_end || Date.parse(usage.period_end) - Date.parse(usage.period_start) < 20 * 86_400_000) continue;
        usage.period_start = new Date(Date.parse(usage.period_start) + fortnight).toISOString().replace('.000Z', 'Z');
        usage.period_end = new Date(Date.parse(usage.period_end) + fortnight).toISOString().replace('.000Z', 'Z');
      }
    }
    if (on.has('prepaid-rows-expire') && engine && status === 200 && url.pathname === '/api/v1/account') {
      const data = body.data as { keys?: { plan?: string; created_at?: string }[]; balance?: Record<string, unknown>; usage?: Record<string, unknown> } | undefined;
      const made = data?.keys?.[0];
      if (made?.plan === 'payg' && Date.parse(made.created_at ?? '') < engine.clock.now() - 365 * 86_400_000) {
        data!.balance = { ...data!.balance, prepaid_rows: 0, value_usd: 0 };
        for (const usage of [data!.usage, body.usage] as Record<string, unknown>[]) if (usage) usage.balance_rows = 0;
      }
    }
    if (on.has('drop-actions') && [401, 402, 429].includes(status)) delete body.actions;
    if (on.has('drop-retry-after') && status === 429) headers.delete('retry-after');
    if (on.has('wrong-status') && status === 401) status = body.status = 403;
    if (on.has('server-error-on-bad-input') && status === 400) status = body.status = 500;
    if (on.has('query-before-auth') && status === 401 && [...url.searchParams.keys()].some((k) => !knownParameters.has(k))) {
      answerWith('unknown_parameter', 'An unknown query parameter.');
    }
    if (on.has('expired-trial-as-401') && status === 402 && body.code === 'trial_expired') {
      status = body.status = 401;
      body.code = 'invalid_key';
    }
    if (on.has('refuse-over-cap') && status === 200 && limit && /^\d+$/.test(limit)) {
      const cap = (body as { plan?: { rows_per_page?: unknown } }).plan?.rows_per_page;
      if (typeof cap === 'number' && (limit.length > 15 || Number(limit) > cap)) {
        answerWith('invalid_parameter', `limit may be at most ${cap}.`);
      }
    }
    if (on.has('echo-key') && status === 200 && url.pathname === '/api/v1/account') {
      const key = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
      const data = body.data as { keys?: Record<string, unknown>[] } | undefined;
      if (data?.keys?.[0]) data.keys[0] = { ...data.keys[0], key };
    }
    if (on.has('manifest-wrong-sha') && status === 200 && url.pathname === '/api/v1/exports') {
      for (const day of (body.data as { files?: { sha256?: string }[] }[]) ?? []) for (const file of day.files ?? []) if (file.sha256) file.sha256 = file.sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    }
    if (on.has('trial-statuses-as-400') && url.pathname === '/api/v1/keys/trial' && [409, 413, 415].includes(status)) {
      status = body.status = 400;
      body.code = 'invalid_body';
    }
    if (on.has('feed-charge-misreported') && status === 200 && url.pathname === '/api/v1/changes' && body.usage && typeof body.usage === 'object') {
      const usage = body.usage as { rows_charged?: number };
      if (typeof usage.rows_charged === 'number') body.usage = { ...usage, rows_charged: Math.min(usage.rows_charged, 10) };
    }
    if (on.has('lag-ignored') && trialRounds && status === 200 && body.plan) {
      // Dressed as the trial's own answer: only the rounds give the fault away.
      body.plan = planView(plans.trial);
      headers.set('ratelimit-policy', `"default";q=${plans.trial.rate_per_second};w=1`);
      headers.set('ratelimit', `"default";r=${plans.trial.rate_per_second - 1};t=1`);
    }
    if (on.has('trial-call-unlimited') && url.pathname === '/api/v1/keys/trial' && status === 429) {
      status = body.status = 400;
      body.code = 'invalid_body';
      headers.delete('retry-after');
    }
    if (on.has('trial-needs-card') && url.pathname === '/api/v1/keys/trial' && status === 201) {
      answerWith('plan_feature_unavailable', 'A card is needed for a trial.');
    }
    if (on.has('trial-key-cacheable') && url.pathname === '/api/v1/keys/trial' && status === 201) headers.set('cache-control', 'public, max-age=3600');
    if (on.has('short-trial-keys') && url.pathname === '/api/v1/keys/trial' && status === 201 && typeof (body as { key?: unknown }).key === 'string') {
      (body as { key: string }).key = (body as { key: string }).key.slice(0, 'igk_trial_'.length + 16);
    }
    if (on.has('paid-feed-refused') && status === 200 && url.pathname === '/api/v1/changes') {
      answerWith('plan_feature_unavailable', 'The changes feed is not in your plan.');
    }
    if (on.has('bad-dump-date-404') && status === 400 && url.pathname.startsWith('/api/v1/exports/')) {
      answerWith('not_found', 'No dump for that day.');
    }
    if (on.has('bad-request-without-errors') && status === 400) delete (body as { errors?: unknown }).errors;
    if (on.has('unknown-statistic-without-allowed') && status === 404 && body.code === 'unknown_statistic') delete (body as { allowed?: unknown }).allowed;
    if (on.has('list-member-missing') && status === 200 && /^\/api\/v1\/lists\/[^/]+$/.test(url.pathname)) {
      const list = body.data as { members?: unknown[]; member_count?: number } | undefined;
      if (list?.members) {
        list.members = [{ kind: 'firm', slug: 'no-such-member-firm', name: 'No Such Member' }, ...list.members];
        if (typeof list.member_count === 'number') list.member_count += 1;
      }
    }
    if (on.has('delete-not-405') && request.method === 'DELETE' && status === 405) {
      answerWith('route_not_found', 'No such route.');
      headers.delete('allow');
    }
    if (on.has('problem-without-code') && status >= 400) delete body.code;
    if (on.has('unknown-statistic-400') && status === 404 && body.code === 'unknown_statistic') {
      status = body.status = 400;
      body.code = 'invalid_parameter';
    }
    if (on.has('long-url-as-400') && status === 414) {
      status = body.status = 400;
      body.code = 'invalid_request';
    }
    if (on.has('revoked-as-403') && status === 401 && body.code === 'revoked_key') status = body.status = 403;
    if (on.has('quota-actions-trimmed') && status === 402 && body.code === 'quota_exhausted' && Array.isArray(body.actions)) {
      body.actions = (body.actions as { type?: string }[]).filter((a) => a.type === 'subscribe');
    }
    if (on.has('trial-feed-open') && status === 402 && body.code === 'plan_feature_unavailable' && url.pathname === '/api/v1/changes') {
      status = 200;
      body = { data: [], next_cursor: null, as_of: new Date().toISOString(), plan: { id: 'trial' }, usage: {} };
      headers.set('content-type', 'application/json');
    }
    if (on.has('trial-lives-long') && status === 200 && url.pathname === '/api/v1/account') {
      for (const k of ((body.data as { keys?: Record<string, unknown>[] } | undefined)?.keys ?? [])) {
        if (k.plan === 'trial' && typeof k.created_at === 'string') k.expires_at = new Date(Date.parse(k.created_at) + 30 * 86_400_000).toISOString();
      }
    }
    if (on.has('plan-mislabelled') && status === 200 && body.plan && typeof body.plan === 'object') {
      const plan = body.plan as { rate_per_second?: number };
      if (typeof plan.rate_per_second === 'number') body.plan = { ...plan, rate_per_second: plan.rate_per_second + 1 };
    }
    if (on.has('as-of-goes-back') && status === 200 && typeof (body as { as_of?: unknown }).as_of === 'string' && (tick += 1) % 2 === 0) {
      (body as { as_of: string }).as_of = new Date(Date.parse((body as { as_of: string }).as_of) - 86_400_000).toISOString().replace('.000Z', 'Z');
    }
    if (on.has('statistics-off-by-one') && status === 200 && url.pathname === '/api/v1/statistics/rounds-by-year') {
      const rows = (body.data as { rows?: { rounds: number }[] } | undefined)?.rows;
      if (rows?.length) rows[rows.length - 1] = { ...rows.at(-1)!, rounds: rows.at(-1)!.rounds + 1 };
    }
    if (on.has('quota-as-429') && status === 402 && (body.code === 'trial_exhausted' || body.code === 'quota_exhausted')) {
      status = body.status = 429;
      headers.set('retry-after', '1');
    }
    if (on.has('refuse-exports') && status === 200 && url.pathname.startsWith('/api/v1/exports')) {
      answerWith('plan_feature_unavailable', 'The nightly dumps are not in your plan.');
    }
    if (on.has('frozen-usage') && status === 200 && body.usage && typeof body.usage === 'object') {
      const usage = body.usage as Record<string, unknown>;
      body.usage = { ...usage, calls_used: 0, ...(typeof usage.calls_limit === 'number' ? { calls_remaining: usage.calls_limit } : {}) };
    }
    const rows = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : null;
    if (on.has('first-seen-follows-update') && status === 200) {
      for (const row of rows ?? (body.data && typeof body.data === 'object' ? [body.data as Record<string, unknown>] : [])) if (typeof row.updated_at === 'string' && typeof row.first_seen_at === 'string') row.first_seen_at = row.updated_at;
    }
    if (rows && status === 200) {
      if (on.has('repeat-row') && cursor && lastRowBehind.has(cursor) && rows.length) {
        rows.unshift(lastRowBehind.get(cursor) as Record<string, unknown>);
        rows.pop();
      }
      if (on.has('repeat-row') && typeof body.next_cursor === 'string' && rows.length) {
        if (lastRowBehind.size > 10_000) lastRowBehind.clear();
        lastRowBehind.set(body.next_cursor, rows.at(-1));
      }
      if (on.has('cursor-ignores-filters') && typeof body.next_cursor === 'string') {
        if (issuedWith.size > 10_000) issuedWith.clear();
        const kept = new URLSearchParams();
        for (const k of filters(url.searchParams)) kept.set(k, url.searchParams.get(k)!);
        issuedWith.set(body.next_cursor, issued ?? kept);
      }
      if (on.has('stale-include-rows') && url.pathname === '/api/v1/changes') {
        for (const item of rows) if (item.row && typeof item.row === 'object') item.row = { ...(item.row as object), name: `${String((item.row as { name?: unknown }).name ?? '')} (before)` };
      }
      if (on.has('unpublished-still-listed') && url.pathname === '/api/v1/investments' && rows.length > 1) {
        // Each unpublished investment back where keyset order puts it, dressed as its neighbour.
        for (const id of unpublishedInvestments()) {
          const at = rows.findIndex((row) => String(row.id) > id);
          if (at > 0 && rows[at - 1]!.id !== id) {
            rows.splice(at, 0, { ...rows[at - 1]!, id, service_url: `https://investorgraph.example/investments/${id}` });
            rows.pop();
          }
        }
      }
      if (on.has('drop-service-url')) for (const row of rows) delete row.service_url;
      const everyRow = (edit: (row: Record<string, unknown>) => void) => rows.forEach(edit);
      if (on.has('sources-without-url')) everyRow((row) => Array.isArray(row.sources) && (row.sources as Record<string, unknown>[]).forEach((source) => delete source.url));
      if (on.has('unknown-change-kind') && url.pathname === '/api/v1/changes') everyRow((row) => (row.kind = 'delete'));
      if (on.has('fractional-amounts')) everyRow((row) => Object.keys(row).forEach((k) => k.endsWith('_usd') && typeof row[k] === 'number' && (row[k] = (row[k] as number) + 0.5)));
      if (on.has('fund-id-uppercase') && url.pathname.endsWith('/funds')) everyRow((row) => typeof row.id === 'string' && (row.id = row.id.toUpperCase()));
      if (on.has('slug-with-capitals') && url.pathname === '/api/v1/firms') everyRow((row) => typeof row.slug === 'string' && (row.slug = `X${row.slug}`));
      if (on.has('unsorted-pages') && url.pathname !== '/api/v1/changes' && url.pathname !== '/api/v1/exports') rows.reverse();
      if (on.has('unknown-evidence-tier')) for (const row of rows) if ('evidence_tier' in row) row.evidence_tier = 'rumour';
      if (on.has('endless-cursor') && body.next_cursor === null && rows.length && url.pathname !== '/api/v1/changes') body.next_cursor = 'more';
      if (on.has('leak-email') && rows[0]) rows[0] = { ...rows[0], contact_email: 'partners@example-capital.com' };
      if (on.has('unstable-updated-at')) {
        tick += 1;
        const moved = new Date(Date.now() + tick * 1000).toISOString();
        for (const row of rows) if (typeof row.updated_at === 'string') row.updated_at = moved;
      }
      if (on.has('unordered-changes') && url.pathname === '/api/v1/changes') rows.reverse();
    }
    if (on.has('links-missing') && url.pathname === '/api/v1/openapi.json' && body.paths && typeof body.paths === 'object') {
      for (const item of Object.values(body.paths as Record<string, { get?: { responses?: Record<string, { links?: unknown }> } }>)) delete item.get?.responses?.['200']?.links;
    }
    if (on.has('servers-elsewhere') && url.pathname === '/api/v1/openapi.json') (body as { servers?: unknown }).servers = [{ url: 'https://api.elsewhere.example/api/v1' }];
    if (on.has('stale-openapi') && url.pathname === '/api/v1/openapi.json' && body.paths && typeof body.paths === 'object') delete (body.paths as Record<string, unknown>)['/api/v1/offerings'];
    if (on.has('wrong-content-type') && status === 200) headers.set('content-type', 'text/plain; charset=utf-8');
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status, headers });
  };
}
