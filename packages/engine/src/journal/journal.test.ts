import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createEngine, type EngineOptions } from '../engine.ts';
import type { Journal, JournalPage } from './journal.ts';
import { verify } from './verify.ts';

const validator = await createContractValidator();
const dataset = collectDataset({ seed: 'journal', scale: 300, asOf: defaultDataset.asOf });
const now = Date.parse(defaultDataset.asOf);

async function setup(options: Partial<EngineOptions<Journal>> = {}) {
  const engine = createEngine({ dataset, validator, now, frozen: true, ...options });
  await engine.ready;
  const call = (path: string, init: RequestInit = {}) =>
    engine.fetch(new Request(`http://mock${path}`, init), { clientAddress: '192.0.2.1' });
  const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
  // In-process, as MSW calls it: the control plane has no network to guard.
  const control = async (path: string, init: RequestInit = {}) => {
    const response = await engine.fetch(new Request(`http://mock/__control${path}`, init), { inProcess: true });
    // No answer of the control plane is kept by a cache, the journal's as every other (control.ts).
    expect(response.headers.get('cache-control')).toBe('no-store');
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const page = async (query = '') => (await control(`/journal${query}`)).body as unknown as JournalPage;
  return { engine, call, bearer, control, page };
}

test(
  'a paged walk is journaled call by call: ' + 'operation, key id and plan, status, rows, charge, time, request id',
  async () => {
    const { engine, call, bearer, page } = await setup();
    const { key, record } = await engine.accounts.create('payg', now, { prepaidRows: 1_000 });
    const before = Date.now();
    const answers: { requestId: string; charged: number; cursor: string | null }[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 3; i++) {
      const response = await call(
        `/api/v1/firms?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        bearer(key),
      );
      const body = (await response.json()) as { next_cursor: string | null; usage: { rows_charged: number } };
      answers.push({ requestId: response.headers.get('x-request-id')!, charged: body.usage.rows_charged, cursor });
      cursor = body.next_cursor;
    }
    expect((await call('/api/v1/firms?limit=2', bearer('igk_team_notakeyofthismock0000000000'))).status).toBe(401);

    const { entries } = await page();
    expect(entries).toHaveLength(4);
    answers.forEach((answer, i) => {
      expect(entries[i]).toMatchObject({
        seq: i,
        request_id: answer.requestId,
        method: 'GET',
        path: '/api/v1/firms',
        operation: 'listFirms',
        key_id: record.keyId,
        plan: 'payg',
        status: 200,
        problem: null,
        rows_served: 2,
        calls_counted: 1,
        rows_charged: answer.charged,
        service_time: new Date(now).toISOString().replace('.000Z', 'Z'),
      });
      expect(entries[i]!.query.limit).toBe('2');
      expect(Date.parse(entries[i]!.at)).toBeGreaterThanOrEqual(before - 1);
      expect(entries[i]!.duration_ms).toBeGreaterThanOrEqual(0);
      // A cursor is shown by its start, as the log shows it: enough to tell two apart.
      if (answer.cursor) expect(entries[i]!.query.cursor).toBe(`${answer.cursor.slice(0, 10)}...`);
    });
    expect(answers.reduce((sum, a) => sum + a.charged, 0)).toBeGreaterThan(0);
    expect(entries[3]).toMatchObject({ operation: 'listFirms', key_id: null, plan: null, status: 401 });
    expect(entries[3]).toMatchObject({ problem: 'invalid_key', rows_served: 0, calls_counted: 0, rows_charged: 0 });
  },
);

test('no key is in any entry, page or report, wherever and however a call sent it', async () => {
  const custom = 'Users.Own-key~of-no-form';
  const { engine, call, bearer, page, control } = await setup({ keys: [{ plan: 'team', key: custom }] });
  const { key } = await engine.accounts.create('business', now);
  const sent = [key, custom];
  const twice = (text: string) => encodeURIComponent(encodeURIComponent(text));
  for (const k of sent) {
    for (const shown of [k, encodeURIComponent(k), twice(k)]) {
      await call(`/api/v1/firms/${shown}`, bearer(k));
      await call(`/api/v1/firms?limit=1&api_key=${shown}`, bearer(key));
      await call(`/api/v1/firms?${shown}=1`, bearer(custom));
      await call(`/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${k}`, 'x-request-id': shown } });
    }
  }
  const journaled = await page();
  expect(journaled.entries.length).toBe(24);
  // A verification that fails lists entries as its report: it holds none either.
  const report = await control('/journal/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pattern: { operation: 'getCompany' } }),
  });
  expect(report.body.ok).toBe(false);
  const texts = { page: JSON.stringify(journaled), report: JSON.stringify(report.body) };
  // What failed is named, never shown: a failure's message is a test report, which holds no key either.
  const leaks = Object.entries(texts).flatMap(([what, text]) =>
    sent.flatMap((k, which) =>
      [k, encodeURIComponent(k), twice(k), k.replace(/^igk_[a-z]+_/, '')]
        .map((shown, how) => (text.includes(shown) ? `key ${which} (form ${how}) is in the ${what}` : ''))
        .filter(Boolean),
    ),
  );
  expect(leaks).toEqual([]);
});

test(
  'a page is filtered by operation, method, path, ' + 'status, key id, plan and since, and walked oldest first',
  async () => {
    const { engine, call, bearer, page } = await setup();
    const { key, record } = await engine.accounts.create('team', now);
    for (let i = 0; i < 3; i++) await call('/api/v1/firms?limit=1', bearer(key));
    await call('/api/v1/companies?limit=1', bearer(key));
    await call('/api/v1/firms?limit=1');
    await call('/api/v1/firms', { method: 'POST' });
    const seqs = async (query: string) => (await page(query)).entries.map((e) => e.seq);
    expect(await seqs('?operation=listFirms')).toEqual([0, 1, 2, 4]);
    expect(await seqs('?method=post')).toEqual([5]);
    expect(await seqs('?path=/api/v1/compan*')).toEqual([3]);
    expect(await seqs('?status=4xx')).toEqual([4, 5]);
    expect(await seqs('?status=200')).toEqual([0, 1, 2, 3]);
    expect(await seqs(`?key_id=${record.keyId}&operation=listFirms`)).toEqual([0, 1, 2]);
    expect(await seqs('?plan=team')).toEqual([0, 1, 2, 3]);
    expect(await seqs(`?since=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    expect(await seqs('?since=2000-01-01T00:00:00Z')).toEqual([0, 1, 2, 3, 4, 5]);

    const first = await page('?limit=4');
    expect(first.entries.map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    const second = await page(`?limit=4&cursor=${first.next_cursor}`);
    expect(second.entries.map((e) => e.seq)).toEqual([4, 5]);
    expect(second.next_cursor).toBeNull();
    // Filtered, a walk ends on its last match: no empty page after it.
    const filtered = await page('?operation=listFirms&limit=2');
    expect((await page(`?operation=listFirms&limit=2&cursor=${filtered.next_cursor}`)).next_cursor).toBeNull();
  },
);

test('the bound pushes the oldest call out, and a page and a report say how many went', async () => {
  const { call, page, engine } = await setup({ journal: 3 });
  for (let i = 1; i <= 5; i++) await call(`/api/v1/firms?limit=${i}`);
  const journaled = await page();
  expect(journaled.entries.map((e) => e.query.limit)).toEqual(['3', '4', '5']);
  expect(journaled).toMatchObject({ capacity: 3, dropped: 2 });
  expect(verify(engine.journal, { query: { limit: '1' } }).message).toContain('2 older calls were pushed out');
});

test('clearing empties the journal, and a cursor from before it names nothing still held', async () => {
  const { call, page, control } = await setup();
  for (let i = 0; i < 3; i++) await call('/api/v1/firms?limit=1');
  const cleared = await control('/journal', { method: 'DELETE' });
  expect(cleared).toEqual({ status: 200, body: { cleared: 3, capacity: 1_000 } });
  expect((await page()).entries).toEqual([]);
  await call('/api/v1/companies?limit=1');
  expect((await page('?cursor=0')).entries.map((e) => [e.seq, e.path])).toEqual([[3, '/api/v1/companies']]);
  expect((await page()).dropped).toBe(0);
});

test('control calls are not journaled, and a journal of 0 keeps nothing and says so when verified', async () => {
  const { page, control } = await setup();
  await control('/state');
  await control('/clock');
  expect((await page()).entries).toEqual([]);
  const off = await setup({ journal: 0 });
  await off.call('/api/v1/firms?limit=1');
  expect(await off.page()).toMatchObject({ entries: [], capacity: 0 });
  const verdict = verify(off.engine.journal, {}, { max: 0 });
  expect(verdict.ok).toBe(false);
  expect(verdict.message).toContain('the request journal is off');
});

test(
  'a wrong page parameter is a 400 invalid_parameter and ' +
    'a wrong verification body a 400 invalid_body, naming each',
  async () => {
    const { control } = await setup();
    const paged = await control('/journal?status=teapot&limit=0&colour=red');
    expect(paged.status).toBe(400);
    expect(paged.body).toMatchObject({ code: 'invalid_parameter' });
    expect((paged.body.errors as { parameter: string }[]).map((e) => e.parameter)).toEqual([
      'status',
      'limit',
      'colour',
    ]);
    const verified = await control('/journal/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: { status: 'teapot', colour: 'red' }, count: { min: 3, max: 1 } }),
    });
    expect(verified.status).toBe(400);
    expect(verified.body).toMatchObject({ code: 'invalid_body' });
    expect((verified.body.errors as { pointer: string }[]).map((e) => e.pointer)).toEqual([
      '/pattern/status',
      '/pattern/colour',
      '/count',
    ]);
  },
);
