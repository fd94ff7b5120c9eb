/**
 * The mock's core: `fetch(Request) => Promise<Response>` over the dataset, with no Node-only API,
 * so the Node server and the MSW handlers are thin adapters over this one function. createEngine
 * makes the parts a request works with; request/steps.ts holds the steps, control.ts the control
 * plane.
 */
// Subpaths, not the index: the index brings prism-http, which no browser bundle can hold.
import type { PlanId } from '@investor-graph/contract/plans';
import type { ContractValidator } from '@investor-graph/contract';
import { Accounts } from './accounts/accounts.ts';
import type { RateLimiter } from './stores/rate-limiter.ts';
import { toResponse, type Answer } from './answer.ts';
import { Clock, SharedClock } from './clock.ts';
import type { RequestContext } from './context.ts';
import { handleControl, type ControlDeps } from './control/control.ts';
import { controlPlane } from './control/plane.ts';
import { ControlGuard } from './control/guard.ts';
import { CursorCodec } from './data/cursor.ts';
import { Dumps, type DumpFiles, type DumpWriter } from './dumps/dumps.ts';
import { Incidents } from './incidents/incidents.ts';
import type { IncidentStore } from './incidents/store.ts';
import { incidentsWrapper } from './incidents/wrapper.ts';
import { defaultJournalSize, Journal } from './journal/journal.ts';
import type { JournalStore } from './journal/journal-store.ts';
import { journalWrapper } from './journal/wrapper.ts';
import { randomToken, requestIds } from './hash.ts';
import { echoedRequestId, type CorsOrigins } from './request/http-conventions.ts';
import type { KeyStore } from './stores/key-store.ts';
import { MemoryKeyStore } from './stores/memory/key-store.ts';
import { answered, knownKeys, steps, type EngineParts } from './request/steps.ts';
import { boundary, same } from './request/boundary.ts';
import { BodySerialiser } from './request/serialise.ts';
import { Statistics } from './data/statistics.ts';
import { MemoryStore } from './stores/memory/dataset-store.ts';
import type { Store, StoreInput } from './data/store.ts';
import { RequestValidation } from './request/validate.ts';
import { compose, type Handler, type Wrapper } from './wrapper.ts';

export type { RequestContext } from './context.ts';
export { compose, type Handler, type Wrapper } from './wrapper.ts';

export interface PresetKey {
  plan: PlanId;
  key: string;
  prepaidRows?: number;
}

export interface EngineOptions<J extends JournalStore = JournalStore> {
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
   * How long past its end a trial's key is known: the plan table's
   * unless given (only the ended-trials-kept fault gives another).
   */
  trialKeptMs?: number;
  /**
   * Where keys, counters, balances, the clock and the cursor secret are kept (in memory by
   * default). A store that already holds a clock or a cursor secret wins over `now` and `cursorSecret`.
   */
  keyStore?: KeyStore;
  /** Token buckets shared by every mock on the key store (Redis); in this process's memory unless given. */
  limiter?: RateLimiter;
  /** Buckets of client addresses alone shared by every mock on the key store (SQLite); keys' stay in this process. */
  addressLimiter?: RateLimiter;
  /** Origins a browser app may call the data API from: any by default, as Prism does. Never /__control. */
  corsOrigins?: CorsOrigins;
  /** How many data-API calls the request journal holds, the oldest pushed out first (1,000 unless given; 0: none). */
  journal?: number;
  /** Where the journal is kept (its own capacity wins): a ring of `journal` calls in memory unless given. */
  journalStore?: J;
  /** Where the incidents are kept (a store the replicas share); this process's memory unless given. */
  incidentStore?: IncidentStore;
  /** The adapter's wrappers around the engine's own, outermost first (the docs page, the faults), given the engine. */
  wrappers?: (engine: Engine) => readonly Wrapper[];
}

export interface Engine<J extends JournalStore = JournalStore> {
  /** `answer` as a Response: what MSW's handlers and any fetch handler serve. */
  fetch(this: void, request: Request, context?: RequestContext): Promise<Response>;
  /**
   * The engine's one entry: any call (the data API's and /__control's) answered as the record its
   * Response is made of (status, header record, body), for an adapter that writes it itself (the
   * Node server).
   */
  answer(this: void, request: Request, context?: RequestContext): Promise<Answer>;
  readonly ready: Promise<void>;
  readonly clock: Clock;
  readonly store: Store;
  readonly accounts: Accounts;
  /** The nightly dumps (the Node server writes them ahead: start.ts). */
  readonly dumps: Dumps;
  /**
   * The last calls of the data API, as a test asks what its app did (journal/, /__control/journal):
   * a memory `Journal`, read synchronously, unless `journalStore` gave another.
   */
  readonly journal: J;
  /** What a test asked the mock to do wrong, to which calls (incidents/, /__control/incidents). */
  readonly incidents: IncidentStore;
}

const isStore = (dataset: StoreInput | Store): dataset is Store =>
  'page' in dataset && typeof dataset.page === 'function';

export function createEngine<J extends JournalStore = Journal>(options: EngineOptions<J>): Engine<J> {
  const parts = createParts(options);
  const { store, clock, accounts, incidents } = parts;
  const guard = new ControlGuard(options.adminToken, accounts.limiter);
  const nextRequestId = requestIds();
  // No store given, J is its default: the ring in memory.
  const journal = options.journalStore ?? (new Journal(options.journal ?? defaultJournalSize) as JournalStore as J);
  const requestIdOf = (request: Request): string =>
    // A well-formed request id the client sent is the one its answer and the log carry.
    echoedRequestId(request, () => knownKeys(parts, request)) ?? nextRequestId();

  // The control plane keeps its own rules: no CORS, no caching, no journal (control.ts).
  const control = (request: Request, context: RequestContext): Promise<Answer> => {
    const deps = { store, clock, accounts, context, guard, requestId: requestIdOf(request), journal, incidents };
    const changeClock: ControlDeps['changeClock'] = (edit) => parts.shared.change(edit);
    const handle = (url: URL) => handleControl(request, url, { ...deps, changeClock });
    return answered(parts, request, deps.requestId, handle, same);
  };

  /**
   * The engine's one entry, `answer`: every call, the data API's and the control plane's, as the
   * record its answer is made of, through one list of wrappers, outermost first: the adapter's
   * (the docs page, the faults: `options.wrappers`), the control plane, the journal, the boundary
   * (request/boundary.ts: a data call's id, clock, problems and HTTP's conventions), the incidents;
   * then the steps. The Node server writes the record (its fast path) or the Response made of it;
   * `fetch` is that Response, for MSW and any fetch handler: a faulted call takes the same way as a clean one.
   */
  const inner = steps(parts, requestIdOf);
  let composed: Handler = inner;
  const answer: Handler = (request, context) => composed(request, context);
  const journalDeps = { requestIdOf, known: (request: Request) => knownKeys(parts, request), now: () => clock.now() };
  const ownWrappers = [
    controlPlane(control),
    journalWrapper(journal, journalDeps),
    boundary(parts, requestIdOf),
    incidentsWrapper(parts, incidents),
  ];
  const fetch = async (request: Request, context?: RequestContext): Promise<Response> =>
    toResponse(await answer(request, context));

  const engine = {
    fetch,
    answer,
    ready: parts.ready,
    clock,
    store,
    accounts,
    dumps: parts.env.dumps,
    journal,
    incidents,
  };
  composed = compose([...(options.wrappers?.(engine) ?? []), ...ownWrappers], inner);
  return engine;
}

/** The parts a request works with (request/steps.ts), made from the options. */
export function createParts(options: EngineOptions): EngineParts & { shared: SharedClock; incidents: IncidentStore } {
  const store = isStore(options.dataset) ? options.dataset : new MemoryStore(options.dataset);
  const keyStore = options.keyStore ?? new MemoryKeyStore();
  const clock = new Clock(options.now ?? store.asOf, options.frozen ?? false);
  const realNow = options.realNow ?? (() => performance.now());
  const accounts = new Accounts(keyStore, {
    realNow: options.limiterNow ?? realNow,
    enforceLimits: options.rateLimit !== false,
    ...(options.limiter ? { limiter: options.limiter } : {}),
    ...(options.addressLimiter ? { addressLimiter: options.addressLimiter } : {}),
    ...(options.trialKeptMs !== undefined ? { trialKeptMs: options.trialKeptMs } : {}),
  });
  // Known before the first call is answered or logged (the presets are stored once the store is ready).
  for (const preset of options.keys ?? []) accounts.known.add(preset.key);
  const publicBase = (): string =>
    (typeof options.publicUrl === 'function' ? options.publicUrl() : (options.publicUrl ?? 'http://localhost')).replace(
      /\/+$/,
      '',
    );
  // The first process on a store decides the clock and the cursor secret; later ones take them up.
  const shared = new SharedClock(clock, keyStore, realNow);
  const cursorSecret = Promise.resolve(keyStore.claimMeta('cursor_secret', options.cursorSecret ?? randomToken(43)));
  const cursors = new CursorCodec(cursorSecret);
  const statistics = new Statistics(store);
  const dumps = new Dumps(store, {
    ...(options.dumpFiles ? { files: options.dumpFiles } : {}),
    ...(options.dumpWriter ? { writer: options.dumpWriter } : {}),
  });
  const ready = (async () => {
    await Promise.all([shared.claim(), cursorSecret]);
    for (const preset of options.keys ?? [])
      await accounts.preset(preset.plan, preset.key, clock.now(), preset.prepaidRows ?? 0);
    // Rebuilds up to the restored clock replay deterministically from the dataset.
    store.applyDue(clock.now());
  })();
  const now = (): number => clock.now();
  return {
    store,
    clock,
    shared,
    accounts,
    cursors,
    ready,
    validation: new RequestValidation(options.validator),
    serialiser: new BodySerialiser(),
    env: { store, statistics, dumps, accounts, validator: options.validator, now, publicBase },
    envelope: { cursors },
    corsOrigins: options.corsOrigins ?? '*',
    known: accounts.known,
    incidents: options.incidentStore ?? new Incidents(),
  };
}
