import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { createInvestorGraphApi } from '@investor-graph/msw';
import { ApiError, createAppClient } from './app-client.ts';

const baseUrl = 'https://api.investorgraph.test';
const api = await createInvestorGraphApi({ baseUrl });
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => api.reset()); // fresh counters and clock, no incident left, an empty journal
afterAll(() => server.close());

/** The app's client with a sleep that notes each wait and returns at once: the test waits for nothing. */
function appWithRecordedWaits(maxRetries?: number) {
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  return { app: createAppClient({ baseUrl, key: api.keys.team, sleep, maxRetries }), waits };
}

test("the app waits out an outage's Retry-After, retries once and gets its page", async () => {
  const outage = await api.control.createIncident({
    kind: 'outage', // 503 service_unavailable with Retry-After, for the next call of listFirms
    match: { operation: 'listFirms' },
    calls: 1,
    retry_after: 2,
  });
  const { app, waits } = appWithRecordedWaits();

  const page = await app.get('/api/v1/firms?limit=5');

  expect(page.data).toHaveLength(5);
  expect(waits).toHaveLength(1);
  expect(waits[0]).toBeGreaterThanOrEqual(2_000); // at least what Retry-After said
  // The journal: one 503 that the outage answered (neither counted nor charged), then one 200.
  api.verify({ operation: 'listFirms', status: 503 }, 1);
  api.verify({ operation: 'listFirms', status: 200 }, 1);
  expect(api.journal({ operation: 'listFirms' }).map((call) => [call.status, call.incident])).toEqual([
    [503, outage.id],
    [200, null],
  ]);
  // Entries name the key by its id and plan, never its text.
  expect(JSON.stringify(api.journal())).not.toContain(api.keys.team);
});

test('an outage longer than its retries: the app gives up after three, with the 503', async () => {
  await api.control.createIncident({ kind: 'outage', match: { operation: 'listFirms' }, calls: 10, retry_after: 1 });
  const { app, waits } = appWithRecordedWaits(3);

  const failed = await app.get('/api/v1/firms?limit=5').catch((error: unknown) => error);

  expect(failed).toBeInstanceOf(ApiError);
  expect(failed).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect(waits).toEqual([1_000, 1_000, 1_000]);
  api.verify({ operation: 'listFirms', status: 503 }, 4); // the first try and three more, then no more
});
