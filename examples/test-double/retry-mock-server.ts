import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { createControlClient, type ControlClient } from '@investor-graph/mock/control';
import { createAppClient } from './app-client.ts';

// The mock server on a free loopback port, for this file's tests; its control API at the same origin.
let mock: RunningMock;
let control: ControlClient;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
  control = createControlClient({ baseUrl: mock.url });
});
afterAll(() => mock?.close());

test("against the mock server, the app waits out an outage's Retry-After and retries once", async () => {
  // A key of this test's own, and an outage for its next call of listFirms only.
  const { key, key_id } = await control.createKey({ plan: 'team' });
  const outage = await control.createIncident({
    kind: 'outage',
    match: { operation: 'listFirms', key_id },
    calls: 1,
    retry_after: 1,
  });
  const app = createAppClient({ baseUrl: mock.url, key }); // sleeping for real

  const started = performance.now();
  const page = await app.get('/api/v1/firms?limit=5');

  expect(page.data).toHaveLength(5);
  expect(performance.now() - started).toBeGreaterThanOrEqual(1_000); // it waited Retry-After's second
  await control.verify({ operation: 'listFirms', key_id, status: 503 }, 1);
  await control.verify({ operation: 'listFirms', key_id, status: 200 }, 1);
  const calls = await control.journal({ key_id });
  expect(calls.map((call) => [call.status, call.problem, call.incident])).toEqual([
    [503, 'service_unavailable', outage.id],
    [200, null, null],
  ]);
  expect(JSON.stringify(calls)).not.toContain(key); // entries name the key by its id, never its text
});
