// @module-tag servers
/** The suite with a trial key obtained by e-mail, as a pipeline without a paid key runs it. */
import { afterAll } from 'vitest';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { defineContractSuite } from '../cli/suite.ts';

let mock: RunningMock | undefined;
afterAll(async () => {
  await mock?.close();
});

defineContractSuite(
  async () => {
    mock = await startMock({ port: 0 });
    return {
      baseUrl: mock.url,
      email: 'pipeline@example.com',
      plan: 'trial',
      budget: { calls: 50, rows: 2_000 },
      seed: 7,
      runs: 5,
      useControl: true,
      reportFile: 'test-results/contract-tests/trial.json',
    };
  },
  { name: 'contract tests against the mock with a trial key from an e-mail', print: true },
);
