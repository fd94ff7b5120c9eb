import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { createInvestorGraphApi, VerificationError } from './index.ts';

const baseUrl = 'https://api.investorgraph.test';
const api = await createInvestorGraphApi({ baseUrl, now: Date.parse('2026-11-20T03:00:00Z'), frozen: true });
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => api.reset());
afterAll(() => server.close());

/** The app under test: pages firms `limit` at a time, `pages` pages, with the key it is given. */
async function loadFirms(key: string, limit: number, pages: number): Promise<void> {
  let cursor: string | null = null;
  for (let i = 0; i < pages; i++) {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await fetch(`${baseUrl}/api/v1/firms?${query}`, { headers: { authorization: `Bearer ${key}` } });
    cursor = ((await response.json()) as { next_cursor: string | null }).next_cursor;
  }
}

test(
  'a test asks the handlers what its app called, ' + "and a failed verification's message shows the near misses",
  async () => {
    await loadFirms(api.keys.team, 20, 2);
    const calls = api.journal({ operation: 'listFirms' });
    expect(calls.map((c) => [c.plan, c.status, c.query.limit, c.rows_served])).toEqual([
      ['team', 200, '20', 20],
      ['team', 200, '20', 20],
    ]);
    expect(JSON.stringify(api.journal())).not.toContain(api.keys.team);

    expect(api.verify({ operation: 'listFirms', plan: 'team' }, 2).matched).toBe(2);
    let thrown: unknown;
    try {
      api.verify({ operation: 'listFirms', plan: 'team', query: { limit: '50' } }, { min: 2 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VerificationError);
    const message = (thrown as VerificationError).message;
    expect(message).toContain('expected at least 2 calls matching {operation: listFirms, plan: team, query.limit: 50}');
    expect(message).toContain('query.limit: expected 50, was 20');
    expect(message).not.toContain(api.keys.team);
    expect(() => api.verify({ status: 'teapot' })).toThrow('/pattern/status: must be a status');
  },
);

test('clearJournal and reset each start the journal afresh', async () => {
  await loadFirms(api.keys.business, 5, 1);
  expect(api.journal()).toHaveLength(1);
  api.clearJournal();
  expect(api.journal()).toEqual([]);
  await loadFirms(api.keys.business, 5, 1);
  await api.reset();
  expect(() => api.verify({}, { max: 0 })).not.toThrow();
});
