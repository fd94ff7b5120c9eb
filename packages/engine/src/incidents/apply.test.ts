import { expect, test } from 'vitest';
import { createContractValidator, parseBody } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createEngine } from '../engine.ts';
import type { JournalEntry } from '../journal/journal.ts';
import { incidentKindNames, incidentKinds } from './kinds.ts';

const validator = await createContractValidator();
const dataset = collectDataset({ seed: 'incidents', scale: 300, asOf: defaultDataset.asOf });
const now = Date.parse(defaultDataset.asOf);

async function setup() {
  const engine = createEngine({ dataset, validator, now, frozen: true });
  await engine.ready;
  const payg = await engine.accounts.create('payg', now, { prepaidRows: 1_000 });
  const team = await engine.accounts.create('team', now);
  const call = (path: string, key = payg.key, init: RequestInit = {}) =>
    engine.fetch(new Request(`http://mock${path}`, { ...init, headers: { authorization: `Bearer ${key}` } }), {
      clientAddress: '192.0.2.1',
    });
  const control = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const response = await engine.fetch(
      new Request(`http://mock/__control${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      }),
      { inProcess: true },
    );
    return { status: response.status, body: await response.json() };
  };
  const usage = async (keyId: string) => {
    const record = (await engine.accounts.byKeyId(keyId))!;
    return { calls: record.callsUsed, balance: record.balanceRows };
  };
  const journal = async (): Promise<JournalEntry[]> => (await control('/journal')).body.entries;
  return { engine, payg, team, call, control, usage, journal };
}

/** The answer's findings against the contract (prism-http): none for an answer it documents. */
async function contractFindings(operationId: string, response: Response) {
  const text = await response.text();
  return validator.validateResponse(operationId, {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: parseBody(text, response.headers.get('content-type')),
  });
}

test('an outage answers the documented 503 with Retry-After, counting and charging nothing', async () => {
  const { payg, call, control, usage, journal } = await setup();
  const made = await control('/incidents', { kind: 'outage', match: { operation: 'listFirms' }, calls: 1 });
  expect(made.status).toBe(201);
  expect(made.body).toMatchObject({ kind: 'outage', retry_after: 5, calls_left: 1, match: { operation: 'listFirms' } });
  const before = await usage(payg.record.keyId);

  const failed = await call('/api/v1/firms?limit=5');
  expect(failed.status).toBe(503);
  expect(failed.headers.get('retry-after')).toBe('5');
  const problem = (await failed.clone().json()) as { code: string; detail: string };
  expect(problem.code).toBe('service_unavailable');
  expect(problem.detail).toContain(made.body.id);
  expect(await contractFindings('listFirms', failed)).toEqual([]);
  expect(await usage(payg.record.keyId)).toEqual(before);

  expect((await call('/api/v1/firms?limit=5')).status).toBe(200);
  expect((await usage(payg.record.keyId)).calls).toBe(before.calls + 1);
  const [outage, served] = await journal();
  expect(outage).toMatchObject({
    status: 503,
    problem: 'service_unavailable',
    incident: made.body.id,
    calls_counted: 0,
  });
  expect(served).toMatchObject({ status: 200, incident: null, calls_counted: 1 });
  expect((await control('/incidents')).body).toEqual({ incidents: [] });
});

test('502 and 504 incidents answer problems the contract documents, and only for the key they name', async () => {
  const { payg, team, call, control } = await setup();
  await control('/incidents', { kind: 'bad_gateway', match: { key_id: payg.record.keyId, path: '/api/v1/firms' } });
  await control('/incidents', { kind: 'gateway_timeout', match: { operation: 'getStatistic' } });
  const gateway = await call('/api/v1/firms');
  expect(gateway.status).toBe(502);
  expect(await contractFindings('listFirms', gateway)).toEqual([]);
  expect((await call('/api/v1/firms', team.key)).status).toBe(200);
  const timeout = await call('/api/v1/statistics/sector-breakdown', team.key);
  expect(timeout.status).toBe(504);
  expect(await contractFindings('getStatistic', timeout)).toEqual([]);
});

test("a 429 storm answers the key's plan's 429, with its rate headers and actions, charging nothing", async () => {
  const { payg, call, control, usage } = await setup();
  await control('/incidents', { kind: 'rate_limited', retry_after: 3, calls: 2 });
  const before = await usage(payg.record.keyId);
  const limited = await call('/api/v1/firms');
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('3');
  expect(limited.headers.get('ratelimit-policy')).toMatch(/^"default";q=\d+;w=1/);
  const body = (await limited.clone().json()) as { code: string; actions: { type: string }[] };
  expect(body.code).toBe('rate_limited');
  expect(body.actions.length).toBeGreaterThan(0);
  expect(await contractFindings('listFirms', limited)).toEqual([]);
  expect(await usage(payg.record.keyId)).toEqual(before);
  // On a call without a key too (the contract's own document): a 429 the contract documents there.
  const open = await call('/api/v1/openapi.json');
  expect(open.status).toBe(429);
  expect(await contractFindings('getOpenApiDocument', open)).toEqual([]);
});

test('a reset cuts the call with no answer (a network error in process) and is journaled as status 0', async () => {
  const { call, control, journal } = await setup();
  const { body: reset } = await control('/incidents', { kind: 'reset', calls: 1 });
  const cut = await call('/api/v1/firms');
  expect(cut.type).toBe('error');
  expect((await journal())[0]).toMatchObject({ status: 0, incident: reset.id, calls_counted: 0, rows_charged: 0 });
  expect((await call('/api/v1/firms')).status).toBe(200);
});

test('latency delays a call by at least its milliseconds, which is then served and charged as usual', async () => {
  const { payg, call, control, usage, journal } = await setup();
  await control('/incidents', { kind: 'latency', latency_ms: 120, jitter_ms: 0 });
  const before = await usage(payg.record.keyId);
  expect((await call('/api/v1/firms?limit=5')).status).toBe(200);
  const [entry] = await journal();
  expect(entry!.duration_ms).toBeGreaterThanOrEqual(120);
  expect(entry).toMatchObject({ status: 200, calls_counted: 1 });
  expect(entry!.rows_charged).toBeGreaterThan(0);
  expect(await usage(payg.record.keyId)).toEqual({
    calls: before.calls + 1,
    balance: before.balance! - entry!.rows_charged,
  });
});

test('a slow body arrives as the same bytes in many small pieces, served and charged as usual', async () => {
  const { call, control } = await setup();
  const whole = await (await call('/api/v1/firms?limit=3')).arrayBuffer();
  await control('/incidents', { kind: 'slow_body', bytes_per_second: 20_000 });
  const response = await call('/api/v1/firms?limit=3');
  const pieces: Uint8Array[] = [];
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(read.value);
  // A tenth of a second's worth (2,000 bytes) at a time.
  expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(whole.byteLength / 2_000));
  expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(2_000);
  const joined = new Uint8Array(await new Blob(pieces as BlobPart[]).arrayBuffer());
  // The envelope's usage moved by one call; everything before it is the same.
  const text = new TextDecoder().decode(joined);
  expect(JSON.parse(text).data).toEqual(JSON.parse(new TextDecoder().decode(whole)).data);
});

test('the incidents API refuses a wrong body naming each member, and an unknown id with 404', async () => {
  const { control } = await setup();
  const refused = await control('/incidents', { kind: 'latency', calls: -1 });
  expect(refused.status).toBe(400);
  expect(refused.body.code).toBe('invalid_body');
  expect(refused.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/calls', '/latency_ms']);
  expect((await control('/incidents/inc_000000000000', undefined, 'DELETE')).status).toBe(404);
  const { body: made } = await control('/incidents', { kind: 'outage' });
  expect((await control(`/incidents/${made.id}`, undefined, 'DELETE')).body).toMatchObject({ id: made.id });
  await control('/incidents', { kind: 'outage' });
  expect((await control('/incidents', undefined, 'DELETE')).body).toEqual({ cleared: 1 });
});

test("each kind's call is counted and charged exactly when the kinds table says it is served", async () => {
  const { payg, call, control, usage } = await setup();
  for (const kind of incidentKindNames) {
    const before = await usage(payg.record.keyId);
    const made = await control('/incidents', {
      kind,
      calls: 1,
      ...(kind === 'latency' ? { latency_ms: 5 } : kind === 'slow_body' ? { bytes_per_second: 1_000_000 } : {}),
    });
    expect(made.status, kind).toBe(201);
    const response = await call('/api/v1/firms?limit=2');
    if (response.type !== 'error') await response.arrayBuffer();
    const after = await usage(payg.record.keyId);
    expect(after.calls - before.calls, kind).toBe(incidentKinds[kind].served ? 1 : 0);
    expect(after.balance! < before.balance!, kind).toBe(incidentKinds[kind].served);
    expect(response.status === 200, kind).toBe(incidentKinds[kind].served);
  }
});
