import { expect, test } from 'vitest';
import { failedAuth } from '@investor-graph/contract/plans';
import { createContractValidator } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import type { RequestContext, TracedStep } from '../context.ts';
import { createEngine, createParts } from '../engine.ts';
import type { JournalEntry } from '../journal/journal.ts';
import { boundary } from '../request/boundary.ts';
import { compose, type Handler } from '../wrapper.ts';
import { incidentsWrapper } from './wrapper.ts';

const validator = await createContractValidator();
const dataset = collectDataset({ seed: 'incidents-wrapper', scale: 300, asOf: defaultDataset.asOf });
const now = Date.parse(defaultDataset.asOf);
const badKey = `igk_payg_${'0'.repeat(32)}`;
// Real time stands still: the address's budget of calls without a valid key never refills in a test.
const options = { dataset, validator, now, frozen: true, realNow: () => 0 };

const request = (path: string, key: string) =>
  new Request(`http://mock${path}`, { headers: { authorization: `Bearer ${key}` } });

test(
  "the incidents are one wrapper of the engine's list, and a call with a bad key meets no incident and counts its " +
    'failed auth once',
  async () => {
    const engine = createEngine(options);
    await engine.ready;
    const { key } = await engine.accounts.create('payg', now, { prepaidRows: 1_000 });
    const call = (path: string, sent: string) => engine.fetch(request(path, sent), { clientAddress: '192.0.2.1' });
    const outage = await engine.incidents.add(
      { kind: 'outage', match: { path: '/api/v1/firms' }, parameters: {} },
      now,
    );

    // The outage is met by a call whose key is known...
    expect((await call('/api/v1/firms?limit=1', key)).status).toBe(503);
    // ...one it does not match goes on, its key authenticated once, its incident step where the steps had it...
    const steps: TracedStep[] = [];
    const trace = { step: (name: TracedStep) => (steps.push(name), () => {}) };
    expect((await engine.fetch(request('/api/v1/companies?limit=1', key), { trace })).status).toBe(200);
    expect(steps).toEqual([
      'authenticate',
      'incident',
      'validate',
      'rate',
      'admit',
      'read',
      'charge',
      'envelope',
      'journal',
    ]);
    // ...and by none with a bad key: each is its 401, spending one token of the address's budget, until it is gone.
    for (let n = 0; n < failedAuth.burst; n++) {
      const refused = await call('/api/v1/firms?limit=1', badKey);
      expect([n, refused.status, ((await refused.json()) as { code: string }).code]).toEqual([n, 401, 'invalid_key']);
    }
    const gone = await call('/api/v1/firms?limit=1', badKey);
    expect([gone.status, ((await gone.json()) as { code: string }).code]).toEqual([429, 'too_many_failures']);

    const entries: JournalEntry[] = engine.journal.entries();
    expect(entries.filter((e) => e.incident !== null).map((e) => e.status)).toEqual([503]);
    expect(engine.incidents.list(now).map((i) => [i.id, i.hits])).toEqual([[outage.id, 1]]);
  },
);

test("the incidents' wrapper answers in the steps' place, or hands them the key it authenticated", async () => {
  const parts = createParts(options);
  await parts.ready;
  const { key, record } = await parts.accounts.create('payg', now, { prepaidRows: 1_000 });
  const reached: RequestContext[] = [];
  const steps: Handler = async (_, context = {}) => {
    reached.push(context);
    return { status: 200, headers: {}, body: null };
  };
  const list = compose([boundary(parts, () => 'req_1'), incidentsWrapper(parts, parts.incidents)], steps);
  const answer = (path: string, sent = key) => list(request(path, sent), { clientAddress: '192.0.2.1' });

  // None in force: the steps authenticate the call themselves, whatever key a context from outside the boundary holds.
  expect((await answer('/api/v1/firms')).status).toBe(200);
  expect((await list(request('/api/v1/firms', badKey), { authenticated: record })).status).toBe(200);
  expect(reached.splice(0).map((context) => context.authenticated)).toEqual([undefined, undefined]);
  await parts.incidents.add({ kind: 'outage', match: { operation: 'listCompanies' }, parameters: {} }, now);
  expect((await answer('/api/v1/companies')).status).toBe(503);
  expect((await answer('/api/v1/companies', badKey)).status).toBe(401);
  expect(reached).toEqual([]);
  // One it does not match goes on with the key it authenticated; a bad key is refused there, one from outside or not.
  expect((await answer('/api/v1/firms')).status).toBe(200);
  expect(reached.pop()?.authenticated?.keyId).toBe(record.keyId);
  expect((await list(request('/api/v1/firms', badKey), { authenticated: record })).status).toBe(401);
  expect(reached).toEqual([]);
});

test('what the steps answer before any operation meets no incident: OPTIONS, a Prefer example, 405, 404', async () => {
  const engine = createEngine(options);
  await engine.ready;
  const { key } = await engine.accounts.create('payg', now, { prepaidRows: 1_000 });
  // An outage of every call, as an operator would post it to see what still answers.
  const outage = await engine.incidents.add({ kind: 'outage', match: {}, parameters: {} }, now);
  const sent = (path: string, init: RequestInit = {}) =>
    engine.fetch(
      new Request(`http://mock${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } }),
      { clientAddress: '192.0.2.1' },
    );
  const statuses = [
    (await sent('/api/v1/firms', { method: 'OPTIONS' })).status,
    (await sent('/api/v1/firms?limit=1', { headers: { prefer: 'code=200' } })).status,
    (await sent('/api/v1/firms', { method: 'POST' })).status,
    (await sent('/api/v1/nope')).status,
  ];
  expect(statuses).toEqual([204, 200, 405, 404]);
  expect(engine.journal.entries().filter((e) => e.incident !== null)).toEqual([]);
  expect(engine.incidents.list(now).map((i) => [i.id, i.hits])).toEqual([[outage.id, 0]]);
  // ...and a data call does meet it.
  expect((await sent('/api/v1/firms?limit=1')).status).toBe(503);
});
