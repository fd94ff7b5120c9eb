/**
 * `@investor-graph/msw/browser`: the mock engine as MSW handlers for `setupWorker`, with request
 * validation by prism-http's own code, bundled to run in a browser. The published file is one
 * ES module with everything but `msw` inside it (build-browser.mjs), so an app's bundler (Vite,
 * webpack, esbuild) meets no Node built-in.
 *
 * @example
 * import { setupWorker } from 'msw/browser';
 * import { createInvestorGraphApi } from '@investor-graph/msw/browser';
 * const api = await createInvestorGraphApi({ baseUrl: 'https://api.investorgraph.test', dataset: { url:
 * '/investor-graph-dataset/' } }); await setupWorker(...api.handlers).start({ onUnhandledFrame: 'bypass' });
 */
import { collectDataset, datasetInput, defaultDataset, fetchDataset } from '@investor-graph/dataset-tools';
import { createApi, type DatasetInput, type InvestorGraphApi, type InvestorGraphApiOptions } from './api.ts';
import { createBrowserValidator } from './browser-validator.ts';

export { createHandlers, type DatasetInput, type InvestorGraphApi } from './api.ts';
export { createBrowserValidator } from './browser-validator.ts';
// What a test catches from `api.verify` and uses as `api.control`, the same from either entry.
export * from './control-exports.ts';

export interface BrowserApiOptions extends Omit<InvestorGraphApiOptions, 'dataset'> {
  /**
   * The data to serve: `{ url }` of a dataset folder the app serves (copy
   * `node_modules/@investor-graph/dataset/default` into the app's public folder), or a dataset in
   * hand. Left out, the default dataset is generated in the page from its seed: the very rows of
   * the committed files (the dataset tools' tests hold the generator to them byte for byte), with no
   * file to serve.
   */
  dataset?: DatasetInput | { url: string };
}

/**
 * The engine, its MSW handlers and a key per plan, in the browser; state lives in memory
 * and `reset()` starts it afresh.
 */
export async function createInvestorGraphApi(options: BrowserApiOptions): Promise<InvestorGraphApi> {
  const given = options.dataset ?? collectDataset(defaultDataset);
  const [dataset, validator] = await Promise.all([
    'url' in given ? fetchDataset(given.url).then(datasetInput) : given,
    options.validator ?? createBrowserValidator(),
  ]);
  return createApi({ ...options, dataset, validator });
}
