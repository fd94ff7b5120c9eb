// @module-tag servers
/**
 * A pay-as-you-go key costs money per row: the suite stays inside its budget, says how it spent it,
 * and what it says it spent is what the service charged.
 */
import { afterAll, expect, test } from 'vitest';
import { newKeyText } from '@investor-graph/mock';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { defineContractSuite } from '../cli/suite.ts';
import type { Report } from '../report/report.ts';

const key = newKeyText('payg');
const prepaid = 5_000;
const budget = { calls: 40, rows: 400 };
let mock: RunningMock | undefined;
let report: Report | undefined;

afterAll(async () => {
  await mock?.close();
});

defineContractSuite(
  async () => {
    mock = await startMock({ port: 0, keys: [{ plan: 'payg', key, prepaidRows: prepaid }] });
    return { baseUrl: mock.url, key, plan: 'payg', budget, seed: 99, runs: 10, useControl: true };
  },
  { name: 'contract tests with a pay-as-you-go key and a small budget', onReport: (r) => (report = r) },
);

test('the run spent no more than its budget, and exactly what the service charged', async () => {
  expect(report).toBeDefined();
  const { spent, spent_by_check: byCheck, properties } = report!;
  expect(spent.calls).toBeLessThanOrEqual(budget.calls);
  expect(spent.rows).toBeLessThanOrEqual(budget.rows);
  expect(Object.values(byCheck).reduce((sum, s) => sum + s.rows, 0)).toBe(spent.rows);
  expect(Object.values(byCheck).reduce((sum, s) => sum + s.calls, 0)).toBe(spent.calls);
  // A budget this small cannot run every property in full; the report says which it cut, and how far each got.
  expect(properties.some((p) => p.plannedRuns < 10 || p.stoppedByBudget || /budget/.test(p.reason ?? ''))).toBe(true);
  expect(properties.filter((p) => p.coverage !== 'every case').length).toBeGreaterThan(0);
  for (const p of properties) if (p.coverage === 'not reached') expect(p.reason, p.id).toBeTruthy();
  for (const p of properties.filter((p) => p.coverage === 'some cases' && p.status === 'passed'))
    expect(p.cases.boundary < p.cases.boundaryTotal || p.cases.generated === 0 || p.stoppedByBudget, p.id).toBe(true);
  // What the plan said before the first call is what bounded the run.
  expect(report!.run_plan!.spend.calls).toBeLessThanOrEqual(budget.calls);
  expect(report!.run_plan!.spend.rows).toBeLessThanOrEqual(budget.rows);

  const state = (await (await fetch(`${mock!.url}/__control/state`)).json()) as {
    keys: { plan: string; usage: { balance_rows: number } }[];
  };
  const balance = state.keys.find((k) => k.plan === 'payg' && k.usage.balance_rows !== null)!.usage.balance_rows;
  expect(prepaid - balance).toBe(spent.rows);
});
