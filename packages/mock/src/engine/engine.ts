/**
 * The mock's core: `fetch(Request) => Promise<Response>` over the dataset, with no Node-only API,
 * so the Node server and the MSW handlers are thin adapters over this one function.
 *
 * Flow of a data call: route -> Prefer (forced example) -> authenticate (budgeted per address for
 * calls without a valid key) -> query hygiene -> validate (prism-http) -> decode cursor ->
 * rate -> [one transaction of the key store: key state, quota, plan features, page, balance, count]
 * -> sign next cursor -> envelope. The bracketed part never awaits and holds the store's write lock,
 * so concurrent calls, in this process or another on the same database, cannot both pass a quota
 * check that only one of them fits in.
 */
// Subpaths, not the index: the index brings prism-http, which no browser bundle can hold.
import { defaultLimit, plans, type PlanId, type PlanRule } from '@investor-graph/contract/plans';
import { openapiDocument, resolveRef } from '@investor-graph/contract/document';
import { nearest } from '@investor-graph/cli/near';
import type { ContractValidator, Violation } from '@investor-graph/contract';
import type { ResourceName, Row } from '@investor-graph/fixtures';
import { Accounts, planView, type KeyRecord, type Usage } from './accounts.ts';
import { Clock, type SavedClock } from './clock.ts';
import { handleControl } from './control.ts';
import { ControlGuard } from './control-guard.ts';
import { CursorCodec } from './cursor.ts';
import { Dumps, type Dump } from './exports.ts';
import { etagOf, fnv64, randomToken, requestIds } from './hash.ts';
import { echoedRequestId, finish, preflight, type CorsOrigins } from './http-conventions.ts';
import { MemoryKeyStore, type KeyStore } from './key-store.ts';
import { ProblemError } from './problems.ts';
import { BodySerialiser } from './serialise.ts';
import { allowedMethods, matchRoute, notFound, type RouteMatch } from './router.ts';
import { Statistics, statisticNames, type StatisticName } from './statistics.ts';
import { Store, nested, type StoreInput } from './store.ts';

const DAY = 86_400_000;
const MAX_URL = 8192;
const MAX_TRIAL_BODY = 4096;
/** How long a clock set through another process on the same state store may take to reach this one. */
const CLOCK_SYNC_MS = 250;

export interface PresetKey {
  plan: PlanId;
  key: string;
  prepaidRows?: number;
}

export interface EngineOptions {
  dataset: StoreInput;
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
  /** false: never answer 429 (headers still sent). For measuring the mock itself, not for clients. */
  rateLimit?: boolean;
  /** Monotonic real time for rate limiting (ms). */
  realNow?: () => number;
  /**
   * Where keys, counters, balances, the clock and the cursor secret are kept (in memory by
   * default). A store that already holds a clock or a cursor secret wins over `now` and `cursorSecret`.
   */
  keyStore?: KeyStore;
  /** Origins a browser app may call the data API from: any by default, as Prism does. Never /__control. */
  corsOrigins?: CorsOrigins;
}

export interface RequestContext {
  /** The client's address, for the open trial call's rate bucket. */
  clientAddress?: string;
  /** True when the request came over loopback (or in-process, as with MSW). */
  loopback?: boolean;
  /** The request never crossed a network (MSW): the control plane has nothing to guard. */
  inProcess?: boolean;
  /** Host names besides the loopback ones that name this mock, for the control plane's Host check. */
  allowedHosts?: readonly string[];
}

export interface Engine {
  fetch(request: Request, context?: RequestContext): Promise<Response>;
  readonly ready: Promise<void>;
  readonly clock: Clock;
  readonly store: Store;
  readonly accounts: Accounts;
  /** Applies due rebuilds now (also done before every request). */
  rebuild(): ReturnType<Store['applyDue']>;
  /** The preset and created keys' texts, as given at start (for the banner). */
  readonly presetKeys: readonly PresetKey[];
}

interface Ctx {
  requestId: string;
  url: URL;
  route: RouteMatch;
  query: Map<string, string>;
  key: KeyRecord | null;
  plan: PlanRule | null;
}

interface Served {
  body: unknown;
  rows: number;
  /** The key of the last row, when a next page may follow. */
  next?: string | null;
  status?: number;
  raw?: Uint8Array;
  contentType?: string;
  etag?: string;
  /** The body is the store's rows (or one row), which a rebuild replaces and never edits: their JSON may be remembered. */
  stored?: boolean;
}

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

export function createEngine(options: EngineOptions): Engine {
  const store = new Store(options.dataset);
  const keyStore = options.keyStore ?? new MemoryKeyStore();
  const clock = new Clock(options.now ?? Date.parse(options.dataset.asOf), options.frozen ?? false);
  // The clock as last saved, by this process or another on the same store: taken up when it
  // changes, looked at no more than every CLOCK_SYNC_MS (a read of the store per call was 9% of it).
  let clockText = '';
  let clockSyncedAt = -Infinity;
  const realNow = options.realNow ?? (() => performance.now());
  const syncClock = (): void => {
    const at = realNow();
    if (at - clockSyncedAt < CLOCK_SYNC_MS) return;
    clockSyncedAt = at;
    const text = keyStore.getMeta('clock');
    if (text === undefined || text === clockText) return;
    clockText = text;
    clock.restore(JSON.parse(text) as SavedClock);
  };
  /**
   * Changes the clock as stored now, not as this process last looked (up to CLOCK_SYNC_MS ago): read,
   * changed and saved in one transaction, so two mocks on one database advancing it at once both count.
   */
  const changeClock = (change: (clock: Clock) => void): void => {
    keyStore.transaction(() => {
      const text = keyStore.getMeta('clock');
      if (text !== undefined && text !== clockText) clock.restore(JSON.parse(text) as SavedClock);
      change(clock);
      clockText = JSON.stringify(clock.saved());
      keyStore.setMeta('clock', clockText);
    });
    clockSyncedAt = realNow();
  };
  const accounts = new Accounts(keyStore, options.realNow);
  const guard = new ControlGuard(options.adminToken, options.realNow);
  const publicBase = (): string => (typeof options.publicUrl === 'function' ? options.publicUrl() : (options.publicUrl ?? 'http://localhost')).replace(/\/+$/, '');
  // The first process on a store decides the clock and the cursor secret; later ones take them up.
  const cursorSecret = keyStore.transaction(() => {
    if (keyStore.getMeta('clock') === undefined) keyStore.setMeta('clock', JSON.stringify(clock.saved()));
    const kept = keyStore.getMeta('cursor_secret');
    if (kept !== undefined) return kept;
    const secret = options.cursorSecret ?? randomToken(43);
    keyStore.setMeta('cursor_secret', secret);
    return secret;
  });
  syncClock();
  const cursors = new CursorCodec(cursorSecret);
  const statistics = new Statistics(store);
  const dumps = new Dumps(store);
  const presetKeys = options.keys ?? [];
  const ready = (async () => {
    for (const preset of presetKeys) {
      await accounts.preset(preset.plan, preset.key, clock.now(), preset.prepaidRows ?? 0);
    }
    // Rebuilds up to the restored clock replay deterministically from the dataset.
    store.applyDue(clock.now());
  })();

  const lagCutoff = (plan: PlanRule | null): string | null =>
    plan && plan.round_lag_days > 0 ? new Date(store.asOf - plan.round_lag_days * DAY).toISOString().slice(0, 10) : null;

  /** A trial never sees rounds announced within the lag before as_of (DECISIONS.md#round-lag). */
  const roundVisible = (cutoff: string | null) => (row: Row): boolean => cutoff === null || (row.announced_on as string) <= cutoff;

  const viewRow = (resource: ResourceName, row: Row, cutoff: string | null): Row => {
    if (resource !== 'company' || cutoff === null) return row;
    const last = row.last_round as Row | null;
    if (!last || (last.announced_on as string) <= cutoff) return row;
    const visible = store.nestedRows('listCompanyRounds', row.slug as string).filter(roundVisible(cutoff));
    const latest = visible.sort((a, b) => (a.announced_on as string).localeCompare(b.announced_on as string)).pop();
    return { ...row, last_round: latest ? { id: latest.id, stage: latest.stage, announced_on: latest.announced_on, amount_usd: latest.amount_usd } : null };
  };

  const pageLimit = (ctx: Ctx): number => {
    const cap = ctx.plan!.rows_per_page;
    const asked = ctx.query.get('limit');
    // Over the cap is capped silently (DECISIONS.md#limit); validation already refused < 1.
    return asked === undefined ? Math.min(defaultLimit, cap) : Math.min(Number(asked), cap);
  };

  /** The filters a cursor is bound to: operation path parameters and every query parameter but paging. */
  const filterDigest = (ctx: Ctx): string => {
    const parts = [...ctx.route.params.entries(), ...[...ctx.query.entries()].filter(([k]) => k !== 'cursor' && k !== 'limit').sort()];
    return fnv64(JSON.stringify(parts));
  };

  const nextRequestId = requestIds();
  const serialiser = new BodySerialiser();

  const corsOrigins = options.corsOrigins ?? '*';
  /** The contract as served: its `servers` names this mock, where it was fetched from. */
  let openapiJson: string | undefined;

  async function fetch(request: Request, context: RequestContext = {}): Promise<Response> {
    // A well-formed request id the client sent is the one its answer and the log carry.
    const requestId = echoedRequestId(request) ?? nextRequestId();
    const response = await respond(request, context, requestId);
    // The control plane keeps its own rules: no CORS, no caching (control.ts).
    return CONTROL_URL.test(request.url) ? response : finish(request, response, corsOrigins);
  }

  async function respond(request: Request, context: RequestContext, requestId: string): Promise<Response> {
    let instance = '/';
    try {
      await ready;
      if (request.url.length > MAX_URL) throw new ProblemError('uri_too_long', `The URL is longer than ${MAX_URL} characters.`);
      const url = new URL(request.url);
      instance = url.pathname;
      syncClock();
      store.applyDue(clock.now());
      if (url.pathname.startsWith('/__control/') || url.pathname === '/__control') {
        return await handleControl(request, url, { store, clock, accounts, context, guard, requestId, changeClock });
      }
      if (request.method === 'OPTIONS') return preflight(request, allowedMethods(url.pathname) ?? throwing(notFound(url.pathname)), corsOrigins, requestId);
      const route = matchRoute(request.method, url.pathname);
      const query = parseQuery(url.search);
      const ctx: Ctx = { requestId, url, route, query, key: null, plan: null };
      const forced = preferredExample(request, route.operationId);
      if (forced) return forced;
      if (route.operationId === 'getOpenApiDocument' || route.operationId === 'createTrialKey') {
        checkQueryNames(route, query);
        if (route.operationId === 'createTrialKey') return await createTrialKey(request, ctx, context);
        openapiJson ??= JSON.stringify({ ...openapiDocument, servers: [{ url: publicBase(), description: 'This mock of the Investor Graph API' }] });
        return jsonText(200, openapiJson, { 'x-request-id': requestId, 'cache-control': 'public, max-age=300' });
      }

      // Who is calling comes first: without a valid key the answer is 401 whatever the query holds.
      ctx.key = await accounts.authenticateFrom(request.headers.get('authorization'), context.clientAddress ?? 'unknown');
      ctx.plan = plans[ctx.key.plan];
      checkQueryNames(route, query);
      validate(ctx, request);
      const afterKey = ctx.query.has('cursor') ? await cursors.decode(ctx.query.get('cursor')!, route.operationId, filterDigest(ctx)) : null;
      // Dumps are gzipped asynchronously, so they are built before the synchronous part.
      const dumpDays = ctx.plan.exports ? await prepareDumps(ctx) : new Map<string, Dump>();

      const now = clock.now();
      const rateHeaders = accounts.takeToken(ctx.key, '', ctx.plan.rate_per_second, options.rateLimit !== false);
      try {
        // The account call is free: neither counted nor held to the quota.
        const counted = route.operationId !== 'getAccount';
        // --- one transaction of the key store, on the key as stored now; durable when it returns ---
        const { served, dataJson, etag, notModified, cost, usage } = accounts.transact(ctx.key, (key) => {
          ctx.key = key;
          accounts.checkNotRevoked(key);
          if (counted) accounts.checkQuota(key, now);
          checkFeature(ctx);
          const served = serve(ctx, afterKey, now, dumpDays);
          const ifNoneMatch = request.headers.get('if-none-match');
          // The page is serialised once, for the entity tag here and the envelope below.
          const data = served.raw ? { json: '', tag: '' } : serialiser.serialise(served.body, served.stored === true);
          // Weak for the envelope (its usage changes every call; the data it validates does not),
          // strong for a dump file's fixed bytes (DECISIONS.md#conditional-requests).
          const opaque = `"${served.etag ?? etagOf(`${data.tag}|${store.asOf}`)}"`;
          const etag = served.raw ? opaque : `W/${opaque}`;
          const notModified = ifNoneMatch !== null && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque || t.trim() === '*');
          const cost = notModified || !counted ? 0 : accounts.cost(key, served.rows);
          accounts.checkBalance(key, cost);
          return { served, dataJson: data.json, etag, notModified, cost, usage: accounts.commit(key, counted, cost) };
        });
        // --- end of the transaction ---
        try {
          const headers = { 'x-request-id': requestId, etag, ...withQuota(rateHeaders, ctx.key, now) };
          if (notModified) return new Response(null, { status: 304, headers });
          if (served.raw) return new Response(served.raw as BodyInit, { status: 200, headers: { ...headers, 'content-type': served.contentType!, 'content-length': String(served.raw.length) } });
          const envelope = await toEnvelope(ctx, served, dataJson, usage);
          return jsonText(served.status ?? 200, envelope, headers);
        } catch (error) {
          // The kit failed after counting (building the answer): the client gets no answer for
          // this call, so it is neither counted nor charged. (A failed transaction counted nothing.)
          accounts.uncommit(ctx.key, counted, cost);
          throw error;
        }
      } catch (error) {
        if (error instanceof ProblemError) for (const [k, v] of Object.entries(rateHeaders)) error.headers[k] ??= v;
        throw error;
      }
    } catch (error) {
      if (error instanceof ProblemError) return error.toResponse(instance, requestId);
      // The kit's own failure: a 500 that says so, with the request id to find the stack in the log;
      // no message or path in the answer, which is not the client's to read.
      console.error(`[investor-graph mock] internal error in ${requestId}:`, error);
      return new ProblemError('internal_error', `[investor-graph mock] internal error: the mock failed on this request; its log has the details under ${requestId}.`).toResponse(instance, requestId);
    }
  }

  const verdicts = new Map<string, Violation[]>();

  function validate(ctx: Ctx, request: Request): void {
    const { route } = ctx;
    if (route.operationId === 'getStatistic' && !(statisticNames as readonly string[]).includes(route.params.get('name')!)) {
      // A name identifies a resource: unknown is 404 with the allowed ones (DECISIONS.md#statistics-shapes).
      throw new ProblemError('unknown_statistic', `There is no statistic named "${route.params.get('name')}".`, { extra: { allowed: [...statisticNames] } });
    }
    // A GET's verdict depends only on what memoKey holds (the bearer key was checked before);
    // profiled, prism-http's validateInput was ~9% of a request, so repeated requests reuse it.
    const cacheable = request.method === 'GET' || request.method === 'HEAD';
    const memoKey = cacheable ? `${route.operationId}\n${request.method}\n${route.rawPath}\n${ctx.url.search}\n${request.headers.get('if-none-match') ?? ''}` : '';
    let violations = cacheable ? verdicts.get(memoKey) : undefined;
    if (!violations) {
      violations = options.validator.validateRequest(route.operationId, {
        // HEAD is validated as the GET it stands for.
        method: request.method === 'HEAD' ? 'GET' : request.method,
        path: route.rawPath,
        query: Object.fromEntries(ctx.query),
        headers: Object.fromEntries(request.headers),
      }).filter((v) => v.severity === 'error');
      if (cacheable) {
        if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
        verdicts.set(memoKey, violations);
      }
    }
    if (violations.length) {
      const errors = violations.map((v) => ({ parameter: v.path.replace(/^(query|path|header)\./, ''), detail: v.message }));
      throw new ProblemError(ctx.query.has('cursor') && errors.every((e) => e.parameter === 'cursor') ? 'invalid_cursor' : 'invalid_parameter', errors.map((e) => e.detail).join('; '), { extra: { errors } });
    }
  }

  function checkFeature(ctx: Ctx): void {
    const plan = ctx.plan!;
    if (ctx.route.operationId === 'listChanges' && !plan.changes_feed) {
      throw new ProblemError('plan_feature_unavailable', `The changes feed is not included in the ${plan.name} plan.`, { plan: plan.id, suggested: 'team' });
    }
    if ((ctx.route.operationId === 'getExportManifest' || ctx.route.operationId === 'getExportFile') && !plan.exports) {
      throw new ProblemError('plan_feature_unavailable', `Nightly dumps are included in the Business and Enterprise plans, not ${plan.name}.`, { plan: plan.id, suggested: 'business' });
    }
  }

  /** Computes what the call serves, synchronously; 404s are thrown before anything is counted. */
  function serve(ctx: Ctx, afterKey: string | null, now: number, dumpDays: Map<string, Dump>): Served {
    const { route } = ctx;
    const cutoff = lagCutoff(ctx.plan);
    const visible = roundVisible(cutoff);
    const id = route.operationId;
    const notFound = (what: string, key: string): never => {
      throw new ProblemError('not_found', `No ${what} has the ${what === 'fund' ? 'id' : 'slug'} ${key}.`);
    };
    const single = (resource: ResourceName, what: string): Served => {
      const key = route.params.get(resource === 'fund' ? 'id' : 'slug')!;
      const row = store.get(resource, key) ?? notFound(what, key);
      return { body: viewRow(resource, row, cutoff), rows: 1, stored: true };
    };
    const list = (resource: ResourceName, keep?: (row: Row) => boolean) => {
      const page = store.page(resource, afterKey, pageLimit(ctx), keep);
      return { body: page.rows.map((r) => viewRow(resource, r, cutoff)), rows: page.rows.length, next: page.nextKey, stored: true };
    };
    const nestedList = (index: keyof typeof nested, keep?: (row: Row) => boolean) => {
      const parentKey = route.params.get('slug')!;
      if (!store.get(nested[index].parent, parentKey)) notFound(nested[index].parent, parentKey);
      const page = store.nestedPage(index, parentKey, afterKey, pageLimit(ctx), keep);
      return { body: page.rows, rows: page.rows.length, next: page.nextKey, stored: true };
    };
    switch (id) {
      case 'listFirms': return list('firm');
      case 'listCompanies': return list('company');
      case 'listRounds': {
        const since = ctx.query.get('announced_since');
        return list('round', since ? (r) => visible(r) && (r.announced_on as string) >= since : visible);
      }
      case 'listInvestments': return list('investment');
      case 'listFunds': return list('fund');
      case 'listFilings': return list('filing');
      case 'listOfferings': return list('offering');
      case 'listAdvFunds': return list('adv-fund');
      case 'listLists': {
        const page = list('list');
        return { ...page, body: (page.body as Row[]).map(({ members: _members, ...summary }) => summary) };
      }
      case 'getFirm': return single('firm', 'firm');
      case 'getCompany': return single('company', 'company');
      case 'getFund': return single('fund', 'fund');
      case 'getList': return single('list', 'list');
      case 'listFirmPortfolio': return nestedList('listFirmPortfolio');
      case 'listFirmFilings': return nestedList('listFirmFilings');
      case 'listFirmFunds': return nestedList('listFirmFunds');
      case 'listCompanyRounds': return nestedList('listCompanyRounds', visible);
      case 'listCompanyInvestors': return nestedList('listCompanyInvestors');
      case 'listCompanyOfferings': return nestedList('listCompanyOfferings');
      case 'listChanges': {
        const since = ctx.query.get('since')!;
        const after = afterKey === null ? 0 : Number(afterKey);
        const page = store.changePage(since, after, pageLimit(ctx));
        const withRows = ctx.query.get('include') === 'rows';
        const items = page.items.map((c) => (withRows ? { ...c, row: c.kind === 'unpublish' ? null : (store.get(c.resource, c.key) ?? null) } : { ...c }));
        const last = page.items[page.items.length - 1];
        return { body: items, rows: items.length, next: page.more && last ? String(last.sequence) : null };
      }
      case 'getStatistic': {
        const name = route.params.get('name') as StatisticName;
        return { body: { name, rows: statistics.rows(name, cutoff, visible) }, rows: 1 };
      }
      case 'getExportManifest': {
        const base = `${publicBase()}/api/v1/exports`;
        // Newest first, keyed by date: the cursor carries the last date served.
        const days = [...dumpDays.values()].filter((dump) => afterKey === null || dump.date < afterKey);
        const limit = pageLimit(ctx);
        const body = days.slice(0, limit).map((dump) => ({
          date: dump.date, generated_at: dump.generated_at,
          files: dump.files.map(({ body: _body, ...f }) => ({ ...f, url: `${base}/${dump.date}/${f.name}` })),
        }));
        return { body, rows: body.length, next: days.length > limit ? body[body.length - 1]!.date : null };
      }
      case 'getExportFile': {
        const date = route.params.get('date')!;
        const file = dumpDays.get(date)?.files.find((f) => f.name === route.params.get('file'));
        if (!file) throw new ProblemError('not_found', `There is no dump file ${route.params.get('file')} for ${date}; the manifest lists the dates there are.`);
        return { body: null, rows: file.rows, raw: file.body, contentType: 'application/gzip', etag: file.sha256 };
      }
      case 'getAccount':
        return { body: null, rows: 0 };
      default:
        throw new ProblemError('route_not_found', `No handler for ${id}.`);
    }
  }

  /** The dumps a manifest or a file download needs, by date (only dates that exist). */
  async function prepareDumps(ctx: Ctx): Promise<Map<string, Dump>> {
    const now = clock.now();
    const wanted = ctx.route.operationId === 'getExportManifest' ? dumps.dates(now)
      : ctx.route.operationId === 'getExportFile' && dumps.has(ctx.route.params.get('date')!, now) ? [ctx.route.params.get('date')!] : [];
    return new Map(await Promise.all(wanted.map(async (date) => [date, await dumps.day(date)] as const)));
  }

  /** The envelope as JSON text, around `dataJson` (the served body, already serialised). */
  async function toEnvelope(ctx: Ctx, served: Served, dataJson: string, usage: Usage): Promise<string> {
    let next: string | null = null;
    if (ctx.route.operationId === 'getAccount') {
      const balance = ctx.key!.balanceRows;
      dataJson = JSON.stringify({
        plan: planView(ctx.plan!), usage, keys: [accounts.summary(ctx.key!, clock.now())],
        balance: balance === null ? null : { prepaid_rows: balance, value_usd: Math.round(balance * plans.payg.price_usd_per_row! * 100) / 100 },
      });
    } else if (served.next) {
      next = await cursors.encode(ctx.route.operationId, filterDigest(ctx), served.next);
    }
    const rest = JSON.stringify({ next_cursor: next, as_of: iso(store.asOf), plan: planView(ctx.plan!), usage });
    return `{"data":${dataJson},${rest.slice(1)}`;
  }

  async function createTrialKey(request: Request, ctx: Ctx, context: RequestContext): Promise<Response> {
    const headers = accounts.takeToken(null, context.clientAddress ?? 'unknown', plans.trial.rate_per_second);
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) throw new ProblemError('unsupported_media_type', 'Send the body as application/json: {"email": "<your address>"}.');
    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > MAX_TRIAL_BODY) throw new ProblemError('payload_too_large', `The body may be at most ${MAX_TRIAL_BODY} bytes.`);
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.length > MAX_TRIAL_BODY) throw new ProblemError('payload_too_large', `The body may be at most ${MAX_TRIAL_BODY} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      throw new ProblemError('invalid_body', 'The body is not valid JSON (UTF-8).', { extra: { errors: [{ pointer: '', detail: 'not valid JSON' }] } });
    }
    const violations = options.validator.validateRequest('createTrialKey', {
      method: 'POST', path: '/api/v1/keys/trial', headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) }, body,
    }).filter((v) => v.severity === 'error');
    if (violations.length) {
      throw new ProblemError('invalid_body', violations.map((v) => v.message).join('; '), {
        extra: { errors: violations.map((v) => ({ pointer: '/' + v.path.replace(/^body\.?/, '').replace(/\./g, '/'), detail: v.message })) },
      });
    }
    const issued = await accounts.issueTrial((body as { email: string }).email, clock.now());
    const rule = plans.trial;
    return json(201, {
      key: issued.key, key_id: issued.record.keyId, plan: 'trial', expires_at: iso(issued.record.expiresAt!),
      calls_limit: rule.calls_limit, calls_remaining: rule.calls_limit,
    }, { ...headers, 'cache-control': 'no-store', 'x-request-id': ctx.requestId });
  }

  /** Prism's habit: `Prefer: code=NNN` and/or `example=NAME` answer a documented example as is. */
  function preferredExample(request: Request, operationId: string): Response | null {
    const prefer = request.headers.get('prefer');
    if (!prefer) return null;
    const wants = Object.fromEntries(prefer.split(/[,;]/).map((p) => p.trim().split('=').map((s) => s.trim().replace(/^"|"$/g, ''))).filter((p) => p.length === 2));
    if (!wants.code && !wants.example) return null;
    const op = Object.values(openapiDocument.paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>)
      .flatMap((item) => Object.values(item)).find((o) => o.operationId === operationId)!;
    const code = wants.code ?? Object.keys(op.responses).find((c) => c.startsWith('2'))!;
    type Documented = { content?: Record<string, { examples?: Record<string, unknown> }> };
    const response = op.responses[code] === undefined ? undefined : (resolveRef(op.responses[code]) as Documented);
    if (!response) {
      throw new ProblemError('invalid_parameter', `Prefer: code=${code} is not documented for ${operationId}; documented: ${Object.keys(op.responses).join(', ')}.`, { extra: { errors: [{ parameter: 'Prefer', detail: 'undocumented status' }] } });
    }
    const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
    const examples = media?.examples ?? {};
    const name = wants.example ?? Object.keys(examples)[0];
    const example = name ? examples[name] : undefined;
    if (wants.example && !example) {
      throw new ProblemError('invalid_parameter', `Prefer: example=${wants.example} is not an example of ${operationId} ${code}; there are: ${Object.keys(examples).join(', ') || 'none'}.`, { extra: { errors: [{ parameter: 'Prefer', detail: 'unknown example' }] } });
    }
    const headers: Record<string, string> = { 'preference-applied': prefer };
    if (mediaType) headers['content-type'] = mediaType;
    if (code === '429') headers['retry-after'] = '1';
    if (code === '401') headers['www-authenticate'] = 'Bearer realm="investor-graph"';
    const value = example ? (resolveRef(example) as { value: unknown }).value : undefined;
    return new Response(code === '304' || value === undefined ? null : JSON.stringify(value), { status: Number(code), headers });
  }

  return {
    fetch,
    ready,
    clock,
    store,
    accounts,
    presetKeys,
    rebuild: () => store.applyDue(clock.now()),
  };
}

/** Paths of the control plane, which the data API's conventions leave alone. */
const CONTROL_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/__control(?:[/?#]|$)/i;

/** Throws `error` where an expression is expected. */
function throwing(error: Error): never {
  throw error;
}

/**
 * The monthly (or trial) quota as a second item of the IETF ratelimit headers, beside the
 * per-second "default": `"quota";q=<calls>;w=<seconds>` and `"quota";r=<left>;t=<seconds to renewal>`.
 */
function withQuota(rate: Record<string, string>, key: KeyRecord, now: number): Record<string, string> {
  const limit = plans[key.plan].calls_limit;
  if (limit === null || key.periodStart === null || key.periodEnd === null) return rate;
  const window = Math.round((key.periodEnd - key.periodStart) / 1000);
  const left = Math.max(0, limit - key.callsUsed);
  const renews = Math.max(0, Math.ceil((key.periodEnd - now) / 1000));
  return { ...rate, 'ratelimit-policy': `${rate['ratelimit-policy']}, "quota";q=${limit};w=${window}`, ratelimit: `${rate.ratelimit}, "quota";r=${left};t=${renews}` };
}

/** Request-validation verdicts kept, oldest dropped first: enough for any client's working set. */
const MAX_VERDICTS = 2048;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

/** A JSON answer whose body is already serialised. */
function jsonText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
}

/**
 * Parses the query string strictly: a malformed %-escape or bytes that are not UTF-8 are a 400
 * naming the parameter (URLSearchParams would silently turn them into U+FFFD), and so is a
 * parameter given twice.
 */
function parseQuery(search: string): Map<string, string> {
  const out = new Map<string, string>();
  if (search.length <= 1) return out;
  for (const part of search.slice(1).split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      const label = /^[\w-]+$/.test(rawName) ? rawName : 'query';
      throw new ProblemError('invalid_parameter', `The query parameter ${label} is not valid percent-encoded UTF-8.`, { extra: { errors: [{ parameter: label, detail: 'not valid percent-encoded UTF-8' }] } });
    }
    if (out.has(name)) throw new ProblemError('invalid_parameter', `The query parameter ${name} is given more than once.`, { extra: { errors: [{ parameter: name, detail: 'given more than once' }] } });
    out.set(name, value);
  }
  return out;
}

function checkQueryNames(route: RouteMatch, query: Map<string, string>): void {
  const unknown = [...query.keys()].filter((k) => !route.queryNames.includes(k));
  if (!unknown.length) {
    const empty = [...query].find(([, v]) => v === '');
    if (empty) throw new ProblemError('invalid_parameter', `The query parameter ${empty[0]} is empty; leave it out instead.`, { extra: { errors: [{ parameter: empty[0], detail: 'empty' }] } });
    // prism-http coerces "Infinity", "1e3" and " 7" to numbers; the contract says integer, so digits only.
    const limit = query.get('limit');
    if (limit !== undefined && !/^[0-9]{1,30}$/.test(limit)) {
      throw new ProblemError('invalid_parameter', `limit must be a whole number of at least 1, got "${limit.slice(0, 40)}".`, { extra: { errors: [{ parameter: 'limit', detail: 'must be a whole number of at least 1' }] } });
    }
    return;
  }
  const errors = unknown.map((name) => {
    const near = nearest(name, route.queryNames);
    return { parameter: name, detail: near ? `unknown; did you mean ${near}?` : `unknown; this endpoint takes ${route.queryNames.join(', ') || 'no query parameters'}` };
  });
  throw new ProblemError('unknown_parameter', errors.map((e) => `${e.parameter}: ${e.detail}`).join('; '), { extra: { errors } });
}
