import { expect, test } from 'vitest';
import fc from 'fast-check';
import type { SuiteContext } from './context.ts';
import type { Property } from './properties.ts';
import { freePort } from '@investor-graph/cli';
import { failureMessage, plannedRuns } from './run.ts';

const property = (id: string, calls: number, once = false): Property => ({
  id, title: id, spec: [], assumed: [], once, skip: () => null, cost: () => ({ calls, rows: 0 }), arbitrary: () => fc.constant(null), check: async () => {},
});
const context = (calls: number) => ({ client: { remaining: { calls, rows: 10_000 } }, config: { runs: 50 } }) as unknown as SuiteContext;

test("one case of each property to come is kept back: the first property's generated cases never starve the last", () => {
  const [a, b, c] = [property('a', 1), property('b', 60, true), property('c', 30, true)];
  // 100 calls: a's share is what is left once b's 60 and c's 30 are kept back, split three ways.
  expect(plannedRuns(context(100), a, [b, c]).runs).toBe(3);
  expect(plannedRuns(context(97), b, [c]).runs).toBe(1);
  expect(plannedRuns(context(37), c, []).runs).toBe(1);
  // Counted as earlier versions did (the properties left, nothing kept back), a takes 33 and c finds 7.
  expect(plannedRuns(context(100), a, 3).runs).toBe(33);
  expect(plannedRuns(context(7), c, 1)).toMatchObject({ runs: 0, reason: expect.stringContaining('does not cover one case') });
});

test('a call that got no answer is said as the call failing, with its cause, not as an answer the check could not read', async () => {
  const port = await freePort();
  const error = await fetch(`http://127.0.0.1:${port}/api/v1/firms`).then(() => null, (e: Error) => e);
  expect(failureMessage({ title: 'every answer conforms' }, error)).toMatch(/^expected every answer conforms, got no answer: the call failed: ECONNREFUSED: /);
});

test('a bug in the check is said as what it threw, its first line', () => {
  let error: Error | null = null;
  try {
    (undefined as unknown as { data: unknown[] }).data.map(String);
  } catch (e) {
    error = e as Error;
  }
  expect(failureMessage({ title: 'pages hold rows' }, error)).toMatch(/^expected pages hold rows, got no verdict: the check threw TypeError: Cannot read properties of undefined/);
});
