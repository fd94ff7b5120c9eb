// @module-tag servers
/**
 * The fourth round of hostile probes (issue #66) against the control plane of a mock on a real
 * port: patterns that froze it, incidents without a cap, and keys a test put in what it sent
 * coming back raw. Each test is the probe that found the fault, and fails without its fix.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock } from './node.ts';

const team = newKeyText('team');
const other = newKeyText('business');
const custom = 'a-custom-key-made-by-the-test-0042';
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    keys: [
      { plan: 'team', key: team },
      { plan: 'business', key: other },
      { plan: 'enterprise', key: custom },
    ],
    journal: 1000,
  });
});
afterAll(() => mock.close());

const control = (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
  fetch(`${mock.url}/__control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const get = (path: string, key = team) => fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

/** Sixteen stars that nearly match a path of a's: a regular expression of `.*`s backtracks for ever on it. */
const hostile = `*${'a*'.repeat(15)}b`;
const longPath = `/api/v1/firms/${'a'.repeat(6000)}`;

// Regression: `*` became `.*`, and "*a*a*a*b" over one 1,014-character path had not finished after
// 10 s, while no other key and not the control plane got an answer.
test('a hostile pattern over a journal of long paths is answered, and another key is served beside it', async () => {
  await control('/journal', undefined, 'DELETE');
  for (let i = 0; i < 20; i++) await Promise.all(Array.from({ length: 10 }, () => get(longPath)));
  const [verified, page, served] = await Promise.all([
    control('/journal/verify', { pattern: { path: hostile }, count: 0 }),
    control(`/journal?path=${encodeURIComponent(hostile)}`),
    get('/api/v1/firms?limit=1', other),
  ]);
  expect([verified.status, page.status, served.status]).toEqual([200, 200, 200]);
  expect(await verified.json()).toMatchObject({ matched: 0, ok: true });
  expect(await page.json()).toMatchObject({ entries: [] });
  expect((await (await control('/journal/verify', { pattern: { path: `*${'a*'.repeat(15)}` } })).json()).matched).toBe(
    200,
  );
});

test('an incident whose path is a hostile pattern leaves a call with a long slug answered as usual', async () => {
  const made = await control('/incidents', { kind: 'outage', match: { path: hostile } });
  expect(made.status).toBe(201);
  expect((await get(longPath)).status).toBe(400);
  expect((await get('/api/v1/firms?limit=1', other)).status).toBe(200);
  await control('/incidents', undefined, 'DELETE');
});

test('a pattern with more stars than the bound is a 400 naming the member, on every route that takes one', async () => {
  const starry = `/api/v1/${'*'.repeat(17)}`;
  const verified = await control('/journal/verify', { pattern: { path: starry } });
  expect(verified.status).toBe(400);
  expect(await verified.json()).toMatchObject({ code: 'invalid_body', errors: [{ pointer: '/pattern/path' }] });
  const page = await control(`/journal?path=${encodeURIComponent(starry)}`);
  expect(page.status).toBe(400);
  expect(await page.json()).toMatchObject({ code: 'invalid_parameter', errors: [{ parameter: 'path' }] });
  const incident = await control('/incidents', { kind: 'outage', match: { path: starry } });
  expect(incident.status).toBe(400);
  expect(await incident.json()).toMatchObject({ code: 'invalid_body', errors: [{ pointer: '/match/path' }] });
});

// Regression: 84,000-147,000 incidents were made in 20 s, every data call scanning all of them.
test('the thousand-and-first incident is a 409 too_many_incidents, and ending them makes room again', async () => {
  const made: number[] = [];
  for (let i = 0; i < 100; i++)
    made.push(
      ...(
        await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            control('/incidents', { kind: 'latency', latency_ms: 1, match: { path: `/x/${i}/${j}` } }),
          ),
        )
      ).map((r) => r.status),
    );
  expect(made.filter((status) => status !== 201)).toEqual([]);
  const over = await control('/incidents', { kind: 'outage' });
  expect(over.status).toBe(409);
  expect(over.headers.get('content-type')).toBe('application/problem+json');
  expect(await over.json()).toMatchObject({ code: 'too_many_incidents', status: 409 });
  expect((await get('/api/v1/firms?limit=1')).status).toBe(200);
  expect(await (await control('/incidents', undefined, 'DELETE')).json()).toEqual({ cleared: 1000 });
  expect((await control('/incidents', { kind: 'outage', calls: 1 })).status).toBe(201);
  await control('/incidents', undefined, 'DELETE');
});

// Regression: verify patterns and incident matches holding a key came back raw (near misses,
// message, the incidents' list, and the page that renders it).
test('a key a test puts in a pattern or a match is blanked in every control answer, in any encoding', async () => {
  await control('/journal', undefined, 'DELETE');
  expect((await get('/api/v1/firms?limit=2')).status).toBe(200);
  const encodings = [team, encodeURIComponent(custom), btoa(custom), custom.slice(0, 20)];
  const answers: string[] = [];
  for (const text of encodings) {
    const verified = await control('/journal/verify', {
      pattern: { operation: 'listFirms', path: `/api/v1/firms/${text}`, query: { token: text } },
    });
    expect(verified.status).toBe(200);
    answers.push(await verified.text());
    const made = await control('/incidents', {
      kind: 'latency',
      latency_ms: 1,
      match: { path: `/api/v1/companies/${text}*` },
    });
    expect(made.status).toBe(201);
    answers.push(await made.text());
  }
  answers.push(await (await control('/incidents')).text());
  const shown = answers.join('\n');
  expect(shown).toContain('near_misses');
  for (const secret of [team.slice(9, 25), custom.slice(2, 18), btoa(custom).slice(0, 16)])
    expect(shown).not.toContain(secret);
  await control('/incidents', undefined, 'DELETE');
});
