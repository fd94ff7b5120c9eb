import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createInvestorGraphApi } from './index.ts';
import { createClient } from './example-client.ts';

const baseUrl = 'https://api.investorgraph.test';
const api = await createInvestorGraphApi({ baseUrl, now: Date.parse('2026-11-20T03:00:00Z'), frozen: true });
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await api.reset();
});
afterAll(() => server.close());

test('an integrator gets a trial key, pages a list to the end, and meets a 402 with actions', async () => {
  const client = createClient(baseUrl, { retries: 3 });
  const trial = await client.getTrialKey('integrations@example.com');
  if (!trial.ok) throw new Error(trial.problem.detail);
  expect(trial.body.plan).toBe('trial');
  client.useKey(trial.body.key);

  const firms = await client.all('/api/v1/firms', { limit: 40 });
  const slugs = firms.map((f) => f.slug);
  expect(new Set(slugs).size).toBe(slugs.length);
  expect(slugs).toEqual([...slugs].sort());
  expect(slugs.length).toBe(api.engine.store.count('firm'));

  const feed = await client.get('/api/v1/changes', { query: { since: '2026-11-01T00:00:00Z' } });
  expect(feed.ok).toBe(false);
  if (feed.ok) return;
  expect(feed.status).toBe(402);
  expect(feed.problem.code).toBe('plan_feature_unavailable');
  const subscribe = feed.problem.actions?.find((a) => a.type === 'subscribe');
  expect(subscribe?.plan).toBe('team');
  expect(feed.problem.actions?.some((a) => a.type === 'book_call')).toBe(true);
});

test('a burst above the trial rate meets a 429 with Retry-After, and waiting that long succeeds', async () => {
  const client = createClient(baseUrl, { key: api.keys.trial });
  const burst = await Promise.all(
    Array.from({ length: 6 }, () => client.get('/api/v1/firms', { query: { limit: 1 } })),
  );
  const limited = burst.find((r) => !r.ok && r.status === 429);
  expect(limited).toBeDefined();
  if (!limited || limited.ok) return;
  const wait = Number(limited.headers.get('retry-after'));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(limited.problem.actions?.map((a) => a.type)).toEqual(['subscribe', 'book_call']);
  await new Promise((r) => setTimeout(r, wait * 1000));
  expect((await client.get('/api/v1/firms', { query: { limit: 1 } })).ok).toBe(true);
});

test('a per-test override with server.use wins, and one reset brings the fresh state back', async () => {
  const client = createClient(baseUrl, { key: api.keys.team });
  server.use(
    http.get(`${baseUrl}/api/v1/account`, () =>
      HttpResponse.json(
        {
          type: 'about:blank',
          title: 'Overridden',
          status: 503,
          detail: 'down for a test',
          code: 'maintenance',
          request_id: 'r',
        },
        { status: 503 },
      ),
    ),
  );
  const overridden = await client.get('/api/v1/account');
  expect(overridden.status).toBe(503);

  expect((await client.get('/api/v1/firms', { query: { limit: 1 } })).ok).toBe(true);
  server.resetHandlers();
  const before = await client.get('/api/v1/account');
  expect(before.ok && before.body.data.usage.calls_used).toBe(1);
  await api.reset();
  const after = await client.get('/api/v1/account');
  expect(after.ok && after.body.data.usage.calls_used, 'counters are back to zero, the key text is the same').toBe(0);
});

test('a request to a host the handlers do not cover is an error, not a silent passthrough', async () => {
  await expect(fetch('https://elsewhere.investorgraph.test/api/v1/firms')).rejects.toThrow();
});
