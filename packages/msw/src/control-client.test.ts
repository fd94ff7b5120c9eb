/**
 * `api.control`, the control client in-process: the shared case list the HTTP mock runs over a
 * port (packages/mock/src/control-client.test.ts), here through the engine behind the MSW
 * handlers, every exchange held to the control API's OpenAPI document; the data calls go through
 * MSW as an app's do.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { inProcessFetch } from '@investor-graph/engine/control';
import { runControlClientCases } from '@investor-graph/engine/testing';
import { createInvestorGraphApi, ControlError } from './index.ts';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

let origins = 0;
runControlClientCases({
  name: 'the control client in-process (api.control)',
  async setup({ now }) {
    // An origin of its own, so the file's other APIs live beside it in one MSW server.
    const baseUrl = `https://control-${++origins}.investorgraph.test`;
    const api = await createInvestorGraphApi({ baseUrl, now: Date.parse(now), frozen: true });
    server.use(...api.handlers);
    return {
      baseUrl,
      // What api.control is made of: the client over the engine the handlers answer with now.
      transport: inProcessFetch(() => api.engine),
      native: api.control,
      data: (path, key) => fetch(`${baseUrl}${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {}),
      close: async () => {},
    };
  },
});

test('api.control follows the engine a reset puts in place, and refuses as the HTTP client does', async () => {
  const baseUrl = `https://control-${++origins}.investorgraph.test`;
  const api = await createInvestorGraphApi({ baseUrl, now: Date.parse('2026-11-20T03:00:00Z'), frozen: true });
  await api.control.advanceClock('P1D');
  expect((await api.control.clock()).now).toBe('2026-11-21T03:00:00.000Z');
  await api.reset();
  expect((await api.control.clock()).now).toBe('2026-11-20T03:00:00.000Z');
  const refused = await api.control.setUsage('key_000000000000', 1).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ControlError);
  expect((refused as ControlError).message).toBe(
    '[investor-graph mock] PUT /__control/keys/key_000000000000/usage: 404 No key has that key_id. (not_found)',
  );
});

test('the handlers answer the control page to a fetch, as the mock server answers a browser', async () => {
  const baseUrl = `https://control-${++origins}.investorgraph.test`;
  const api = await createInvestorGraphApi({ baseUrl, frozen: true });
  server.use(...api.handlers);
  const page = await fetch(`${baseUrl}/__control/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
  expect(await page.text()).toContain('<title>Investor Graph mock: control</title>');
});
