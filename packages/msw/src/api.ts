/**
 * What the Node and the browser entries share: the handlers over the engine, and the API object
 * (engine, keys, reset) built from a dataset and a validator given to it.
 */
import { http, type HttpHandler } from 'msw';
import { planIds, type PlanId } from '@investor-graph/contract/plans';
import type { ContractValidator } from '@investor-graph/contract';
import {
  createEngine,
  newKeyText,
  parseExpectation,
  presetPrepaidRows,
  verify,
  VerificationError,
  type CallCount,
  type Engine,
  type EngineOptions,
  type Journal,
  type JournalEntry,
  type JournalFilter,
  type JournalPattern,
  type Verification,
} from '@investor-graph/engine';
import { createControlClient, inProcessFetch, type ControlClient } from '@investor-graph/engine/control';
import { faultEngineOptions, faultWrapper, type FaultName } from '@investor-graph/engine/faults';

export type DatasetInput = EngineOptions['dataset'];

/**
 * What the engine takes, but its state and journal stores: handlers keep both in memory, where
 * `reset` can start them afresh (a database shared with a mock server would survive every reset)
 * and the journal is read synchronously.
 */
export interface InvestorGraphApiOptions extends Omit<
  EngineOptions,
  'dataset' | 'validator' | 'keys' | 'keyStore' | 'journalStore'
> {
  /** The origin your client calls, e.g. https://api.investorgraph.test. Only it is intercepted. */
  baseUrl: string;
  /**
   * The data to serve; the default dataset when left out (under Node read from @investor-graph/dataset, in a browser
   * generated from its seed).
   */
  dataset?: DatasetInput;
  /** prism-http request validation; built from the contract when left out. */
  validator?: ContractValidator;
  /** Keys to preset, by plan. A key per plan is made up for any plan not given. */
  keys?: Partial<Record<PlanId, string>>;
  /** Prepaid rows of the preset pay-as-you-go key (100,000 by default). */
  prepaidRows?: number;
  /**
   * Deliberate faults to switch on, as the mock's `--fault` does (`faults` of @investor-graph/engine
   * says what each breaks), through the same list of wrappers; none by default.
   */
  faults?: readonly FaultName[];
}

export interface InvestorGraphApi {
  /** MSW request handlers for `setupServer(...)` or `setupWorker(...)`. */
  readonly handlers: HttpHandler[];
  /** A ready key for each plan. */
  readonly keys: Readonly<Record<PlanId, string>>;
  /** The engine behind the handlers now (replaced by `reset`), its journal in memory. */
  readonly engine: Engine<Journal>;
  /** Back to a fresh state in one call: data, keys (the same texts), counters, clock, journal. */
  reset(): Promise<void>;
  /**
   * The calls your app made to the data API so far, oldest first, those matching `filter` only
   * (operation, method, path with `*`, status or `'4xx'`, key_id, plan, query, since: wall-clock ms): the request
   * journal, as `GET /__control/journal` pages it. No key is in any entry.
   */
  journal(filter?: JournalFilter): JournalEntry[];
  /** Forgets every call journaled so far (a test's own calls from here on). */
  clearJournal(): void;
  /**
   * Asserts that the calls matching `pattern` number `count` (at least one unless given): throws a
   * `VerificationError` whose message lists the expectation and the nearest calls with what differed
   * in each (WireMock's near misses), as your test runner shows it.
   * @example api.verify({ operation: 'listFirms', query: { limit: '50' } }, 2)
   */
  verify(pattern: JournalPattern, count?: CallCount): Verification;
  /**
   * The mock's control API in-process, as `createControlClient` of `@investor-graph/mock/control`
   * drives a mock server: keys, clock, rebuilds, journal, verification, state, with the same
   * methods and answers, so a test's lines are the same against either.
   * @example const { key_id } = await api.control.createKey({ plan: 'trial' }); await api.control.advanceClock('P8D');
   */
  readonly control: ControlClient;
}

/**
 * Handlers that send every request under `baseUrl` to `engine` (or to whatever `current()` returns,
 * so a reset can swap the engine without touching the handlers the user registered).
 */
export function createHandlers(options: { baseUrl: string; engine: Engine | (() => Engine) }): HttpHandler[] {
  const origin = new URL(options.baseUrl).origin;
  const current = typeof options.engine === 'function' ? options.engine : () => options.engine as Engine;
  // In-process: the control endpoints are as reachable as loopback is for the Node server.
  return [
    http.all(`${origin}/*`, ({ request }) =>
      current().fetch(request, { clientAddress: 'msw', loopback: true, inProcess: true }),
    ),
  ];
}

/**
 * The engine, its MSW handlers and a key per plan, over a dataset and a validator already in hand:
 * the Node entry (index.ts) and the browser entry (browser.ts) each supply their own defaults.
 */
export async function createApi(
  options: InvestorGraphApiOptions & { dataset: DatasetInput; validator: ContractValidator },
): Promise<InvestorGraphApi> {
  // A keyStore or journalStore given anyway (from JavaScript, or cast) is left out: both stay in memory.
  const {
    baseUrl,
    dataset,
    validator,
    keys: givenKeys = {},
    prepaidRows = presetPrepaidRows,
    faults = [],
    keyStore: _memoryOnly,
    journalStore: _journalInMemory,
    ...engineOptions
  } = options as InvestorGraphApiOptions & {
    dataset: DatasetInput;
    validator: ContractValidator;
    keyStore?: unknown;
    journalStore?: unknown;
  };
  const keys = Object.fromEntries(planIds.map((plan) => [plan, givenKeys[plan] ?? newKeyText(plan)])) as Record<
    PlanId,
    string
  >;
  const build = async (): Promise<Engine<Journal>> => {
    const engine: Engine<Journal> = createEngine({
      // A fault that acts inside the engine reads it at call time; one on its answers is a wrapper.
      ...faultEngineOptions(faults, () => engine),
      wrappers: (built) => [faultWrapper(faults, built)],
      // Links the mock writes point where the client's requests go.
      publicUrl: baseUrl,
      ...engineOptions,
      // Shared safely: the store never mutates the rows it is given, it replaces them.
      dataset,
      validator,
      keys: planIds.map((plan) => ({ plan, key: keys[plan], ...(plan === 'payg' ? { prepaidRows } : {}) })),
    });
    await engine.ready;
    return engine;
  };
  let engine = await build();
  return {
    control: createControlClient({ baseUrl, fetch: inProcessFetch(() => engine) }),
    handlers: createHandlers({ baseUrl, engine: () => engine }),
    keys,
    get engine() {
      return engine;
    },
    async reset() {
      engine = await build();
    },
    journal: (filter = {}) => engine.journal.page(filter, Math.max(1, engine.journal.capacity)).entries,
    clearJournal: () => engine.journal.clear(),
    verify(pattern, count) {
      // Checked as the control endpoint checks it: a pattern from JavaScript may hold anything.
      const asked = parseExpectation(count === undefined ? { pattern } : { pattern, count });
      if (!asked.ok)
        throw new TypeError(
          `[investor-graph mock] verify: ${asked.errors.map((e) => `${e.pointer}: ${e.detail}`).join('; ')}`,
        );
      const verification = verify(engine.journal, asked.value.pattern, asked.value.count, engine.accounts.known.with());
      if (!verification.ok) throw new VerificationError(verification);
      return verification;
    },
  };
}
