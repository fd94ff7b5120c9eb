/**
 * Every error the mock can answer, in one table: status, stable code, title and which actions go
 * with it. Raise `new ProblemError(code, detail)` anywhere; the engine turns it into RFC 9457
 * problem+json. Kept in step with DECISIONS.md#status-codes and #actions.
 */
import { nextPlanUp, type PlanId } from '@investor-graph/contract/plans';
import { toResponse, type Answer } from './answer.ts';
import { action, outOfCalls, unauthenticated } from './actions.ts';
import { problemBody, problemText, uriReference, type ProblemType } from './problem-bodies.ts';

export { action, type Action, type ActionType } from './actions.ts';
export { problemAnswer, problemBody, problemResponse, uriReference, type ProblemType } from './problem-bodies.ts';

export const problemTypes = {
  invalid_parameter: { status: 400, title: 'Invalid parameter' },
  unknown_parameter: { status: 400, title: 'Unknown parameter' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  invalid_body: { status: 400, title: 'Invalid body' },
  invalid_request: { status: 400, title: 'Invalid request' },
  missing_key: { status: 401, title: 'API key required', actions: unauthenticated },
  invalid_key: { status: 401, title: 'Unknown API key', actions: unauthenticated },
  revoked_key: { status: 401, title: 'API key revoked', actions: unauthenticated },
  trial_exhausted: {
    status: 402,
    title: 'Trial used up',
    actions: () => ['subscribe', 'buy_prepaid_rows', 'book_call'],
  },
  trial_expired: { status: 402, title: 'Trial expired', actions: () => ['subscribe', 'buy_prepaid_rows', 'book_call'] },
  quota_exhausted: { status: 402, title: 'Call quota used up', actions: outOfCalls },
  insufficient_balance: {
    status: 402,
    title: 'Prepaid balance too low',
    actions: () => ['buy_prepaid_rows', 'subscribe', 'book_call'],
  },
  plan_feature_unavailable: {
    status: 402,
    title: 'Not included in your plan',
    actions: () => ['subscribe', 'book_call'],
  },
  not_found: { status: 404, title: 'Not found' },
  unknown_statistic: { status: 404, title: 'Unknown statistic' },
  route_not_found: { status: 404, title: 'No such endpoint' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  trial_exists: { status: 409, title: 'Trial already issued' },
  request_timeout: { status: 408, title: 'Request timeout' },
  headers_too_large: { status: 431, title: 'Headers too large' },
  expectation_failed: { status: 417, title: 'Expectation failed' },
  payload_too_large: { status: 413, title: 'Body too large' },
  uri_too_long: { status: 414, title: 'URI too long' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  too_many_failures: {
    status: 429,
    title: 'Too many calls without a valid key',
    actions: () => ['get_trial_key', 'book_call'],
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    actions: (plan) => (plan && nextPlanUp(plan) ? ['subscribe', 'book_call'] : ['book_call']),
  },
  control_forbidden: { status: 403, title: 'Control endpoints are loopback-only' },
  // The control plane is the kit's, not the API's: nothing to buy, so its 429 offers no action.
  control_throttled: { status: 429, title: 'Too many failed control calls', actions: () => [] },
  // More incidents in force than the mock holds (incidents/incidents.ts's cap): end some first.
  too_many_incidents: { status: 409, title: 'Too many incidents in force' },
  // The kit's own failure, never the client's: no detail beyond where to look in the mock's log.
  internal_error: { status: 500, title: 'The mock failed' },
  // The state database shared by several mocks stayed locked (by something else): try again soon.
  state_busy: { status: 503, title: "The mock's state is busy" },
  // The state server the mocks share (--state redis://) did not answer in time: nothing was served or counted.
  state_unavailable: { status: 503, title: "The mock's state store is unavailable" },
  // What a test's incident (/__control/incidents) answers in the service's place: never served, counted or charged.
  service_unavailable: { status: 503, title: 'Service unavailable' },
  bad_gateway: { status: 502, title: 'Bad gateway' },
  gateway_timeout: { status: 504, title: 'Gateway timeout' },
  // A connection past the server's bounds (in all, or from one address), refused before it is read.
  too_many_connections: { status: 503, title: 'Too many connections' },
} as const satisfies Record<string, ProblemType>;

export type ProblemCode = keyof typeof problemTypes;

const INSTANCE = '~instance~';
const REQUEST_ID = '~request-id~';
/** Problem bodies as text around their instance and request id, by code, plan and detail (null: not to be made so). */
const bodyTemplates = new Map<string, [string, string, string] | null>();
/**
 * Details hold what the client sent (an unknown slug, say): the memo is cleared when full, never grows without bound.
 */
const MAX_TEMPLATES = 1024;

/** The error type of the mock: it knows its problem+json. */
export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly detail: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  /** The plan the caller is on, when known, so actions can point one step up. */
  plan: PlanId | null = null;
  suggested: PlanId | null = null;

  constructor(
    code: ProblemCode,
    detail: string,
    options: {
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
      plan?: PlanId | null;
      suggested?: PlanId | null;
    } = {},
  ) {
    // A problem is the client's answer, not a failure to trace: no stack is captured (profiled:
    // capturing one was a tenth of a 401's time). Errors of the kit's own keep theirs.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${code}: ${detail}`);
    Error.stackTraceLimit = limit;
    this.name = 'ProblemError';
    this.code = code;
    this.detail = detail;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
    this.plan = options.plan ?? null;
    this.suggested = options.suggested ?? null;
  }

  get status(): number {
    return problemTypes[this.code].status;
  }

  get title(): string {
    return problemTypes[this.code].title;
  }

  body(instance: string, requestId: string): Record<string, unknown> {
    const type: ProblemType = problemTypes[this.code];
    const actions = type
      .actions?.(this.plan)
      .map((t) => action(t, this.plan, t === 'subscribe' ? this.suggested : null));
    return problemBody(this.code, type, this.detail, instance, requestId, {
      ...this.extra,
      ...(actions ? { actions } : {}),
    });
  }

  toAnswer(instance: string, requestId: string, headers: Record<string, string> = {}): Answer {
    // JSON.stringify(this.body(...)), from the text kept for it where there is one.
    const parts = this.template();
    const text = parts
      ? `${parts[0]}${JSON.stringify(uriReference(instance))}${parts[1]}${JSON.stringify(requestId)}${parts[2]}`
      : JSON.stringify(this.body(instance, requestId));
    return problemText(this.status, text, {
      'x-request-id': requestId,
      ...challenge(this.code),
      ...headers,
      ...this.headers,
    });
  }

  /**
   * The body's text around its instance and its request id, made once per code, plan and detail,
   * or null for a problem that carries more: a problem without a key (a 401, a 429 past the rate)
   * is most of what a load test above the rate gets, and its body differs only in those two
   * (profiled, JSON.stringify of its body was the largest step of a 401; with the text kept, a 401
   * in process went from about 33 to 20 µs: BENCHMARKS.md).
   */
  private template(): [string, string, string] | null {
    if (Object.keys(this.extra).length > 0) return null;
    const memoKey = `${this.code}\n${this.plan}\n${this.suggested}\n${this.detail}`;
    let parts = bodyTemplates.get(memoKey);
    if (parts === undefined) {
      // Placeholders of characters uriReference keeps and JSON writes as they are; a detail that
      // holds one itself splits into more parts and is never remembered.
      const split = JSON.stringify(this.body(INSTANCE, REQUEST_ID))
        .split(`"${INSTANCE}"`)
        .flatMap((part) => part.split(`"${REQUEST_ID}"`));
      parts = split.length === 3 ? (split as [string, string, string]) : null;
      if (bodyTemplates.size >= MAX_TEMPLATES) bodyTemplates.clear();
      bodyTemplates.set(memoKey, parts);
    }
    return parts;
  }

  toResponse(instance: string, requestId: string, headers: Record<string, string> = {}): Response {
    return toResponse(this.toAnswer(instance, requestId, headers));
  }
}

/** RFC 6750's challenge on a 401: the scheme, and `invalid_token` when a key came and was refused. */
export function challenge(code: ProblemCode): Record<string, string> {
  if (problemTypes[code].status !== 401) return {};
  return {
    'www-authenticate':
      code === 'missing_key' ? 'Bearer realm="investor-graph"' : 'Bearer realm="investor-graph", error="invalid_token"',
  };
}
