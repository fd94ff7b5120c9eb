// @module-tag servers
/**
 * The suite in this repo's CI against the mock on loopback with an Enterprise key, as a user's
 * pipeline would run it against the service: its plan's default budget, the rate burst allowed,
 * the control API driven. Every property runs every one of its boundary cases and some generated
 * ones ("checked on every case"), within the budget the plan printed.
 */
import { afterAll, expect, test } from 'vitest';
import { newKeyText } from '@investor-graph/mock';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { defaultBudget, keylessCalls } from './budgets.ts';
import type { SuiteConfig } from './context.ts';
import type { Report } from '../report/report.ts';
import { defineContractSuite } from '../cli/suite.ts';
import { properties } from '../properties.ts';

const mocks: RunningMock[] = [];
let report: Report | undefined;
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});

defineContractSuite(
  async () => {
    const key = newKeyText('enterprise');
    const mock = await startMock({ port: 0, keys: [{ plan: 'enterprise', key }] });
    mocks.push(mock);
    const config: SuiteConfig = {
      baseUrl: mock.url,
      key,
      plan: 'enterprise',
      budget: { calls: 0, rows: 0 },
      seed: 20261121,
      runs: 25,
      allowRate: true,
      useControl: true,
      reportFile: 'test-results/contract-tests/enterprise.json',
    };
    const { calls, rows, why } = defaultBudget('enterprise', keylessCalls(config, properties));
    return { ...config, budget: { calls, rows }, budgetWhy: why };
  },
  { name: 'contract tests against the mock with an Enterprise key', print: true, onReport: (r) => (report = r) },
);

test('a default run checks every property on every case, as planned before its first call, within its budget', () => {
  expect(report).toBeDefined();
  const { properties, run_plan: plan, spent, budget } = report!;
  expect(
    properties.filter((p) => p.coverage !== 'every case').map((p) => `${p.id}: ${p.coverage} ${p.reason ?? ''}`),
  ).toEqual([]);
  expect(
    plan!.properties.every(
      (p) => !p.skip && p.boundary === p.boundaryTotal && (p.generatedWanted === 0 || p.generated > 0),
    ),
  ).toBe(true);
  expect(plan!.spend.calls).toBeLessThanOrEqual(budget.calls);
  expect(spent.calls).toBeLessThanOrEqual(plan!.spend.calls);
  expect(spent.rows).toBeLessThanOrEqual(budget.rows);
  expect(report!.summary.coverage).toEqual({ 'every case': properties.length, 'some cases': 0, 'not reached': 0 });
  expect(report!.score.some_cases).toBe(0);
  expect(report!.wall_ms).toBeGreaterThan(0);
});
