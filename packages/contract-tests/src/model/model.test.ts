import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { createEngine } from '@investor-graph/engine';
import { collectDataset } from '@investor-graph/dataset-tools';
import { ApiClient, Ledger } from '../client/client.ts';
import { ServiceModel } from './model.ts';
import { answerModel } from './run-model.ts';

const asOf = '2026-11-20T03:00:00Z';
const dataset = collectDataset({ seed: 'model-test', scale: 100, asOf });
const key = 'igk_enterprise_modelunittest00000000001';
const validator = await createContractValidator();

/**
 * A service that is the kit's engine on `dataset`, reached through `change` (a broken server's
 * edit of each answer), a client of it, and the model on the same data, attached as a run does.
 */
async function setup(change: (answer: Response, request: Request) => Promise<Response> = async (a) => a) {
  const service = createEngine({
    dataset,
    validator,
    now: Date.parse(asOf),
    frozen: true,
    rateLimit: false,
    keys: [{ plan: 'enterprise', key }],
  });
  const fetchService = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    return change(await service.fetch(request, { clientAddress: '127.0.0.1', loopback: true }), request);
  };
  const ledger = new Ledger();
  const client = new ApiClient({
    baseUrl: 'http://service.invalid',
    key,
    plan: 'enterprise',
    budget: { calls: 200, rows: 50_000 },
    validator,
    ledger,
    fetch: fetchService,
  });
  const account = await client.call('/api/v1/account');
  const model = await ServiceModel.build(
    { asOf, rows: dataset.rows, source: 'the test dataset' },
    { key, plan: 'enterprise', asOf, account: account.body },
    validator,
  );
  client.model = answerModel(model);
  const modelFindings = () => ledger.findings.filter((f) => f.rule === 'model').map((f) => f.message);
  return { client, ledger, modelFindings };
}

/** JSON answers edited by `edit` (status and headers kept). */
const editJson =
  (edit: (body: any, request: Request) => void) =>
  async (answer: Response, request: Request): Promise<Response> => {
    const text = await answer.text();
    if (!(answer.headers.get('content-type') ?? '').includes('json') || text === '')
      return new Response(text || null, { status: answer.status, headers: answer.headers });
    const body = JSON.parse(text);
    edit(body, request);
    return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers });
  };

/** The calls of a short run: pages by cursor, a record, errors, the account, a rollup, HEAD and a 304. */
async function calls(client: ApiClient): Promise<void> {
  const first = await client.call('/api/v1/firms?limit=3', { rows: 3 });
  await client.call(`/api/v1/firms?limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`, { rows: 3 });
  await client.call(`/api/v1/firms/${first.body.data[0].slug}`, { rows: 1 });
  await client.call('/api/v1/firms/no-such-firm-anywhere');
  await client.call('/api/v1/firms?limit=0');
  await client.call('/api/v1/firms?limt=2');
  await client.call('/api/v1/firms', { key: null });
  await client.call('/api/v1/exports');
  await client.call('/api/v1/account');
  await client.call('/api/v1/statistics/rounds-by-year', { rows: 100 });
  await client.call('/api/v1/rounds?limit=5&announced_since=2025-01-01', { rows: 5 });
  await client.call('/api/v1/firms?limit=3', { method: 'HEAD', rows: 3 });
  const etag = first.headers.get('etag')!;
  await client.call('/api/v1/firms?limit=3', { headers: { 'if-none-match': etag }, rows: 3 });
}

test('a service that is the kit engine on the same data differs from the model in nothing', async () => {
  const { client, ledger, modelFindings } = await setup();
  await calls(client);
  expect(modelFindings()).toEqual([]);
  expect(ledger.modelWarnings).toEqual([]);
  expect(ledger.modelJudged).toBeGreaterThanOrEqual(13);
});

test("a field's value changed in a row is named by its pointer, both values and the sentence fixing it", async () => {
  const { client, modelFindings } = await setup(
    editJson((body, request) => {
      if (new URL(request.url).pathname === '/api/v1/firms' && body.data?.[1]) body.data[1].founded_year += 1;
    }),
  );
  await calls(client);
  expect(modelFindings()[0]).toMatch(
    new RegExp(
      '^GET /api/v1/firms\\?limit=3 /data/1/founded_year: the service answered \\d+, the model \\d+ ' +
        '\\(resource-fields\\.1: ',
    ),
  );
});

test('a problem of another code, a status of another class and a header left out are each named', async () => {
  const { client, modelFindings } = await setup(async (answer, request) => {
    const path = new URL(request.url).pathname + new URL(request.url).search;
    if (path === '/api/v1/firms?limt=2') {
      const body = await answer.json();
      return Response.json({ ...body, code: 'invalid_parameter' }, { status: 400, headers: answer.headers });
    }
    if (path.startsWith('/api/v1/firms/no-such'))
      return new Response(await answer.text(), { status: 400, headers: answer.headers });
    const headers = new Headers(answer.headers);
    if (path.startsWith('/api/v1/statistics')) headers.delete('cache-control');
    return new Response(answer.status === 304 ? null : await answer.arrayBuffer(), { status: answer.status, headers });
  });
  await calls(client);
  const found = modelFindings().join('\n');
  expect(found).toMatch(
    /limt=2 \/code: the service answered "invalid_parameter", the model "unknown_parameter" \(problem-body/,
  );
  expect(found).toMatch(/no-such-firm-anywhere status: the service answered 400, the model 404 \(status-codes\./);
  expect(found).toMatch(/rounds-by-year header:cache-control: the service answered null, the model "private/);
});

test('one entity tag for two different bodies is found, as when the account had one tag for every state', async () => {
  const { client, modelFindings } = await setup(async (answer) => {
    const headers = new Headers(answer.headers);
    if (headers.has('etag')) headers.set('etag', 'W/"same-for-everything"');
    return new Response(answer.status === 304 ? null : await answer.arrayBuffer(), { status: answer.status, headers });
  });
  await calls(client);
  expect(modelFindings().join('\n')).toMatch(
    /header:etag: the service answered "W\/\\"same-for-everything\\" \(given before/,
  );
});

test('usage that moves by two for one call is found, and the model takes up the service count after it', async () => {
  let extra = 0;
  const { client, modelFindings } = await setup(
    editJson((body, request) => {
      if (body.usage && new URL(request.url).pathname === '/api/v1/rounds') extra = 1;
      if (body.usage) body.usage.calls_used += extra;
    }),
  );
  await calls(client);
  const usage = modelFindings().filter((f) => f.includes('/usage/calls_used (moved by)'));
  expect(usage).toEqual([
    expect.stringMatching(
      new RegExp(
        '^GET /api/v1/rounds\\?limit=5&announced_since=2025-01-01 /usage/calls_used \\(moved by\\): ' +
          'the service answered 2, the model 1',
      ),
    ),
  ]);
});

test('with no data the model judges behaviour only: a record it cannot hold passes, a wrong 401 does not', async () => {
  const service = await setup(async (answer, request) => {
    if (!request.headers.has('authorization'))
      return new Response(await answer.text(), { status: 403, headers: answer.headers });
    return answer;
  });
  const account = await service.client.call('/api/v1/account');
  const model = await ServiceModel.build(null, { key, plan: 'enterprise', asOf, account: account.body }, validator);
  service.client.model = answerModel(model);
  service.ledger.findings.length = 0;
  await calls(service.client);
  expect(service.modelFindings()).toEqual([
    expect.stringMatching(/^GET \/api\/v1\/firms status: the service answered 403, the model 401 \(status-codes\./),
  ]);
});
