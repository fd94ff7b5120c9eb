/**
 * A faulted call builds no Response on the way: the faults are wrappers of answer records
 * (fault.ts), so the Node server's fast path writes a faulted call's record as it writes a clean
 * one, and only an adapter that serves Responses (MSW, the WHATWG path) builds one, at the end.
 */
import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import type { Answer } from '../answer.ts';
import { createEngine } from '../engine.ts';
import { faultWrapper, type FaultName } from './index.ts';

const validator = await createContractValidator();
const dataset = collectDataset({ seed: 'no-response', scale: 300, asOf: defaultDataset.asOf });
const key = 'igk_enterprise_no_response_key_0000000000';

/** Every Response made while `run` runs, counted: constructed, or by Response.error() and Response.json(). */
async function responsesMadeBy(run: () => Promise<void>): Promise<number> {
  const real = globalThis.Response;
  let made = 0;
  globalThis.Response = new Proxy(real, {
    construct(target, args, newTarget) {
      made += 1;
      return Reflect.construct(target, args, newTarget) as object;
    },
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name !== 'error' && name !== 'json') return value;
      return (...args: unknown[]) => {
        made += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  try {
    await run();
  } finally {
    globalThis.Response = real;
  }
  return made;
}

/** The request as the Node server's fast path hands it over: no Request built, only what the engine reads. */
const sent = (path: string, headers: Record<string, string> = {}, method = 'GET'): Request => {
  const map = new Map(Object.entries(headers));
  return {
    method,
    url: `http://localhost${path}`,
    headers: {
      get: (name: string) => map.get(name.toLowerCase()) ?? null,
      has: (name: string) => map.has(name.toLowerCase()),
      [Symbol.iterator]: () => [...map].sort(([a], [b]) => (a < b ? -1 : 1))[Symbol.iterator](),
    },
  } as unknown as Request;
};

async function faulted(names: FaultName[]) {
  const engine = createEngine({
    dataset: structuredClone(dataset),
    validator,
    frozen: true,
    keys: [{ plan: 'enterprise', key }],
    rateLimit: false,
    wrappers: (built) => [faultWrapper(names, built)],
  });
  await engine.ready;
  // The dumps written ahead, as the Node server writes them at start: what is measured is the call.
  await engine.answer(sent('/api/v1/exports', { authorization: `Bearer ${key}` }));
  return engine;
}

const auth = { authorization: `Bearer ${key}` };
const text = (answer: Answer): string =>
  typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body as Uint8Array);

test('a faulted call on the fast path builds no Response: each way a fault breaks a call', async () => {
  const engine = await faulted([
    'wrong-status', // a status changed (onJson)
    'leak-email', // rows edited (onRows)
    'drop-request-id', // a header dropped (onHeaders)
    'refuse-head', // answered before the engine (answerBefore)
    'ignore-limit', // the request rewritten (onRequest)
    'ignore-unknown-parameter', // answered again for another request (refetch)
    'statistics-down', // a problem of its own
    'cached-304', // a cache in front
    'last-page-cursor', // a page made of another
    'errors-counted', // a call counted twice
    'weak-dump-etag', // a file's headers
  ]);
  const answers: Record<string, Answer> = {};
  const made = await responsesMadeBy(async () => {
    answers.unkeyed = await engine.answer(sent('/api/v1/firms?limit=2'));
    answers.page = await engine.answer(sent('/api/v1/firms?limit=2', { ...auth, 'x-request-id': 'req_no_response' }));
    answers.head = await engine.answer(sent('/api/v1/firms?limit=2', auth, 'HEAD'));
    answers.unknown = await engine.answer(sent('/api/v1/firms?limit=1&foo=1', auth));
    answers.statistics = await engine.answer(sent('/api/v1/statistics/rounds-by-year', auth));
    answers.missing = await engine.answer(sent('/api/v1/firms/no-such-firm', auth));
    const etag = answers.page.headers.etag!;
    answers.cached = await engine.answer(sent('/api/v1/firms?limit=2', { ...auth, 'if-none-match': etag }));
    answers.manifest = await engine.answer(sent('/api/v1/exports', auth));
    const manifest = JSON.parse(text(answers.manifest)) as { data: { files: { url: string }[] }[] };
    answers.file = await engine.answer(sent(new URL(manifest.data[0]!.files[0]!.url).pathname, auth));
  });
  expect(made).toBe(0);
  // Each fault did break its call.
  expect(answers.unkeyed!.status).toBe(403);
  const page = JSON.parse(text(answers.page!)) as { data: Record<string, unknown>[] };
  expect(page.data).toHaveLength(4);
  expect(page.data[0]!.contact_email).toBe('partners@example-capital.com');
  expect(answers.page!.headers['x-request-id']).toBeUndefined();
  expect(answers.head!.status).toBe(405);
  expect(answers.unknown!.status).toBe(200);
  expect(answers.statistics!.status).toBe(500);
  expect(answers.missing!.status).toBe(404);
  expect(answers.cached!.status).toBe(304);
  expect(answers.file!.headers.etag).toMatch(/^W\//);
  // A dump file goes on as the Blob it is, unread.
  expect(answers.file!.body).toBeInstanceOf(Blob);
});

test('a control call and a clean call build no Response either (the fault list passes them on)', async () => {
  const engine = await faulted(['wrong-status']);
  const made = await responsesMadeBy(async () => {
    expect((await engine.answer(sent('/api/v1/firms?limit=2', auth))).status).toBe(200);
    expect((await engine.answer(sent('/__control/healthz'))).status).toBeLessThan(500);
  });
  expect(made).toBe(0);
});

test('the count sees a Response made: the MSW path builds one, at the end', async () => {
  const engine = await faulted(['wrong-status']);
  let status = 0;
  const made = await responsesMadeBy(async () => {
    status = (await engine.fetch(new Request('http://localhost/api/v1/firms?limit=2'))).status;
  });
  expect(status).toBe(403);
  expect(made).toBe(1);
});
