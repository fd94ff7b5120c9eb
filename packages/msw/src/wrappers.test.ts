// @module-tag servers
/**
 * Every wrapper of the engine's one list (engine.ts: the adapter's docs page and faults, the
 * control plane, the journal; incidents through the control plane) on every adapter: the Node
 * server and the MSW handlers in Node, as hono runs one suite for every router.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { startMock } from '@investor-graph/mock/node';
import { createControlClient, type ControlClient } from '@investor-graph/engine/control';
import { createInvestorGraphApi } from './index.ts';

const AS_OF = '2026-11-20T03:00:00Z';

interface Target {
  baseUrl: string;
  control: ControlClient;
  journalStatuses(): Promise<number[]>;
  close(): Promise<void>;
}

const adapters: [string, () => Promise<Target>, skip: Record<string, string>][] = [
  [
    'node server',
    async () => {
      const mock = await startMock({ port: 0, now: AS_OF, frozen: true, faults: ['wrong-status'] });
      const control = createControlClient({ baseUrl: mock.url });
      const journalStatuses = async () => (await control.journal()).map((e) => e.status);
      return { baseUrl: mock.url, control, journalStatuses, close: () => mock.close() };
    },
    {},
  ],
  [
    'msw handlers',
    async () => {
      const baseUrl = 'https://wrappers.investorgraph.test';
      const api = await createInvestorGraphApi({
        baseUrl,
        now: Date.parse(AS_OF),
        frozen: true,
        faults: ['wrong-status'],
      });
      const server = setupServer(...api.handlers);
      server.listen({ onUnhandledFrame: 'error' });
      const journalStatuses = async () => api.journal().map((e) => e.status);
      return { baseUrl, control: api.control, journalStatuses, close: async () => server.close() };
    },
    { 'the docs page answers /docs': 'the docs page is the Node server’s: an app under MSW reads its own' },
  ],
];

describe.each(adapters)('the wrappers on the %s', (_, setup, skip) => {
  let target: Target;
  beforeAll(async () => {
    target = await setup();
  });
  afterAll(() => target?.close());
  const it = (title: string, body: () => Promise<void>) =>
    skip[title] ? test.skip(`${title} (skipped: ${skip[title]})`, body) : test(title, body);

  it('a fault switched on breaks its call: a wrong key answers 403, not 401 (wrong-status)', async () => {
    const response = await fetch(`${target.baseUrl}/api/v1/firms?limit=2`, {
      headers: { authorization: 'Bearer igk_team_nosuchkey00000000000000000000' },
    });
    expect(response.status).toBe(403);
  });

  it('the control plane answers its own calls, faults or not', async () => {
    expect((await target.control.clock()).frozen).toBe(true);
  });

  it('the journal holds each data call as the engine answered it, inside the faults (401, not 403)', async () => {
    expect(await target.journalStatuses()).toContain(401);
  });

  it('an incident set through the control plane answers the matching call', async () => {
    await target.control.createIncident({ kind: 'outage', match: { operation: 'listFirms' }, calls: 1 });
    const { key } = await target.control.createKey({ plan: 'team' });
    const headers = { authorization: `Bearer ${key}` };
    expect((await fetch(`${target.baseUrl}/api/v1/firms?limit=2`, { headers })).status).toBe(503);
    expect((await fetch(`${target.baseUrl}/api/v1/firms?limit=2`, { headers })).status).toBe(200);
  });

  it('the docs page answers /docs', async () => {
    const response = await fetch(`${target.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
  });
});
