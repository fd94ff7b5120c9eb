import { afterAll } from 'vitest';
import { setupServer } from 'msw/node';
import { createContractValidator } from '@investor-graph/contract';
import { runConformance } from '@investor-graph/mock/conformance';
import { createEngine } from '@investor-graph/engine';
import { loadInput } from '@investor-graph/mock/node';
import { createHandlers } from './index.ts';

// The mock's whole conformance suite, in-process through MSW: no port is opened.
const [dataset, validator] = await Promise.all([loadInput({}), createContractValidator()]);
const server = setupServer();
server.listen({ onUnhandledFrame: 'error' });
afterAll(() => server.close());

let origins = 0;
runConformance({
  name: 'msw handlers',
  async setup({ now }) {
    // Each setup gets its own origin so several mocks can live in one MSW server side by side.
    const baseUrl = `https://mock-${++origins}.investorgraph.test`;
    const engine = createEngine({ dataset, validator, now: Date.parse(now), frozen: true, publicUrl: baseUrl });
    await engine.ready;
    server.use(...createHandlers({ baseUrl, engine }));
    return { baseUrl, fetch: globalThis.fetch, close: async () => {} };
  },
});
