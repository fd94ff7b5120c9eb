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
import type { ContractValidator } from '@investor-graph/contract';
import { datasetInput } from '@investor-graph/dataset-tools';
import { createApi, type DatasetInput, type InvestorGraphApi, type InvestorGraphApiOptions } from './api.ts';

export { createHandlers, type DatasetInput, type InvestorGraphApi, type InvestorGraphApiOptions } from './api.ts';
// What a test catches from `api.verify` and uses as `api.control`, the same from either entry.
export * from './control-exports.ts';

async function defaultDataset(): Promise<DatasetInput> {
  // Loaded lazily so that a browser bundle that passes its own dataset never pulls in node:fs.
  const [{ datasetDir }, { loadDataset }] = await Promise.all([
    import('@investor-graph/dataset'),
    import('@investor-graph/dataset-tools/node'),
  ]);
  return datasetInput(await loadDataset(datasetDir));
}

async function defaultValidator(): Promise<ContractValidator> {
  // Lazy for the same reason: prism-http names Node built-ins, and bundles for a browser only as
  // build-browser.mjs builds it (the browser entry, @investor-graph/msw/browser).
  const { createContractValidator } = await import('@investor-graph/contract');
  return createContractValidator();
}

/** The engine, its MSW handlers and a key per plan; the embedded dataset and prism-http's validator unless given. */
export async function createInvestorGraphApi(options: InvestorGraphApiOptions): Promise<InvestorGraphApi> {
  const [dataset, validator] = await Promise.all([
    options.dataset ?? defaultDataset(),
    options.validator ?? defaultValidator(),
  ]);
  return createApi({ ...options, dataset, validator });
}
