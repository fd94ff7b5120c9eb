/**
 * The suite in this repo's CI against the mock on loopback with an Enterprise key, rate burst
 * allowed, as a user's pipeline would run it against the service.
 */
import { afterAll } from 'vitest';
import { newKeyText } from '@investor-graph/mock';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { defineContractSuite } from './suite.ts';

const mocks: RunningMock[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});

defineContractSuite(
  async () => {
    const key = newKeyText('enterprise');
    const mock = await startMock({ port: 0, keys: [{ plan: 'enterprise', key }] });
    mocks.push(mock);
    return { baseUrl: mock.url, key, plan: 'enterprise', budget: { calls: 900, rows: 20_000 }, seed: 20261121, runs: 20, allowRate: true, useControl: true, reportFile: 'test-results/contract-tests/enterprise.json' };
  },
  { name: 'contract tests against the mock with an Enterprise key', print: true },
);
