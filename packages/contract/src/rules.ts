/**
 * The spec's rules that one exchange (a request and its response) can show, beside the contract.
 * The contract tests apply them to every call they make and the validation proxy to every call it
 * forwards, so "what counts as a violation" is written once. Each rule says where it comes from:
 * a section of the spec (documented) or a heading of DECISIONS.md (assumed by the kit).
 */
import { operations, type OperationInfo } from './document.ts';
import { isPlanId, plans, type PlanId } from './plans.ts';
import type { ContractValidator } from './validator.ts';

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
  | 'cursor-continuity';

export interface RuleInfo {
  title: string;
  /** The spec section the rule rests on; null when only the kit's decisions say it. */
  spec: string | null;
  /** DECISIONS.md anchors the rule also rests on. */
  assumed: string[];
}

export const rules: Readonly<Record<RuleId, RuleInfo>> = {
  contract: { title: 'status, content type, headers and body conform to the contract (prism-http)', spec: '4. Endpoints', assumed: ['status-codes'] },
  envelope: { title: 'data answers carry data, next_cursor, as_of, plan and usage', spec: '2. Response envelope', assumed: [] },
  problem: { title: 'errors are application/problem+json with a stable code and their own status', spec: null, assumed: ['problem-body'] },
  actions: { title: 'every 401, 402 and 429 carries a non-empty actions array', spec: '7. Errors', assumed: [] },
  'retry-after': { title: 'a 429 says when to retry in Retry-After', spec: null, assumed: ['rate-limit-headers'] },
  'no-people': { title: 'no e-mail, phone, profile URL, photo or person field anywhere', spec: '1. What the service does', assumed: [] },
  'page-limit': { title: "no page is longer than limit or the plan's rows per page", spec: '4. Endpoints', assumed: ['limit'] },
  'round-lag': { title: "a trial key sees no round inside the plan's round lag", spec: '8. Limits', assumed: ['round-lag'] },
  'announced-since': { title: 'rounds from announced_since=D are announced on or after D', spec: '4. Known parameters', assumed: [] },
  'changes-order': { title: 'a page of the changes feed is in sequence order and starts at since', spec: '6. Events', assumed: ['changes-feed'] },
  'bad-input-no-5xx': { title: 'a request the contract rejects gets a 4xx, never a 5xx', spec: null, assumed: ['status-codes'] },
  'cursor-continuity': { title: 'pages reached by next_cursor never repeat a row of the same walk', spec: '4. Endpoints', assumed: ['cursor'] },
};

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
  /** The key's plan when the caller knows it; otherwise the envelope's `plan.id` is used. */
  plan?: PlanId;
}

const routes = operations
  .map((op) => ({ op, pattern: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`), literal: !op.path.includes('{') }))
  // Literal paths (/api/v1/keys/trial) win over templated ones.
  .sort((a, b) => Number(b.literal) - Number(a.literal));

/** The operation of the contract a method and path are for; null off the contract. */
export function operationFor(method: string, pathname: string): OperationInfo | null {
  return routes.find((r) => r.op.method === method.toUpperCase() && r.pattern.test(pathname))?.op ?? null;
}

const email = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const phone = /(\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}/;
const profile = /(linkedin\.com|twitter\.com|x\.com\/|facebook\.com|instagram\.com|crunchbase\.com\/person|angel\.co\/u\/|gravatar|\.(jpe?g|png|gif|webp)(\?|$))/i;
const personField = /^(first_?name|last_?name|full_?name|person|people|founders?|partners?|team|roster|employees?|email|e_mail|phone|mobile|linkedin|twitter|photo|avatar|headshot|contact|contact_email|ceo|cfo)s?$/i;

/**
 * Where people data appears in a value: e-mail addresses, phone numbers, profile-network or photo
 * URLs in any string, and person-shaped field names. Action templates (`{email}`) are not data.
 */
export function findPeople(value: unknown, at = 'body', hits: string[] = []): string[] {
  if (typeof value === 'string') {
    if (email.test(value) || phone.test(value) || profile.test(value)) hits.push(`${at}: ${value.slice(0, 80)}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => findPeople(v, `${at}[${i}]`, hits));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // The get_trial_key action's body template names the request member `email`; it holds no address.
      const template = /\.actions\[\d+\]\.body$/.test(at);
      if (personField.test(k) && !template) hits.push(`${at}.${k} (a person field)`);
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

type Envelope = { data?: unknown; next_cursor?: unknown; as_of?: unknown; plan?: { id?: unknown; rows_per_page?: unknown; round_lag_days?: unknown }; usage?: unknown };
const DAY = 86_400_000;

/** Every rule above that this one exchange can break, with what it saw. */
export function checkExchange(validator: ContractValidator, exchange: Exchange): Finding[] {
  const findings: Finding[] = [];
  const add = (rule: RuleId, message: string): void => void findings.push({ rule, message });
  const url = new URL(exchange.url, 'http://api.invalid');
  const headers = lower(exchange.headers);
  const type = headers['content-type'] ?? '';
  const op = operationFor(exchange.method, url.pathname);
  const body = exchange.body as Envelope & { code?: unknown; status?: unknown; actions?: unknown };
  // parseBody hands back the text when it is not JSON: a JSON content type over such a body (cut
  // short, or not JSON at all) breaks the contract whatever schema the status has.
  if (type.includes('json') && typeof exchange.body === 'string' && exchange.body !== '') add('contract', `the body is not valid JSON although its content type is ${type}: ${exchange.body.slice(0, 60)}`);

  if (exchange.status >= 500 && op) {
    const request = validator.validateRequest(op.operationId, {
      method: exchange.method,
      path: url.pathname,
      query: queryOf(url.searchParams),
      headers: exchange.requestHeaders ?? {},
      ...(exchange.requestBody === undefined ? {} : { body: exchange.requestBody }),
    }).filter((v) => v.severity === 'error');
    if (request.length) add('bad-input-no-5xx', `${exchange.status} for a request the contract rejects (${request[0]!.path || 'request'}: ${request[0]!.message})`);
  }
  if (op && exchange.status !== 405) {
    for (const v of validator.validateResponse(op.operationId, { status: exchange.status, headers, body: exchange.body })) {
      // prism-http rates an undocumented status or content type a warning; the spec's "documented" makes it an error here.
      if (v.severity === 'error' || /^Unable to match/.test(v.message)) add('contract', `${op.operationId} ${exchange.status}: ${v.path ? `${v.path} ` : ''}${v.message}`);
    }
  }
  // A HEAD answer is the GET's headers without its body (RFC 9110): nothing in a body to check.
  const bodiless = exchange.method.toUpperCase() === 'HEAD';
  if (exchange.status >= 400) {
    if (!type.includes('application/problem+json')) add('problem', `a ${exchange.status} answered as ${type || 'no content type'}`);
    else if (!bodiless && (typeof body?.code !== 'string' || body.status !== exchange.status)) add('problem', `a ${exchange.status} problem without a code or with status ${String(body?.status)}`);
    if (!bodiless && [401, 402, 429].includes(exchange.status) && !(Array.isArray(body?.actions) && body.actions.length > 0)) add('actions', `a ${exchange.status} without actions`);
    if (exchange.status === 429 && !/^\d+$/.test(headers['retry-after'] ?? '')) add('retry-after', `a 429 with Retry-After ${JSON.stringify(headers['retry-after'] ?? null)}`);
  }
  // The contract document itself is metadata (its contact, a plan named team), not served data.
  if (op?.operationId !== 'getOpenApiDocument') for (const hit of findPeople(exchange.body).slice(0, 3)) add('no-people', hit);

  const isData = op && op.security && op.operationId !== 'getAccount' && exchange.status === 200 && type.includes('json');
  // Past here the rules read the envelope: a body that is no JSON object has been reported above.
  if (!isData || typeof exchange.body !== 'object' || exchange.body === null) return findings;
  const missing = ['data', 'next_cursor', 'as_of', 'plan', 'usage'].filter((k) => !body || !(k in body));
  if (missing.length) {
    add('envelope', `the envelope lacks ${missing.join(', ')}`);
    return findings;
  }
  const planId = exchange.plan ?? (isPlanId(body.plan?.id) ? body.plan.id : undefined);
  if (Array.isArray(body.data)) {
    const rawLimit = url.searchParams.get('limit');
    const limit = rawLimit !== null && /^\d+$/.test(rawLimit) ? Number(rawLimit) : null;
    const cap = planId ? plans[planId].rows_per_page : typeof body.plan?.rows_per_page === 'number' ? body.plan.rows_per_page : null;
    if (limit !== null && body.data.length > limit) add('page-limit', `${body.data.length} rows for limit=${limit}`);
    if (cap !== null && body.data.length > cap) add('page-limit', `${body.data.length} rows on a plan with ${cap} rows per page`);
    if (op.operationId === 'listChanges') {
      const items = body.data as { sequence?: number; changed_at?: string }[];
      const since = Date.parse(url.searchParams.get('since') ?? '');
      const back = items.findIndex((item, i) => i > 0 && !((item.sequence ?? 0) > (items[i - 1]!.sequence ?? 0)));
      if (back > 0) add('changes-order', `change ${items[back]!.sequence} comes after ${items[back - 1]!.sequence}`);
      const early = items.find((item) => Date.parse(item.changed_at ?? '') < since);
      if (early) add('changes-order', `change ${early.sequence} at ${early.changed_at} is before since`);
    }
    const rounds = (body.data as { announced_on?: unknown }[]).filter((r) => typeof r?.announced_on === 'string');
    const isRounds = op.operationId === 'listRounds' || op.operationId === 'listCompanyRounds';
    const since = url.searchParams.get('announced_since');
    if (isRounds && since) {
      const early = rounds.find((r) => (r.announced_on as string) < since);
      if (early) add('announced-since', `a round announced ${String(early.announced_on)} for announced_since=${since}`);
    }
    if (isRounds && planId && plans[planId].round_lag_days > 0 && typeof body.as_of === 'string') {
      const limitDay = new Date(Date.parse(body.as_of) - plans[planId].round_lag_days * DAY).toISOString().slice(0, 10);
      const recent = rounds.find((r) => (r.announced_on as string) > limitDay);
      if (recent) add('round-lag', `a ${planId} key saw a round announced ${String(recent.announced_on)}, inside the ${plans[planId].round_lag_days}-day lag before ${body.as_of}`);
    }
  }
  return findings;
}

/** What identifies a row across pages: its service URL (on every row), else its feed sequence. */
export function rowIdentity(row: unknown): string {
  const r = row as { service_url?: unknown; sequence?: unknown };
  return typeof r?.service_url === 'string' ? r.service_url : typeof r?.sequence === 'number' ? `#${r.sequence}` : JSON.stringify(row);
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

  observe(exchange: Exchange): Finding[] {
    if (exchange.status !== 200) return [];
    const body = exchange.body as Envelope;
    if (!body || !Array.isArray(body.data)) return [];
    const url = new URL(exchange.url, 'http://api.invalid');
    const cursor = url.searchParams.get('cursor');
    const walk = (cursor && this.#walks.get(cursor)) || { seen: new Set<string>(), last: null };
    if (cursor) this.#walks.delete(cursor);
    const findings: Finding[] = [];
    for (const row of body.data) {
      const id = rowIdentity(row);
      if (walk.seen.has(id)) findings.push({ rule: 'cursor-continuity', message: `${url.pathname}: row ${id} came again on a later page of the same walk` });
      if (walk.seen.size < this.maxRowsPerWalk) walk.seen.add(id);
    }
    if (typeof body.next_cursor === 'string') {
      if (this.#walks.size >= this.maxWalks) this.#walks.delete(this.#walks.keys().next().value!);
      this.#walks.set(body.next_cursor, walk);
    }
    return findings;
  }
}
