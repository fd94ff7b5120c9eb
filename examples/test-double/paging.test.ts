import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { createInvestorGraphApi } from '@investor-graph/msw';
import { createAppClient } from './app-client.ts';

const baseUrl = 'https://api.investorgraph.test';
const api = await createInvestorGraphApi({ baseUrl });
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => api.reset());
afterAll(() => server.close());

test('the app walks every page of firms exactly once, and gets every firm once', async () => {
  // What the list holds, in one page of 500 (the Team plan's most): the answer to hold the walk to.
  const whole = await fetch(`${baseUrl}/api/v1/firms?limit=500`, {
    headers: { authorization: `Bearer ${api.keys.team}` },
  }).then((res) => res.json());
  const expected: string[] = whole.data.map((firm: { slug: string }) => firm.slug);
  api.clearJournal(); // from here on, the app's calls only

  const app = createAppClient({ baseUrl, key: api.keys.team });
  const firms = await app.listAll<{ slug: string }>('/api/v1/firms?limit=25');

  // Every firm, once, in the list's order.
  expect(firms.map((firm) => firm.slug)).toEqual(expected);
  // One call per page: the first without a cursor, each next one with the cursor the last gave.
  const pages = Math.ceil(expected.length / 25);
  api.verify({ operation: 'listFirms', status: 200, query: { limit: '25' } }, pages);
  const calls = api.journal({ operation: 'listFirms' });
  expect(calls.filter((call) => call.query.cursor === undefined)).toHaveLength(1);
  // The journal shows only a cursor's first ten characters (the same for every cursor of a list):
  // enough to see each later call sent one, too little to tell two apart, hence the counts above.
  expect(calls.slice(1).every((call) => call.query.cursor?.endsWith('...'))).toBe(true);
  // And the service served no row twice: what the pages held adds up to the list.
  expect(calls.reduce((rows, call) => rows + call.rows_served, 0)).toBe(expected.length);
});
