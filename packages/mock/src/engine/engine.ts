/**
 * The mock's core: `fetch(Request) => Promise<Response>` over the dataset, with no Node-only API,
 * so the Node server and the MSW handlers are thin adapters over this one function.
 *
 * `respond` reads as the steps of a call (the mock's README draws them with these files):
 * control (control.ts) -> OPTIONS (http-conventions.ts) -> route (router.ts) and query
 * (request.ts) -> Prefer (prefer.ts) -> the calls without a key: the trial (trial.ts) and the
 * contract -> authenticate (accounts.ts, budgeted per address) -> query names, validate
 * (validate.ts) -> cursor (cursor.ts) -> prepare (operations.ts) -> rate -> [one transaction of
 * the key store: admit (key state, quota), plan feature, serve (operations.ts), entity tag,
 * charge (balance, count)] -> envelope (envelope.ts). The bracketed part never awaits and holds
 * the store's write lock, so concurrent calls, in this process or another on the same database,
 * cannot both pass a quota check that only one of them fits in.
 */
// Subpaths, not the index: the index brings prism-http, which no browser bundle can hold.
import { plans, type PlanId } from '@investor-graph/contract/plans';
import { openapiDocument } from '@investor-graph/contract/document';
import type { ContractValidator } from '@investor-graph/contract';
import { Accounts } from './accounts.ts';
import { jsonText, toResponse, type Answer } from './answer.ts';
import { Clock, SharedClock } from './clock.ts';
import type { Call, RequestContext } from './context.ts';
import { handleControl } from './control.ts';
import { ControlGuard } from './control-guard.ts';
import { CursorCodec } from './cursor.ts';
import { envelopeBody, entityTag, withQuota } from './envelope.ts';
import { Dumps, type DumpFiles, type DumpWriter } from './exports.ts';
import { randomToken, requestIds } from './hash.ts';
import { echoedRequestId, finish, preflight, type CorsOrigins } from './http-conventions.ts';
import { MemoryKeyStore, type KeyStore } from './key-store.ts';
import { checkFeature, operations, type OperationEnv } from './operations.ts';
import { preferredExample } from './prefer.ts';
import { ProblemError } from './problems.ts';
import { checkQueryNames, filterDigest, parseQuery, parseUrl, pathUnder } from './request.ts';
import { allowedMethods, matchRoute, notFound } from './router.ts';
import { BodySerialiser, type Serialised } from './serialise.ts';
import { Statistics } from './statistics.ts';
import { MemoryStore, type Store, type StoreInput } from './store.ts';
import { createTrialKey } from './trial.ts';
import { RequestValidation } from './validate.ts';

export type { RequestContext } from './context.ts';

export interface PresetKey {
  plan: PlanId;
  key: string;
  prepaidRows?: number;
}

export interface EngineOptions {
  /** The data: rows to hold in memory (MSW, the browser), or a store that holds them (the Node server's SQLite one). */
  dataset: StoreInput | Store;
  /** Where nightly dumps are written (memory by default; the Node server writes files). */
  dumpFiles?: DumpFiles;
  /** Writes a dump's files another way (the Node server: a worker thread reading the database file). */
  dumpWriter?: DumpWriter;
  /**
   * The base URL clients reach this mock at; every absolute URL the mock writes (dump file links)
   * starts with it, never with the request's Host, which a client controls. A function when it is
   * known only later (the Node server's address once it listens). http://localhost by default.
   */
  publicUrl?: string | (() => string);
  /** prism-http validation of requests (an injected component, as in Prism's core). */
  validator: ContractValidator;
  /** Simulated start time (ms); the dataset's as-of by default. */
  now?: number;
  /** A frozen clock moves only when told to. */
  frozen?: boolean;
  keys?: PresetKey[];
  /** Signs cursors; random per engine unless given (give one to keep cursors valid across restarts). */
  cursorSecret?: string;
  /** Lets control calls in from non-loopback clients that present it as a bearer token. */
  adminToken?: string;
  /**
   * false: never answer 429, neither for a key's rate nor for the trial cap or the budget of calls
   * without a valid key (headers still sent). For measuring the mock itself, not for clients.
   */
  rateLimit?: boolean;
  /** Monotonic real time for rate limiting (ms). */
  realNow?: () => number;
  /**
   * The time the limiters run on, realNow unless given. Only the limiter-on-clock fault gives
   * another (the service's clock), to show a checker that a rate must stay real time.
   */
  limiterNow?: () => number;
  /**
   * Where keys, counters, balances, the clock and the cursor secret are kept (in memory by
   * default). A store that already holds a clock or a cursor secret wins over `now` and `cursorSecret`.
   */
  keyStore?: KeyStore;
  /** Origins a browser app may call the data API from: any by default, as Prism does. Never /__control. */
  corsOrigins?: CorsOrigins;
}

export interface Engine {
  fetch(request: Request, context?: RequestContext): Promise<Response>;
  readonly ready: Promise<void>;
  readonly clock: Clock;
  readonly store: Store;
  readonly accounts: Accounts;
}

const isStore = (dataset: StoreInput | Store): dataset is Store => 'page' in dataset && typeof dataset.page === 'function';

export function createEngine(options: EngineOptions): Engine {
  const store = isStore(options.dataset) ? options.dataset : new MemoryStore(options.dataset);
  const keyStore = options.keyStore ?? new MemoryKeyStore();
  const clock = new Clock(options.now ?? store.asOf, options.frozen ?? false);
  const realNow = options.realNow ?? (() => performance.now());
  const accounts = new Accounts(keyStore, options.limiterNow ?? options.realNow, options.rateLimit !== false);
  const guard = new ControlGuard(options.adminToken, options.realNow);
  const publicBase = (): string => (typeof options.publicUrl === 'function' ? options.publicUrl() : (options.publicUrl ?? 'http://localhost')).replace(/\/+$/, '');
  // The first process on a store decides the clock and the cursor secret; later ones take them up.
  const shared = new SharedClock(clock, keyStore, realNow);
  const cursorSecret = keyStore.transaction(() => {
    const kept = keyStore.getMeta('cursor_secret');
    if (kept !== undefined) return kept;
    const secret = options.cursorSecret ?? randomToken(43);
    keyStore.setMeta('cursor_secret', secret);
    return secret;
  });
  const cursors = new CursorCodec(cursorSecret);
  const statistics = new Statistics(store);
  const dumps = new Dumps(store, { ...(options.dumpFiles ? { files: options.dumpFiles } : {}), ...(options.dumpWriter ? { writer: options.dumpWriter } : {}) });
  const ready = (async () => {
    for (const preset of options.keys ?? []) {
      await accounts.preset(preset.plan, preset.key, clock.now(), preset.prepaidRows ?? 0);
    }
    // Rebuilds up to the restored clock replay deterministically from the dataset.
    store.applyDue(clock.now());
  })();

  const simulatedNow = (): number => clock.now();
  const env: OperationEnv = { store, statistics, dumps, now: simulatedNow, publicBase };
  const envelopeDeps = { store, accounts, cursors, now: simulatedNow };
  const validation = new RequestValidation(options.validator);
  const nextRequestId = requestIds();
  const serialiser = new BodySerialiser();
  const corsOrigins = options.corsOrigins ?? '*';
  /** The contract as served: its `servers` names this mock, where it was fetched from. */
  let openapiJson: string | undefined;

  async function fetch(request: Request, context: RequestContext = {}): Promise<Response> {
    // A well-formed request id the client sent is the one its answer and the log carry.
    const requestId = echoedRequestId(request) ?? nextRequestId();
    // The control plane keeps its own rules: no CORS, no caching (control.ts).
    if (CONTROL_URL.test(request.url)) return answered(request, requestId, (url) => handleControl(request, url, { store, clock, accounts, context, guard, requestId, changeClock: (edit) => shared.change(edit) }), toResponse);
    const answer = await answered(request, requestId, (url) => respond(request, url, context, requestId), (problem) => problem);
    return toResponse(finish(request, answer, corsOrigins, context.compresses));
  }

  /**
   * The steps every call starts with (the clock brought up to date, due rebuilds applied), then
   * `step`; a problem it raises is answered as problem+json (made an A by `problem`), anything
   * else is the kit's failure.
   */
  async function answered<A>(request: Request, requestId: string, step: (url: URL) => Promise<A>, problem: (answer: Answer) => A): Promise<A> {
    let instance = '/';
    try {
      await ready;
      const url = parseUrl(request);
      instance = url.pathname;
      shared.sync();
      store.applyDue(clock.now());
      return await step(url);
    } catch (error) {
      if (error instanceof ProblemError) return problem(error.toAnswer(instance, requestId));
      // The kit's own failure: a 500 that says so, with the request id to find the stack in the log;
      // no message or path in the answer, which is not the client's to read.
      console.error(`[investor-graph mock] internal error in ${requestId}:`, error);
      return problem(new ProblemError('internal_error', `[investor-graph mock] internal error: the mock failed on this request; its log has the details under ${requestId}.`).toAnswer(instance, requestId));
    }
  }

  /** A call of the data API, from its route to its answer. */
  async function respond(request: Request, url: URL, context: RequestContext, requestId: string): Promise<Answer> {
    if (request.method === 'OPTIONS') return preflight(request, allowedMethods(url.pathname) ?? throwing(notFound(url.pathname)), corsOrigins, requestId);
    const route = matchRoute(request.method, url.pathname);
    const query = parseQuery(url.search);
    const forced = preferredExample(request, route.operationId);
    if (forced) return forced;
    if (route.operationId === 'createTrialKey') {
      checkQueryNames(route, query);
      return await createTrialKey(request, requestId, context.clientAddress ?? 'unknown', { accounts, validator: options.validator, now: simulatedNow });
    }
    if (route.operationId === 'getOpenApiDocument') {
      checkQueryNames(route, query);
      openapiJson ??= JSON.stringify({ ...openapiDocument, servers: [{ url: publicBase(), description: 'This mock of the Investor Graph API' }] });
      return jsonText(200, openapiJson, { 'x-request-id': requestId, 'cache-control': 'public, max-age=300' });
    }
    // Who is calling comes first: without a valid key the answer is 401 whatever the query holds.
    const key = await accounts.authenticateFrom(request.headers.get('authorization'), context.clientAddress ?? 'unknown');
    const call: Call = { requestId, url, route, query, key, plan: plans[key.plan] };
    checkQueryNames(route, query);
    validation.check(call, request);
    return await dataCall(call, request);
  }

  /** A data call whose key and request are valid: served, counted and charged as one transaction. */
  async function dataCall(call: Call, request: Request): Promise<Answer> {
    const operation = operations[call.route.operationId];
    if (!operation) throw new ProblemError('route_not_found', `No handler for ${call.route.operationId}.`);
    const cursor = call.query.get('cursor');
    const afterKey = cursor !== undefined ? await cursors.decode(cursor, call.route.operationId, filterDigest(call.route, call.query)) : null;
    // Asynchronous work (gzipping dumps) is done before the synchronous transaction, and only for a plan that may have it.
    const prepared = operation.prepare && (!operation.feature || call.plan[operation.feature]) ? await operation.prepare(call, env) : {};
    const now = clock.now();
    const rateHeaders = accounts.takeToken(call.key, '', call.plan.rate_per_second);
    try {
      // Refused before any work as the key stands; admitted again, and counted and charged, in
      // one atomic step of the key store once it is known what the call served.
      accounts.admit(call.key, now, operation.counted);
      checkFeature(operation, call.plan);
      const served = operation.serve({ call, afterKey, prepared }, env);
      // The page is serialised once, for the entity tag here and the envelope below.
      const data: Serialised = served.raw ? { json: '', tag: '' } : serialiser.serialise(served.body, served.stored === true);
      const { etag, notModified } = entityTag(served, data.tag, store.asOf, request.headers.get('if-none-match'));
      const { record, cost, usage } = accounts.admitAndCharge(call.key, now, operation.counted, notModified ? null : served.rows);
      call.key = record;
      try {
        const headers = { 'x-request-id': call.requestId, etag, ...withQuota(rateHeaders, call.key, now) };
        if (notModified) return { status: 304, headers, body: null };
        if (served.raw) return { status: 200, headers: { ...headers, 'content-type': served.contentType!, 'content-length': String(served.raw.size) }, body: served.raw };
        return { status: 200, headers: { 'content-type': 'application/json', ...headers }, body: await envelopeBody(call, served, data, usage, envelopeDeps) };
      } catch (error) {
        // The kit failed after counting (building the answer): the client gets no answer for
        // this call, so it is neither counted nor charged. (A refused call counted nothing.)
        accounts.refund(call.key, operation.counted, cost);
        throw error;
      }
    } catch (error) {
      if (error instanceof ProblemError) for (const [k, v] of Object.entries(rateHeaders)) error.headers[k] ??= v;
      throw error;
    }
  }

  return {
    fetch,
    ready,
    clock,
    store,
    accounts,
  };
}

/** Paths of the control plane, which the data API's conventions leave alone. */
const CONTROL_URL = pathUnder('/__control');

/** Throws `error` where an expression is expected. */
function throwing(error: Error): never {
  throw error;
}
