/**
 * The spec's rules that one exchange (a request and its response) can show, beside the contract.
 * Each rule carries its own check (as schemathesis registers one function per check), and the
 * contract tests, the validation proxy and the mock's conformance suite all run them through
 * checkExchange, so "what counts as a violation" is written once. Each rule says where it comes
 * from: a section of the spec (documented) or a heading of DECISIONS.md (assumed by the kit).
 */
import { isPersonFieldName, isPersonValue } from './people.ts';
import { operationFor } from './router.ts';
import { isPlanId, plans, type PlanId } from './plans.ts';
import type { OperationInfo } from './document.ts';
import type { ContractValidator } from './validator.ts';

// Where it was before the router had a module of its own.
export { operationFor } from './router.ts';

export type RuleId =
  | 'contract'
  | 'envelope'
  | 'problem'
  | 'actions'
  | 'retry-after'
  | 'no-people'
  | 'page-limit'
  | 'round-lag'
  | 'announced-since'
  | 'changes-order'
  | 'bad-input-no-5xx'
  | 'cursor-continuity'
  | 'key-not-echoed'
  | 'rate-limit-headers'
  | 'cache-headers'
  | 'request-id'
  | 'action-shapes';

export interface RuleInfo {
  title: string;
  /** The spec section the rule rests on; null when only the kit's decisions say it. */
  spec: string | null;
  /** DECISIONS.md anchors the rule also rests on. */
  assumed: string[];
}

export interface Rule extends RuleInfo {
  /** What in this exchange breaks the rule, one message per finding; empty when it holds. */
  check(seen: Seen): string[];
}

export interface Finding {
  rule: RuleId;
  message: string;
}

/** One call as seen on the wire. `body` is the parsed JSON, or the text when it is not JSON. */
export interface Exchange {
  method: string;
  /** Path and query (an absolute URL works too). */
  url: string;
  requestHeaders?: Record<string, string>;
  requestBody?: unknown;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Why the body could not be read (it does not decode as its Content-Encoding says), when it could not. */
  bodyError?: string;
  /** The key's plan when the caller knows it; otherwise the envelope's `plan.id` is used. */
  plan?: PlanId;
  /**
   * The X-Request-Id the caller made for this request and knows to hold no key: the answer echoes
   * it (an id that holds a key the service knows is replaced, and only the service knows its keys).
   */
  requestId?: string;
}

/**
 * Where people data appears in a value: e-mail addresses, phone numbers, profile-network or photo
 * URLs in any string, and person-shaped field names. Action templates (`{email}`) are not data.
 */
export function findPeople(value: unknown, at = 'body', hits: string[] = []): string[] {
  if (typeof value === 'string') {
    if (isPersonValue(value)) hits.push(`${at}: ${value.slice(0, 80)}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => findPeople(v, `${at}[${i}]`, hits));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // The get_trial_key action's body template names the request member `email`; it holds no address.
      const template = /\.actions\[\d+\]\.body$/.test(at);
      if (isPersonFieldName(k) && !template) hits.push(`${at}.${k} (a person field)`);
      findPeople(v, `${at}.${k}`, hits);
    }
  }
  return hits;
}

/** A body as the rules read it: parsed when it is JSON and parses, else the text itself. */
export function parseBody(text: string, contentType: string | null = 'application/json'): unknown {
  if (!text || !(contentType ?? '').includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function lower(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Query parameters as prism-http takes them: a repeated name becomes a list. */
export function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    const had = out[k];
    out[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  return out;
}

type Envelope = {
  data: unknown;
  next_cursor: unknown;
  as_of: unknown;
  plan: { id?: unknown; rows_per_page?: unknown; round_lag_days?: unknown };
  usage: unknown;
};
const envelopeMembers = ['data', 'next_cursor', 'as_of', 'plan', 'usage'] as const;
const DAY = 86_400_000;

/** One exchange as the checks read it, worked out once. */
export interface Seen {
  exchange: Exchange;
  url: URL;
  /** Response headers by lower-case name. */
  headers: Record<string, string>;
  /** The response's content type, '' when it has none. */
  type: string;
  /** The operation of the contract the request is for; null off the contract. */
  op: OperationInfo | null;
  /** A HEAD answer is the GET's headers without its body (RFC 9110): nothing in a body to check. */
  bodiless: boolean;
  /** The body when it is a JSON object, else null. */
  object: Record<string, unknown> | null;
  /** A data operation's 200 JSON answer: a data answer owes the envelope. */
  isData: boolean;
  /** The envelope of a data answer that has all its members; null otherwise. */
  envelope: Envelope | null;
  /** The key's plan, from the caller or else the envelope. */
  plan: PlanId | undefined;
  validator: ContractValidator;
  /** The walks seen so far, for the rules that span exchanges; without it they are not checked. */
  walks?: PageTracker;
}

/** The rows of a data answer's page; null when the answer is not a page. */
function pageRows(seen: Seen): unknown[] | null {
  return seen.envelope && Array.isArray(seen.envelope.data) ? seen.envelope.data : null;
}

function isRounds(seen: Seen): boolean {
  return seen.op?.operationId === 'listRounds' || seen.op?.operationId === 'listCompanyRounds';
}

function roundsOf(rows: unknown[]): { announced_on: string }[] {
  return rows.filter(
    (r): r is { announced_on: string } => typeof (r as { announced_on?: unknown })?.announced_on === 'string',
  );
}

export const rules: Readonly<Record<RuleId, Rule>> = {
  contract: {
    title: 'status, content type, headers and body conform to the contract (prism-http)',
    spec: '4. Endpoints',
    assumed: ['status-codes'],
    check({ exchange, op, type, headers, validator }) {
      const out: string[] = exchange.bodyError ? [exchange.bodyError] : [];
      // parseBody hands back the text when it is not JSON: a JSON content type over such a body (cut
      // short, or not JSON at all) breaks the contract whatever schema the status has.
      if (type.includes('json') && typeof exchange.body === 'string' && exchange.body !== '')
        out.push(`the body is not valid JSON although its content type is ${type}: ${exchange.body.slice(0, 60)}`);
      if (!op || exchange.status === 405) return out;
      // The 500 and the 502-504 are documented so that their problems are held to the contract (OWASP
      // API8), but a service failing or unavailable is never a conforming answer to a check: a run
      // that met one has not shown the rule holds (DECISIONS.md#status-codes).
      if (exchange.status === 500)
        out.push(`${op.operationId} 500: the service failed (a documented problem, never a conforming answer)`);
      // A 502 or 504 says the same of a server behind the gateway.
      if (exchange.status === 502 || exchange.status === 503 || exchange.status === 504)
        out.push(
          `${op.operationId} ${exchange.status}: the service was unavailable (a documented answer, never a ` +
            `conforming one: run again when it is up)`,
        );
      for (const v of validator.validateResponse(op.operationId, {
        status: exchange.status,
        headers,
        body: exchange.body,
      })) {
        // prism-http rates an undocumented status or content type a warning; the spec's
        // "documented" makes it an error here.
        if (v.severity === 'error' || /^Unable to match/.test(v.message))
          out.push(`${op.operationId} ${exchange.status}: ${v.path ? `${v.path} ` : ''}${v.message}`);
      }
      return out;
    },
  },
  envelope: {
    title: 'data answers carry data, next_cursor, as_of, plan and usage',
    spec: '2. Response envelope',
    assumed: [],
    check({ isData, object, exchange }) {
      if (!isData) return [];
      // A body that is no JSON at all is the contract rule's finding; one that is JSON but no object has no envelope.
      if (!object)
        return typeof exchange.body === 'string' ? [] : ['the answer is no JSON object, so it has no envelope'];
      const missing = envelopeMembers.filter((k) => !(k in object));
      return missing.length ? [`the envelope lacks ${missing.join(', ')}`] : [];
    },
  },
  problem: {
    title: 'errors are application/problem+json with a stable code and their own status',
    spec: null,
    assumed: ['problem-body'],
    check({ exchange, op, type, bodiless, object }) {
      if (exchange.status < 400) return [];
      if (!type.includes('application/problem+json'))
        return [`a ${exchange.status} answered as ${type || 'no content type'}`];
      if (bodiless) return [];
      const code = object?.code;
      if (typeof code !== 'string' || code === '') return [`a ${exchange.status} problem without a code`];
      // The contract's Problem schema holds the code's form on its operations (the contract rule
      // says so there); off the contract (an unknown path's 404) this rule is all there is.
      if (!op && !/^[a-z][a-z0-9_]*$/.test(code))
        return [
          `a ${exchange.status} problem whose code ${JSON.stringify(code)} is no machine code (lower snake case)`,
        ];
      return object!.status === exchange.status
        ? []
        : [`a ${exchange.status} problem with status ${JSON.stringify(object!.status ?? null)}`];
    },
  },
  actions: {
    title: 'every 401, 402 and 429 carries a non-empty actions array',
    spec: '7. Errors',
    assumed: [],
    check({ exchange, bodiless, object }) {
      if (bodiless || ![401, 402, 429].includes(exchange.status)) return [];
      // The mock's control endpoints are no part of the API (DECISIONS.md#status-codes): an admin
      // refused there has nothing of the API's to be offered.
      if (new URL(exchange.url, 'http://judge.invalid').pathname.startsWith('/__control/')) return [];
      return Array.isArray(object?.actions) && object.actions.length > 0
        ? []
        : [`a ${exchange.status} without actions`];
    },
  },
  'action-shapes': {
    title:
      'each action says what its type needs: get_trial_key the trial call (POST, its JSON content type, a body ' +
      'template with the e-mail), buy_prepaid_rows its smallest pack, subscribe its plan',
    spec: null,
    assumed: ['actions'],
    check({ object, bodiless }) {
      if (bodiless || !Array.isArray(object?.actions)) return [];
      return (object.actions as Record<string, unknown>[]).flatMap((action, i) => {
        const at = `actions[${i}] (${String(action?.type)})`;
        switch (action?.type) {
          case 'get_trial_key': {
            const body = action.body as Record<string, unknown> | undefined;
            const wrong = [
              action.method !== 'POST' && `method ${JSON.stringify(action.method)}`,
              !String(action.href).endsWith('/api/v1/keys/trial') && `href ${JSON.stringify(action.href)}`,
              action.content_type !== 'application/json' && `content_type ${JSON.stringify(action.content_type)}`,
              !(typeof body?.email === 'string' && body.email.includes('{email}')) &&
                `body ${JSON.stringify(body ?? null)} (no "email" template)`,
            ].filter((w): w is string => typeof w === 'string');
            return wrong.length ? [`${at}: ${wrong.join(', ')}`] : [];
          }
          case 'buy_prepaid_rows':
            return Number.isInteger(action.rows) && (action.rows as number) > 0
              ? []
              : [`${at}: rows ${JSON.stringify(action.rows ?? null)}, not the smallest pack`];
          case 'subscribe':
            return isPlanId(action.plan) ? [] : [`${at}: plan ${JSON.stringify(action.plan ?? null)}, no plan named`];
          default:
            return [];
        }
      });
    },
  },
  'retry-after': {
    title: 'a 429 says when to retry in Retry-After',
    spec: null,
    assumed: ['rate-limit-headers'],
    check({ exchange, headers }) {
      return exchange.status === 429 && !/^\d+$/.test(headers['retry-after'] ?? '')
        ? [`a 429 with Retry-After ${JSON.stringify(headers['retry-after'] ?? null)}`]
        : [];
    },
  },
  'no-people': {
    title: 'no e-mail, phone, profile URL, photo or person field anywhere',
    spec: '1. What the service does',
    assumed: [],
    // The contract document itself is metadata (its contact, a plan named team), not served data.
    check: ({ exchange, op }) =>
      op?.operationId === 'getOpenApiDocument' ? [] : findPeople(exchange.body).slice(0, 3),
  },
  'page-limit': {
    title: "no page is longer than limit or the plan's rows per page",
    spec: '4. Endpoints',
    assumed: ['limit'],
    check(seen) {
      const rows = pageRows(seen);
      if (!rows) return [];
      const out: string[] = [];
      const rawLimit = seen.url.searchParams.get('limit');
      const limit = rawLimit !== null && /^\d+$/.test(rawLimit) ? Number(rawLimit) : null;
      const stated = seen.envelope!.plan?.rows_per_page;
      const cap = seen.plan ? plans[seen.plan].rows_per_page : typeof stated === 'number' ? stated : null;
      if (limit !== null && rows.length > limit) out.push(`${rows.length} rows for limit=${limit}`);
      if (cap !== null && rows.length > cap) out.push(`${rows.length} rows on a plan with ${cap} rows per page`);
      return out;
    },
  },
  'round-lag': {
    title: "a trial key sees no round inside the plan's round lag",
    spec: '8. Limits',
    assumed: ['round-lag'],
    check(seen) {
      const rows = pageRows(seen);
      const lag = seen.plan ? plans[seen.plan].round_lag_days : 0;
      const asOf = seen.envelope?.as_of;
      // A malformed as_of is the contract rule's finding; nothing to measure the lag from here.
      if (!rows || !isRounds(seen) || lag <= 0 || typeof asOf !== 'string' || Number.isNaN(Date.parse(asOf))) return [];
      const limitDay = new Date(Date.parse(asOf) - lag * DAY).toISOString().slice(0, 10);
      const recent = roundsOf(rows).find((r) => r.announced_on > limitDay);
      return recent
        ? [`a ${seen.plan} key saw a round announced ${recent.announced_on}, inside the ${lag}-day lag before ${asOf}`]
        : [];
    },
  },
  'announced-since': {
    title: 'rounds from announced_since=D are announced on or after D',
    spec: '4. Known parameters',
    assumed: [],
    check(seen) {
      const rows = pageRows(seen);
      const since = seen.url.searchParams.get('announced_since');
      if (!rows || !isRounds(seen) || !since) return [];
      const early = roundsOf(rows).find((r) => r.announced_on < since);
      return early ? [`a round announced ${early.announced_on} for announced_since=${since}`] : [];
    },
  },
  'changes-order': {
    title: 'a page of the changes feed is in sequence order and starts at since',
    spec: '6. Events',
    assumed: ['changes-feed'],
    check(seen) {
      const rows = pageRows(seen);
      if (!rows || seen.op?.operationId !== 'listChanges') return [];
      const out: string[] = [];
      const items = rows as { sequence?: number; changed_at?: string }[];
      const since = Date.parse(seen.url.searchParams.get('since') ?? '');
      const back = items.findIndex((item, i) => i > 0 && !((item.sequence ?? 0) > (items[i - 1]!.sequence ?? 0)));
      if (back > 0) out.push(`change ${items[back]!.sequence} comes after ${items[back - 1]!.sequence}`);
      const early = items.find((item) => Date.parse(item.changed_at ?? '') < since);
      if (early) out.push(`change ${early.sequence} at ${early.changed_at} is before since`);
      return out;
    },
  },
  'bad-input-no-5xx': {
    title: 'a request the contract rejects gets a 4xx, never a 5xx',
    spec: null,
    assumed: ['status-codes'],
    check({ exchange, op, url, validator }) {
      if (exchange.status < 500 || !op) return [];
      const request = validator
        .validateRequest(op.operationId, {
          method: exchange.method,
          path: url.pathname,
          query: queryOf(url.searchParams),
          headers: exchange.requestHeaders ?? {},
          ...(exchange.requestBody === undefined ? {} : { body: exchange.requestBody }),
        })
        .filter((v) => v.severity === 'error');
      return request.length
        ? [
            `${exchange.status} for a request the contract rejects (${request[0]!.path || 'request'}: ` +
              `${request[0]!.message})`,
          ]
        : [];
    },
  },
  'cursor-continuity': {
    title: 'pages reached by next_cursor never repeat a row of the same walk',
    spec: '4. Endpoints',
    assumed: ['cursor'],
    check: ({ exchange, walks }) => walks?.observe(exchange) ?? [],
  },
  'key-not-echoed': {
    title: 'a key is shown once, at creation: no other answer holds the key the request sent',
    spec: '5. Authentication',
    assumed: ['trial-key-response'],
    check({ exchange }) {
      const key = sentKey(exchange);
      if (!key) return [];
      // The message never holds the key: it goes into reports and logs.
      const where = [...Object.entries(exchange.headers)]
        .filter(([, v]) => v.includes(key))
        .map(([k]) => `header ${k}`);
      const text = typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body ?? '');
      if (text.includes(key)) where.push('body');
      return where.length ? [`the answer shows the key the request sent (in its ${where.join(', ')})`] : [];
    },
  },
  'rate-limit-headers': {
    title: "data answers state the plan's rate in RateLimit-Policy and what is left of it in RateLimit",
    spec: null,
    assumed: ['rate-limit-headers', 'http-conventions'],
    check({ isData, plan, headers, exchange }) {
      // A forced example (Prefer, answered with Preference-Applied) is the contract's example, not a counted call.
      if (!plan || !(isData || exchange.status === 429) || headers['preference-applied'] !== undefined) return [];
      // An address past its budget of calls without a valid key is refused before any key is
      // looked at: that 429 is the address's, and no plan's rate is known to state.
      if ((exchange.body as { code?: unknown } | null)?.code === 'too_many_failures') return [];
      const rule = plans[plan];
      const policy = headerItems(headers['ratelimit-policy']);
      const left = headerItems(headers.ratelimit);
      const out: string[] = [];
      const rate = policy.get('default');
      if (!rate)
        out.push(`RateLimit-Policy ${JSON.stringify(headers['ratelimit-policy'] ?? null)} has no "default" item`);
      else if (Number(rate.q) !== rule.rate_per_second || rate.w !== '1')
        out.push(
          `RateLimit-Policy states ${rate.q} a ${rate.w}-second window; the ${plan} plan's rate is ` +
            `${rule.rate_per_second} a second`,
        );
      const now = left.get('default');
      if (!now) out.push(`RateLimit ${JSON.stringify(headers.ratelimit ?? null)} has no "default" item`);
      else if (!/^\d+$/.test(now.r ?? '') || Number(now.r) > rule.rate_per_second || !/^\d+$/.test(now.t ?? ''))
        out.push(`RateLimit "default" r=${now.r} t=${now.t} is not what is left of ${rule.rate_per_second} a second`);
      const quota = policy.get('quota');
      if (quota && Number(quota.q) !== rule.calls_limit)
        out.push(`RateLimit-Policy states a quota of ${quota.q} calls; the ${plan} plan's is ${rule.calls_limit}`);
      return out;
    },
  },
  'cache-headers': {
    title:
      'a data answer may be kept by its client alone and revalidated (Cache-Control private and no-cache, ' +
      'Vary: Authorization), an error not at all (no-store), and an answer to a cross-origin call exposes ' +
      'the headers a client reads',
    spec: null,
    assumed: ['http-conventions'],
    check({ op, exchange, headers }) {
      // A forced example is the contract's example, not the service's answer; the contract document
      // is a file a service may serve from a static host or CDN, with headers of its own.
      if (!op || headers['preference-applied'] !== undefined || op.operationId === 'getOpenApiDocument') return [];
      const out: string[] = [];
      const stated = JSON.stringify(headers['cache-control'] ?? null);
      const directives = new Set(tokens(headers['cache-control']));
      const { status } = exchange;
      if (op.security && (status === 200 || status === 304)) {
        // private: no shared cache may keep one key's answer for another; no-cache (or max-age=0):
        // the client revalidates with the ETag before reusing it.
        if (
          !directives.has('private') ||
          directives.has('public') ||
          [...directives].some((d) => d.startsWith('s-maxage'))
        )
          out.push(`a data answer with Cache-Control ${stated}: a shared cache may keep it (it must be private)`);
        if (!directives.has('no-cache') && !directives.has('max-age=0') && !directives.has('no-store'))
          out.push(`a data answer with Cache-Control ${stated}: a client may reuse it without revalidating (no-cache)`);
        const vary = tokens(headers.vary);
        const varies = JSON.stringify(headers.vary ?? null);
        if (!vary.includes('authorization') && !vary.includes('*'))
          out.push(`a data answer with Vary ${varies}: not by Authorization, while each key is answered differently`);
      }
      if (status >= 400 && !directives.has('no-store'))
        out.push(`a ${status} with Cache-Control ${stated}: an error is not to be kept (no-store)`);
      if (headers['access-control-allow-origin'] !== undefined && exchange.method.toUpperCase() !== 'OPTIONS') {
        const exposed = tokens(headers['access-control-expose-headers']);
        const missing = exposedHeaders.filter(
          (name) => !exposed.includes(name.toLowerCase()) && !exposed.includes('*'),
        );
        const said = JSON.stringify(headers['access-control-expose-headers'] ?? null);
        if (missing.length)
          out.push(
            `a cross-origin answer that does not expose ${missing.join(', ')} (Access-Control-Expose-Headers ${said})`,
          );
      }
      return out;
    },
  },
  'request-id': {
    title:
      'an answer echoes the well-formed X-Request-Id its caller made for it, and a problem names in request_id ' +
      'the id its X-Request-Id header gives',
    spec: null,
    assumed: ['http-conventions'],
    check({ op, exchange, headers, object, type }) {
      // As cache-headers: the service's own answers, not a forced example or the contract document's file.
      if (!op || headers['preference-applied'] !== undefined || op.operationId === 'getOpenApiDocument') return [];
      const out: string[] = [];
      const sent = exchange.requestId;
      const answered = headers['x-request-id'];
      if (sent !== undefined && wellFormedRequestId.test(sent) && answered !== sent)
        out.push(`the request sent X-Request-Id ${sent}; the answer's is ${JSON.stringify(answered ?? null)}`);
      const named = object?.request_id;
      if (type.includes('problem') && typeof named === 'string' && answered !== undefined && named !== answered)
        out.push(
          `the problem's request_id ${JSON.stringify(named)} is not its X-Request-Id ${JSON.stringify(answered)}`,
        );
      return out;
    },
  },
};

/** An X-Request-Id a service echoes (DECISIONS.md#http-conventions): 1 to 128 of `A-Z a-z 0-9 . _ : -`. */
const wellFormedRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** What an answer to a cross-origin call exposes to the script that made it (DECISIONS.md#http-conventions). */
const exposedHeaders = ['ETag', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id', 'WWW-Authenticate'];

/** The comma-separated items of a header, in lower case, spaces around them trimmed. */
function tokens(value: string | undefined): string[] {
  return (value ?? '')
    .toLowerCase()
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The items of a structured header (RFC 9651 list of `"name";param=value`), by name. */
function headerItems(value: string | undefined): Map<string, Record<string, string>> {
  const items = new Map<string, Record<string, string>>();
  for (const item of (value ?? '').split(',')) {
    const [name, ...params] = item.trim().split(';');
    if (!name) continue;
    items.set(
      name.replace(/^"|"$/g, ''),
      Object.fromEntries(params.map((p) => p.trim().split('=') as [string, string])),
    );
  }
  return items;
}

/** The bearer key a request sent, when it is long enough to be a key and not a guess. */
function sentKey(exchange: Exchange): string | null {
  const auth = lower(exchange.requestHeaders).authorization ?? '';
  const key = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  return key && key.length >= 16 ? key : null;
}

/** The exchange worked out once for the checks. */
export function see(validator: ContractValidator, exchange: Exchange, walks?: PageTracker): Seen {
  const url = new URL(exchange.url, 'http://api.invalid');
  const headers = lower(exchange.headers);
  const op = operationFor(exchange.method, url.pathname);
  const body = exchange.body;
  const object = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  const type = headers['content-type'] ?? '';
  const isData =
    !!op && op.security && op.operationId !== 'getAccount' && exchange.status === 200 && type.includes('json');
  const envelope =
    isData && object && envelopeMembers.every((k) => k in object) ? (object as unknown as Envelope) : null;
  const stated = envelope?.plan?.id;
  return {
    exchange,
    url,
    headers,
    type,
    op,
    bodiless: exchange.method.toUpperCase() === 'HEAD',
    object,
    isData,
    envelope,
    plan: exchange.plan ?? (isPlanId(stated) ? stated : undefined),
    validator,
    ...(walks ? { walks } : {}),
  };
}

/**
 * Every rule that this one exchange can break, with what it saw. Given `walks`, the rules that span
 * exchanges (a cursor walk) are checked too, and the exchange is added to them.
 */
export function checkExchange(validator: ContractValidator, exchange: Exchange, walks?: PageTracker): Finding[] {
  const seen = see(validator, exchange, walks);
  return (Object.keys(rules) as RuleId[]).flatMap((rule) => checkRule(seen, rule));
}

/** One rule on what `see` saw (the proxy takes them one at a time, to stay answerable between). */
export function checkRule(seen: Seen, rule: RuleId): Finding[] {
  try {
    return rules[rule].check(seen).map((message) => ({ rule, message }));
  } catch (error) {
    // An answer a check cannot even read (a shape no rule foresaw) is reported against that
    // rule, never thrown at the proxy or the test run that is looking at it.
    return [{ rule, message: `the answer could not be checked: ${(error as Error).message}` }];
  }
}

/** What identifies a row across pages: its service URL (on every row), else its feed sequence. */
export function rowIdentity(row: unknown): string {
  const r = row as { service_url?: unknown; sequence?: unknown };
  return typeof r?.service_url === 'string'
    ? r.service_url
    : typeof r?.sequence === 'number'
      ? `#${r.sequence}`
      : JSON.stringify(row);
}

interface WalkState {
  seen: Set<string>;
  last: string | null;
}

/**
 * Follows walks through a stream of exchanges: a page fetched with a cursor that an earlier page
 * handed out must not repeat a row of that walk. Bounded, so a long-running proxy cannot grow
 * without end: the oldest walks are forgotten first.
 */
export class PageTracker {
  readonly #walks = new Map<string, WalkState>();
  readonly maxWalks: number;
  readonly maxRowsPerWalk: number;
  constructor(maxWalks = 1_000, maxRowsPerWalk = 100_000) {
    this.maxWalks = maxWalks;
    this.maxRowsPerWalk = maxRowsPerWalk;
  }

  /** Adds a page to its walk; what it repeats of the walk, one message per row. */
  observe(exchange: Exchange): string[] {
    if (exchange.status !== 200) return [];
    const body = exchange.body as Partial<Envelope> | null;
    if (!body || !Array.isArray(body.data)) return [];
    const url = new URL(exchange.url, 'http://api.invalid');
    const cursor = url.searchParams.get('cursor');
    const walk = (cursor && this.#walks.get(cursor)) || { seen: new Set<string>(), last: null };
    if (cursor) this.#walks.delete(cursor);
    const findings: string[] = [];
    for (const row of body.data) {
      const id = rowIdentity(row);
      if (walk.seen.has(id)) findings.push(`${url.pathname}: row ${id} came again on a later page of the same walk`);
      if (walk.seen.size < this.maxRowsPerWalk) walk.seen.add(id);
    }
    if (typeof body.next_cursor === 'string') {
      if (this.#walks.size >= this.maxWalks) this.#walks.delete(this.#walks.keys().next().value!);
      this.#walks.set(body.next_cursor, walk);
    }
    return findings;
  }
}
