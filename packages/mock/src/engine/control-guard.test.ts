import { expect, test } from 'vitest';
import { ControlGuard, guardLimits } from './control-guard.ts';
import { ProblemError } from './problems.ts';

const loopback = { clientAddress: '127.0.0.1', loopback: true };

function setup(adminToken?: string) {
  let now = 1_000_000;
  const guard = new ControlGuard(adminToken, () => now);
  const call = (headers: Record<string, string>, context: Parameters<ControlGuard['admit']>[1] = loopback, body?: string): string => {
    const request = new Request('http://127.0.0.1:4010/__control/keys', { method: body === undefined ? 'GET' : 'POST', headers: { host: '127.0.0.1:4010', ...headers }, ...(body === undefined ? {} : { body }) });
    try {
      guard.admit(request, context);
      return 'admitted';
    } catch (error) {
      const problem = error as ProblemError;
      return `${problem.status} ${problem.code}${problem.headers['retry-after'] ? ` retry-after ${problem.headers['retry-after']}` : ''}`;
    }
  };
  return { call, advance: (ms: number) => (now += ms) };
}

test('a loopback client naming the mock by a loopback host, with a JSON body or none, is admitted', () => {
  const { call } = setup();
  expect(call({})).toBe('admitted');
  expect(call({ host: 'localhost:4010' })).toBe('admitted');
  expect(call({ host: '[::1]:4010' }, { clientAddress: '::1', loopback: true })).toBe('admitted');
  expect(call({ 'content-type': 'application/json; charset=utf-8' }, loopback, '{}')).toBe('admitted');
  expect(call({ origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'same-origin' })).toBe('admitted');
});

test('a page of another site is refused: a foreign Origin, a cross-site fetch, a form body', () => {
  const { call } = setup();
  expect(call({ origin: 'https://evil.example', 'content-type': 'text/plain' }, loopback, '{"plan":"enterprise"}')).toBe('403 control_forbidden');
  expect(call({ origin: 'null' })).toBe('403 control_forbidden');
  expect(call({ 'sec-fetch-site': 'cross-site' })).toBe('403 control_forbidden');
  expect(call({ 'content-type': 'text/plain' }, loopback, '{"plan":"enterprise"}')).toBe('415 unsupported_media_type');
  expect(call({}, loopback, '{"plan":"enterprise"}')).toBe('415 unsupported_media_type');
});

test('a rebinding host name is refused on loopback, unless the user allowed it', () => {
  const { call } = setup();
  expect(call({ host: 'rebind.evil:4010' })).toBe('403 control_forbidden');
  expect(call({ host: 'rebind.evil:4010' }, { ...loopback, allowedHosts: ['rebind.evil'] })).toBe('admitted');
  expect(call({ host: 'bad host' })).toBe('403 control_forbidden');
});

test('the admin token admits any address only as Authorization: Bearer, and a wrong one never does', () => {
  const { call } = setup('s3cret-token');
  const remote = { clientAddress: '10.0.0.5', loopback: false };
  expect(call({ host: 'mock.internal:4010', authorization: 'Bearer s3cret-token' }, remote)).toBe('admitted');
  expect(call({ host: 'mock.internal:4010', authorization: 's3cret-token' }, remote)).toBe('403 control_forbidden');
  expect(call({ host: 'mock.internal:4010', authorization: 'Bearer s3cret-tokeN' }, remote)).toBe('403 control_forbidden');
  expect(call({ host: 'mock.internal:4010' }, remote)).toBe('403 control_forbidden');
});

test('wrong tokens from one address are throttled with Retry-After for the rest of the window, others unaffected', () => {
  const { call, advance } = setup('s3cret-token');
  const remote = { clientAddress: '10.0.0.5', loopback: false };
  for (let i = 0; i < guardLimits.failures; i++) expect(call({ authorization: `Bearer guess-${i}` }, remote)).toBe('403 control_forbidden');
  expect(call({ authorization: 'Bearer s3cret-token' }, remote)).toBe('429 control_throttled retry-after 60');
  expect(call({ authorization: 'Bearer s3cret-token' }, { clientAddress: '10.0.0.6', loopback: false })).toBe('admitted');
  advance(guardLimits.windowMs - 1_000);
  expect(call({ authorization: 'Bearer s3cret-token' }, remote)).toBe('429 control_throttled retry-after 1');
  advance(1_000);
  expect(call({ authorization: 'Bearer s3cret-token' }, remote)).toBe('admitted');
});

test('in-process adapters (MSW) cross no network and are admitted as they are', () => {
  const { call } = setup();
  expect(call({ host: 'api.investorgraph.test' }, { clientAddress: 'msw', loopback: true, inProcess: true })).toBe('admitted');
});
