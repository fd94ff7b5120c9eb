import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { createEngine } from '../engine.ts';
import { parseJsonBody, repeatedMember } from './json-body.ts';
import { ProblemError } from '../problems.ts';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';

// A small generated dataset: these calls never reach a row.
const dataset = () => collectDataset({ seed: 'json-body', scale: 100, asOf: defaultDataset.asOf });

test('a member given twice is found by its pointer, at any depth, and nothing else is taken for one', () => {
  expect(repeatedMember('{"email":"a@example.com","email":"b@example.com"}')).toBe('/email');
  expect(repeatedMember('{"a":{"b":1,"c":[{"d":1},{"d":2,"d":3}]}}')).toBe('/a/c/1/d');
  expect(repeatedMember('{"a/b":1, "a/b" :2}')).toBe('/a~1b');
  // The same name in two objects, a string holding a quote and a colon, escapes that spell one name.
  expect(repeatedMember('{"a":{"x":1},"b":{"x":1},"c":"\\":\\"x\\""}')).toBeNull();
  expect(repeatedMember('{"\\u0065mail":"a","email":"b"}')).toBe('/email');
  expect(repeatedMember('["email","email"]')).toBeNull();
});

test('parseJsonBody refuses a repeated member with 400 invalid_body naming it, and takes a body without one', () => {
  expect(parseJsonBody('{"email":"a@example.com"}', 'not JSON')).toEqual({ email: 'a@example.com' });
  const refused = (() => {
    try {
      parseJsonBody('{"email":"a@example.com","email":"b@example.com"}', 'not JSON');
    } catch (error) {
      return error as ProblemError;
    }
  })();
  expect(refused?.code).toBe('invalid_body');
  expect(refused?.extra).toEqual({ errors: [{ pointer: '/email', detail: 'given more than once' }] });
});

test('the trial call with "email" twice is a 400 that makes no key (regression: the last one was taken)', async () => {
  const engine = createEngine({ dataset: dataset(), validator: await createContractValidator() });
  const response = await engine.fetch(
    new Request('http://localhost/api/v1/keys/trial', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"a@example.com","email":"b@example.com"}',
    }),
    { clientAddress: '127.0.0.1' },
  );
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ code: 'invalid_body', errors: [{ pointer: '/email' }] });
  expect(await engine.accounts.list()).toEqual([]);
});

test(
  'a body in a content coding is 415 with Accept-Encoding: ' +
    'identity in the engine too, so MSW answers as the server does',
  async () => {
    const engine = createEngine({ dataset: dataset(), validator: await createContractValidator() });
    for (const [path, body] of [
      ['/api/v1/keys/trial', '{"email":"a@example.com"}'],
      ['/__control/keys', '{"plan":"team"}'],
    ] as const) {
      const response = await engine.fetch(
        new Request(`http://localhost${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body,
        }),
        { clientAddress: 'msw', inProcess: true, loopback: true },
      );
      expect(response.status, path).toBe(415);
      expect(response.headers.get('accept-encoding')).toBe('identity');
    }
    expect(await engine.accounts.list()).toEqual([]);
  },
);
