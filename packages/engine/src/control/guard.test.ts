import { expect, test } from 'vitest';
import { MemoryRateLimiter } from '../stores/memory/rate-limiter.ts';
import { ControlGuard, guardLimits } from './guard.ts';
import { ProblemError } from '../problems.ts';

const loopback = { clientAddress: '127.0.0.1', loopback: true };

function setup(adminToken?: string) {
  let now = 1_000_000;
  const guard = new ControlGuard(adminToken, new MemoryRateLimiter(() => now));
  const call = async (
    headers: Record<string, string>,
    context: Parameters<ControlGuard['admit']>[1] = loopback,
    body?: string,
  ): Promise<string> => {
    const request = new Request('http://127.0.0.1:4010/__control/keys', {
      method: body === undefined ? 'GET' : 'POST',
      headers: { host: '127.0.0.1:4010', ...headers },
      ...(body === undefined ? {} : { body }),
    });
    try {
      await guard.admit(request, context);
      return 'admitted';
    } catch (error) {
      const problem = error as ProblemError;
      return (
        `${problem.status} ${problem.code}` +
        `${problem.headers['retry-after'] ? ` retry-after ${problem.headers['retry-after']}` : ''}`
      );
    }
  };
  return { call, advance: (ms: number) => (now += ms) };
}

test('a loopback client naming the mock by a loopback host, with a JSON body or none, is admitted', async () => {
  const { call } = setup();
  expect(await call({})).toBe('admitted');
  expect(await call({ host: 'localhost:4010' })).toBe('admitted');
  expect(await call({ host: '[::1]:4010' }, { clientAddress: '::1', loopback: true })).toBe('admitted');
  expect(await call({ 'content-type': 'application/json; charset=utf-8' }, loopback, '{}')).toBe('admitted');
  expect(await call({ origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'same-origin' })).toBe('admitted');
});

test('a page of another site is refused: a foreign Origin, a cross-site fetch, a form body', async () => {
  const { call } = setup();
  expect(
    await call({ origin: 'https://evil.example', 'content-type': 'text/plain' }, loopback, '{"plan":"enterprise"}'),
  ).toBe('403 control_forbidden');
  expect(await call({ origin: 'null' })).toBe('403 control_forbidden');
  expect(await call({ 'sec-fetch-site': 'cross-site' })).toBe('403 control_forbidden');
  expect(await call({ 'content-type': 'text/plain' }, loopback, '{"plan":"enterprise"}')).toBe(
    '415 unsupported_media_type',
  );
  expect(await call({}, loopback, '{"plan":"enterprise"}')).toBe('415 unsupported_media_type');
});

test('a rebinding host name is refused on loopback, unless the user allowed it', async () => {
  const { call } = setup();
  expect(await call({ host: 'rebind.evil:4010' })).toBe('403 control_forbidden');
  expect(await call({ host: 'rebind.evil:4010' }, { ...loopback, allowedHosts: ['rebind.evil'] })).toBe('admitted');
  expect(await call({ host: 'bad host' })).toBe('403 control_forbidden');
});

test('the admin token admits any address only as Authorization: Bearer, and a wrong one never does', async () => {
  const { call } = setup('s3cret-token');
  const remote = { clientAddress: '10.0.0.5', loopback: false };
  expect(await call({ host: 'mock.internal:4010', authorization: 'Bearer s3cret-token' }, remote)).toBe('admitted');
  expect(await call({ host: 'mock.internal:4010', authorization: 's3cret-token' }, remote)).toBe(
    '403 control_forbidden',
  );
  expect(await call({ host: 'mock.internal:4010', authorization: 'Bearer s3cret-tokeN' }, remote)).toBe(
    '403 control_forbidden',
  );
  expect(await call({ host: 'mock.internal:4010' }, remote)).toBe('403 control_forbidden');
});

test(
  'tries of the admin token from one address are throttled with ' +
    'Retry-After, five at once and then five a minute, others unaffected',
  async () => {
    const { call, advance } = setup('s3cret-token');
    const remote = { clientAddress: '10.0.0.5', loopback: false };
    for (let i = 0; i < guardLimits.burst; i++)
      expect(await call({ authorization: `Bearer guess-${i}` }, remote)).toBe('403 control_forbidden');
    // The right token is refused too once the budget is gone: a guess past it learns nothing.
    expect(await call({ authorization: 'Bearer s3cret-token' }, remote)).toBe('429 control_throttled retry-after 12');
    expect(await call({ authorization: 'Bearer s3cret-token' }, { clientAddress: '10.0.0.6', loopback: false })).toBe(
      'admitted',
    );
    advance(11_500);
    expect(await call({ authorization: 'Bearer s3cret-token' }, remote)).toBe('429 control_throttled retry-after 1');
    advance(1_000);
    expect(await call({ authorization: 'Bearer s3cret-token' }, remote)).toBe('admitted');
    // The right token gave its try back: the next guess still has the one that refilled.
    expect(await call({ authorization: 'Bearer guess-again' }, remote)).toBe('403 control_forbidden');
    expect(await call({ authorization: 'Bearer guess-more' }, remote)).toMatch(/^429 control_throttled/);
  },
);

test('tries sent together spend one budget: of twenty at once, five are compared and the rest are 429', async () => {
  const { call } = setup('s3cret-token');
  const remote = { clientAddress: '10.0.0.5', loopback: false };
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call({ authorization: `Bearer guess-${i}` }, remote)),
  );
  expect(answers.filter((a) => a === '403 control_forbidden')).toHaveLength(guardLimits.burst);
  expect(answers.filter((a) => a.startsWith('429 control_throttled'))).toHaveLength(20 - guardLimits.burst);
});

test(
  'the scheme of the admin token is case-insensitive ' + '(RFC 6750): bearer and BEARER admit as Bearer does',
  async () => {
    const { call } = setup('s3cret-token');
    const remote = { clientAddress: '10.0.0.5', loopback: false };
    expect(await call({ host: 'mock.internal:4010', authorization: 'bearer s3cret-token' }, remote)).toBe('admitted');
    expect(await call({ host: 'mock.internal:4010', authorization: 'BEARER s3cret-token' }, remote)).toBe('admitted');
  },
);

test(
  'without an admin token a data key sent on a control call ' +
    'is no wrong token: loopback is admitted and never throttled',
  async () => {
    const { call } = setup();
    for (let i = 0; i < 2 * guardLimits.burst; i++)
      expect(await call({ authorization: 'Bearer igk_team_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).toBe('admitted');
    expect(
      await call(
        { host: 'mock.internal:4010', authorization: 'Bearer anything' },
        { clientAddress: '10.0.0.5', loopback: false },
      ),
    ).toBe('403 control_forbidden');
  },
);

test('in-process adapters (MSW) cross no network and are admitted as they are', async () => {
  const { call } = setup();
  expect(
    await call({ host: 'api.investorgraph.test' }, { clientAddress: 'msw', loopback: true, inProcess: true }),
  ).toBe('admitted');
});
