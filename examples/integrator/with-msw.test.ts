import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { createInvestorGraphApi } from '@investor-graph/msw';

// Your client calls this origin; MSW answers it in-process from the kit's engine.
const baseUrl = 'https://api.investorgraph.test';
const api = await createInvestorGraphApi({ baseUrl });
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => api.reset()); // fresh counters, balances and clock for each test
afterAll(() => server.close());

const get = (path: string, key: string) => fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });

test('a Team key pages through firms with the cursor', async () => {
  const first = await (await get('/api/v1/firms?limit=50', api.keys.team)).json();
  expect(first.data).toHaveLength(50);
  const second = await (
    await get(`/api/v1/firms?limit=50&cursor=${encodeURIComponent(first.next_cursor)}`, api.keys.team)
  ).json();
  expect(second.data[0].slug).not.toBe(first.data[0].slug);
});

test('the trial has no changes feed: a 402 that says what to do next', async () => {
  const res = await get('/api/v1/changes?since=2026-11-01T00:00:00Z', api.keys.trial);
  expect(res.status).toBe(402);
  const problem = await res.json();
  expect(problem.code).toBeTypeOf('string');
  expect(problem.actions.length).toBeGreaterThan(0);
});
