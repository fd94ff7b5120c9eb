/**
 * MSW 3 handlers over the Investor Graph mock engine: the very engine the Node server runs, in
 * your test process, with no port. Keys, plans, quotas, cursors, `actions` errors, the changes
 * feed and the test clock behave as they do against `pnpm start`.
 *
 * @example
 * const api = await createInvestorGraphApi({ baseUrl: 'https://api.investorgraph.test' });
 * const server = setupServer(...api.handlers);
 * server.listen({ onUnhandledFrame: 'error' });
 * afterEach(() => api.reset());
 */
import { http, type HttpHandler } from 'msw';
import { planIds, type PlanId } from '@investor-graph/contract/plans';
import type { ContractValidator } from '@investor-graph/contract';
import { createEngine, newKeyText, presetPrepaidRows, type Engine, type EngineOptions } from '@investor-graph/mock';

export type DatasetInput = EngineOptions['dataset'];

/**
 * What the engine takes, but its state store: handlers keep state in memory, where `reset` can
 * start it afresh (a database shared with a mock server would survive every reset).
 */
export interface InvestorGraphApiOptions extends Omit<EngineOptions, 'dataset' | 'validator' | 'keys' | 'keyStore'> {
  /** The origin your client calls, e.g. https://api.investorgraph.test. Only it is intercepted. */
  baseUrl: string;
  /** The data to serve; the embedded default dataset when left out (read from disk: Node only). */
  dataset?: DatasetInput;
  /** prism-http request validation; built from the contract when left out. */
  validator?: ContractValidator;
  /** Keys to preset, by plan. A key per plan is made up for any plan not given. */
  keys?: Partial<Record<PlanId, string>>;
  /** Prepaid rows of the preset pay-as-you-go key (100,000 by default). */
  prepaidRows?: number;
}

export interface InvestorGraphApi {
  /** MSW request handlers for `setupServer(...)` or `setupWorker(...)`. */
  readonly handlers: HttpHandler[];
  /** A ready key for each plan. */
  readonly keys: Readonly<Record<PlanId, string>>;
  /** The engine behind the handlers now (replaced by `reset`). */
  readonly engine: Engine;
  /** Back to a fresh state in one call: data, keys (the same texts), counters, clock. */
  reset(): Promise<void>;
}

/**
 * Handlers that send every request under `baseUrl` to `engine` (or to whatever `current()` returns,
 * so a reset can swap the engine without touching the handlers the user registered).
 */
export function createHandlers(options: { baseUrl: string; engine: Engine | (() => Engine) }): HttpHandler[] {
  const origin = new URL(options.baseUrl).origin;
  const current = typeof options.engine === 'function' ? options.engine : () => options.engine as Engine;
  // In-process: the control endpoints are as reachable as loopback is for the Node server.
  return [http.all(`${origin}/*`, ({ request }) => current().fetch(request, { clientAddress: 'msw', loopback: true, inProcess: true }))];
}

async function defaultDataset(): Promise<DatasetInput> {
  // Loaded lazily so that a browser bundle that passes its own dataset never pulls in node:fs.
  const [{ datasetDir }, { loadDataset }] = await Promise.all([import('@investor-graph/dataset'), import('@investor-graph/fixtures/node')]);
  const dataset = await loadDataset(datasetDir);
  return { asOf: dataset.manifest.as_of, rows: dataset.rows, changes: dataset.changes, pending: dataset.pending };
}

async function defaultValidator(): Promise<ContractValidator> {
  // Lazy for the same reason: prism-http needs Node built-ins and does not bundle for a browser.
  const { createContractValidator } = await import('@investor-graph/contract');
  return createContractValidator();
}

/** The engine, its MSW handlers and a key per plan. */
export async function createInvestorGraphApi(options: InvestorGraphApiOptions): Promise<InvestorGraphApi> {
  // A keyStore given anyway (from JavaScript, or cast) is left out: state stays in memory, for reset.
  const { baseUrl, dataset: given, validator: givenValidator, keys: givenKeys = {}, prepaidRows = presetPrepaidRows, keyStore: _memoryOnly, ...engineOptions } = options as InvestorGraphApiOptions & { keyStore?: unknown };
  const [dataset, validator] = await Promise.all([given ?? defaultDataset(), givenValidator ?? defaultValidator()]);
  const keys = Object.fromEntries(planIds.map((plan) => [plan, givenKeys[plan] ?? newKeyText(plan)])) as Record<PlanId, string>;
  const build = async (): Promise<Engine> => {
    const engine = createEngine({
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
    handlers: createHandlers({ baseUrl, engine: () => engine }),
    keys,
    get engine() {
      return engine;
    },
    async reset() {
      engine = await build();
    },
  };
}
