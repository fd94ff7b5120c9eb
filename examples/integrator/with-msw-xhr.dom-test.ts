/**
 * The README's MSW set-up as a front-end test has it: under jsdom and happy-dom (vitest projects
 * examples-jsdom and examples-happy-dom), a page at http://localhost:3000 calling the API's origin
 * with XMLHttpRequest, so every call is cross-origin and the browser rules apply: a preflight for
 * the Authorization header, and only exposed headers readable.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { createInvestorGraphApi } from '@investor-graph/msw';

const baseUrl = 'https://api.investorgraph.test';
const api = await createInvestorGraphApi({ baseUrl });
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => api.reset());
afterAll(() => server.close());

interface XhrAnswer {
  status: number;
  body: any;
  header: (name: string) => string | null;
}

/** A GET through the environment's XMLHttpRequest, as an app's XHR-based client sends it. */
function xhr(path: string, key: string): Promise<XhrAnswer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('GET', `${baseUrl}${path}`);
    request.setRequestHeader('Authorization', `Bearer ${key}`);
    request.onload = () =>
      resolve({
        status: request.status,
        body: JSON.parse(request.responseText),
        header: (name) => request.getResponseHeader(name),
      });
    request.onerror = () =>
      reject(new Error(`XHR to ${path} failed (status ${request.status}): a CORS refusal looks like this`));
    request.send();
  });
}

test('the page runs in a DOM at another origin than the API', () => {
  expect(typeof window).toBe('object');
  expect(location.origin).not.toBe(new URL(baseUrl).origin);
});

test('XHR pages through firms with the cursor, and reads the exposed rate-limit headers', async () => {
  const first = await xhr('/api/v1/firms?limit=50', api.keys.team);
  expect(first.status).toBe(200);
  expect(first.body.data).toHaveLength(50);
  expect(first.header('RateLimit-Policy')).toMatch(/^"default";q=\d+;w=1/);
  const second = await xhr(
    `/api/v1/firms?limit=50&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    api.keys.team,
  );
  expect(second.body.data[0].slug).not.toBe(first.body.data[0].slug);
  expect((await xhr('/api/v1/account', api.keys.team)).body.data.usage.calls_used).toBe(2);
});

test("XHR meets the trial's 402 with actions, readable cross-origin", async () => {
  const answer = await xhr('/api/v1/changes?since=2026-11-01T00:00:00Z', api.keys.trial);
  expect(answer.status).toBe(402);
  expect(answer.body.actions.map((a: { type: string }) => a.type)).toContain('subscribe');
});
