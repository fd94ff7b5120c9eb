/**
 * The steps of a request, as top-level functions over the engine's parts (as Prism's core takes
 * `route`, `validateInput` and `mock`): each can be imported and tested on its own, with parts of
 * a test's choosing. `respond` reads as the steps of a call (the mock's README draws them):
 * OPTIONS (http-conventions.ts) -> route (router.ts) and query (http/query.ts) -> Prefer (prefer.ts)
 * -> an operation without a key (the trial, the contract) -> authenticate (accounts/, budgeted per
 * address) -> query names, timestamps (timestamps.ts), the operation's own check, validate
 * (validate.ts) -> the data call: cursor (cursor.ts) -> prepare (operations.ts) -> rate -> admit
 * (key state, quota) -> plan feature -> serve (operations.ts) -> entity tag -> admit and charge, one
 * atomic step of the key store (balance, count) -> envelope (envelope.ts). The incidents are a
 * wrapper around the steps (incidents/wrapper.ts): it meets a call once routed and its key known,
 * and hands the key it authenticated over (`context.authenticated`), never authenticated twice.
 * A tracing adapter's `context.trace` is told where the steps it shows (`TracedStep`) begin and
 * end; without one, each mark is an optional call not made.
 */
import { plans } from '@investor-graph/contract/plans';
import type { Answer } from '../answer.ts';
import type { Call, CallNote, CallTrace, RequestContext } from '../context.ts';
import { requestIds } from '../hash.ts';
import { checkQueryNames, filterDigest, parseQuery, parseUrl } from '../http/query.ts';
import { allowedMethods, matchRoute, notFound, type RouteMatch } from '../http/router.ts';
import { utcInstants } from '../http/timestamps.ts';
import { checkFeature, operations, type KeyedOperation, type Operation, type Served } from '../operations/table.ts';
import { ProblemError } from '../problems.ts';
import type { KeyRecord } from '../stores/key-store.ts';
import type { Handler } from '../wrapper.ts';
import { envelopeBody, entityTag, withQuota } from './envelope.ts';
import { preflight } from './http-conventions.ts';
import type { EngineParts } from './parts.ts';
import { preferredExample } from './prefer.ts';
import type { Serialised } from './serialise.ts';

export { answered, knownKeys } from './answered.ts';
export type { EngineParts } from './parts.ts';

/** The steps as the engine's innermost handler: the boundary (boundary.ts) gives each call its id and note. */
export function steps(parts: EngineParts, requestIdOf: (request: Request) => string): Handler {
  return (request, context = {}) =>
    respond(parts, request, parseUrl(request), context, context.requestId ?? requestIdOf(request), context.note ?? {});
}

/** A call routed: its route, its query and its entry of the operation table. */
export interface Routed {
  route: RouteMatch;
  query: Map<string, string>;
  operation: Operation;
}

/**
 * The route, query and operation of a call that is not OPTIONS, or the documented example a
 * `Prefer` header asks for instead (answered before anything else is looked at); the incidents'
 * wrapper finds a call as the steps do with it. What it throws is the call's answer (404, 405, 400).
 */
export function routed(parts: EngineParts, request: Request, url: URL, note: CallNote = {}): Routed | Answer {
  const route = matchRoute(request.method, url.pathname);
  note.operation = route.operationId;
  const query = parseQuery(url.search);
  const forced = preferredExample(request, route.operationId);
  if (forced) return forced;
  const table: Record<string, Operation> = parts.operations ?? operations;
  const operation = table[route.operationId];
  if (!operation) throw new ProblemError('route_not_found', `No handler for ${route.operationId}.`);
  return { route, query, operation };
}

/** A call of the API, from its route to its answer; what it learns on the way goes in `note` (the journal's). */
export async function respond(
  parts: EngineParts,
  request: Request,
  url: URL,
  context: RequestContext,
  requestId: string,
  note: CallNote = {},
): Promise<Answer> {
  if (request.method === 'OPTIONS')
    return preflight(
      request,
      allowedMethods(url.pathname) ?? throwing(notFound(url.pathname)),
      parts.corsOrigins,
      requestId,
    );
  const found = routed(parts, request, url, note);
  if (!('route' in found)) return found;
  const { route, query, operation } = found;
  if (operation.open) {
    checkQueryNames(route, query);
    return await operation.open({ request, requestId, clientAddress: context.clientAddress ?? 'unknown' }, parts.env);
  }
  const { trace } = context;
  // Who is calling comes first: without a valid key the answer is 401 whatever the query holds.
  const key = context.authenticated ?? (await authenticate(parts, request, context));
  note.keyId = key.keyId;
  note.plan = key.plan;
  const call: Call = { requestId, url, route, query, key, plan: plans[key.plan] };
  checkQueryNames(route, query);
  // A timestamp not in UTC is refused saying how to write it; every UTC form is one text afterwards.
  const instants = utcInstants(route, query);
  operation.check?.(call);
  // The contract judges the query as sent; the steps after it read the instants as one text, so
  // equal instants get the same cursor, page and entity tag (DECISIONS.md#timestamps).
  const validating = trace?.step('validate');
  parts.validation.check(call, request);
  validating?.();
  call.query = instants;
  return await dataCall(parts, operation, call, request, note, trace);
}

/**
 * The key behind the call's Authorization header, or the 401 (429 once the address's budget of
 * calls without a valid key is gone) that says why not; a trace shows it as the authenticate step.
 */
export async function authenticate(parts: EngineParts, request: Request, context: RequestContext): Promise<KeyRecord> {
  const authenticating = context.trace?.step('authenticate');
  const key = await parts.accounts.authenticateFrom(
    request.headers.get('authorization'),
    context.clientAddress ?? 'unknown',
    parts.clock.now(),
  );
  authenticating?.();
  return key;
}

/**
 * A data call whose key and request are valid: refused before any work as the key stands, served,
 * then admitted, counted and charged in one atomic step of the key store. A call whose answer
 * cannot be made after that is taken back: never counted or charged for an answer not given.
 */
export async function dataCall(
  parts: EngineParts,
  operation: KeyedOperation,
  call: Call,
  request: Request,
  note: CallNote = {},
  trace?: CallTrace,
): Promise<Answer> {
  const { accounts, env } = parts;
  const cursor = call.query.get('cursor');
  const afterKey =
    cursor !== undefined
      ? await parts.cursors.decode(cursor, call.route.operationId, filterDigest(call.route, call.query))
      : null;
  // Asynchronous work (gzipping dumps) is done first, and only for a plan that may have it.
  const prepared =
    operation.prepare && (!operation.feature || call.plan[operation.feature]) ? await operation.prepare(call, env) : {};
  const now = parts.clock.now();
  const rating = trace?.step('rate');
  const rateHeaders = await accounts.takeToken(call.key, '', call.plan.rate_per_second);
  rating?.();
  try {
    const admitting = trace?.step('admit');
    await accounts.admit(call.key, now, operation.counted);
    checkFeature(operation, call.plan);
    admitting?.();
    const reading = trace?.step('read');
    const served = operation.serve({ call, afterKey, prepared }, env);
    // The rebuild the rows come from: a later one may run while the charge is written (awaited).
    const asOf = parts.store.asOf;
    const ifNoneMatch = request.headers.get('if-none-match');
    // The page is serialised once, for the entity tag here and the envelope below.
    const early = served.afterCharge ? null : serialised(parts, served);
    const tagged = early && entityTag(served, early, asOf, ifNoneMatch);
    reading?.();
    const charging = trace?.step('charge');
    const chargeId = nextChargeId();
    const { record, cost, usage } = await accounts.admitAndCharge(
      call.key,
      now,
      operation.counted,
      tagged?.notModified ? null : served.rows,
      chargeId,
    );
    call.key = record;
    charging?.();
    // The account's data is the key as this step left it: its tag is of that data, taken now.
    const data = early ?? parts.serialiser.serialise(served.afterCharge!(record, usage), false);
    const { etag, notModified } = tagged ?? entityTag(served, data, asOf, ifNoneMatch);
    Object.assign(note, { rowsServed: notModified ? 0 : served.rows, counted: operation.counted, rowsCharged: cost });
    try {
      const headers = { 'x-request-id': call.requestId, etag, ...withQuota(rateHeaders, call.key, now) };
      if (notModified) return { status: 304, headers, body: null };
      if (served.raw)
        return {
          status: 200,
          headers: { ...headers, 'content-type': served.contentType!, 'content-length': String(served.raw.size) },
          body: served.raw,
        };
      const enveloping = trace?.step('envelope');
      const body = await envelopeBody(call, { served, data, usage, asOf }, parts.envelope);
      enveloping?.();
      return { status: 200, headers: { 'content-type': 'application/json', ...headers }, body };
    } catch (error) {
      await accounts.refund(call.key, operation.counted, cost, chargeId);
      Object.assign(note, { rowsServed: 0, counted: false, rowsCharged: 0 });
      throw error;
    }
  } catch (error) {
    if (error instanceof ProblemError) for (const [k, v] of Object.entries(rateHeaders)) error.headers[k] ??= v;
    throw error;
  }
}

/** What was served, serialised for its tag and the envelope (a file's bytes are served as they are). */
function serialised(parts: EngineParts, served: Served): Serialised {
  return served.raw ? { json: '', tag: '' } : parts.serialiser.serialise(served.body, served.stored === true);
}

/**
 * Names each charge once, across every mock on a shared store: a random part per process and a
 * count (not the request id, which a client may send, and not random bytes a call: 2.6% of a call).
 */
const nextChargeId = requestIds();

/** Throws `error` where an expression is expected. */
function throwing(error: Error): never {
  throw error;
}
