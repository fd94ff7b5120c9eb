import { describe, expect, test } from 'vitest';
import { operationById, resolveRef } from './document.ts';
import { checkExchange, PageTracker, rules, type Exchange, type RuleId } from './rules.ts';
import { createContractValidator } from './validator.ts';

const validator = await createContractValidator();

/** The contract's own example answer of an operation: a 200 that keeps every rule. */
function example(operationId: string): any {
  const response = resolveRef(operationById(operationId).responses['200']) as any;
  return structuredClone((resolveRef(Object.values(response.content['application/json'].examples)[0]) as any).value);
}

const dataHeaders = {
  'content-type': 'application/json',
  'ratelimit-policy': '"default";q=5;w=1, "quota";q=50000;w=2592000',
  ratelimit: '"default";r=4;t=1, "quota";r=49000;t=86400',
  etag: 'W/"1"',
  'cache-control': 'private, no-cache',
  vary: 'Authorization',
};

function answer(url: string, body: unknown, extra: Partial<Exchange> = {}): Exchange {
  return { method: 'GET', url, status: 200, headers: dataHeaders, body, ...extra };
}

function problem(status: number, code: string, more: Record<string, unknown> = {}, url = '/api/v1/firms'): Exchange {
  const body = {
    type: `https://docs.investorgraph.example/problems/${code}`,
    title: 'x',
    status,
    detail: 'x',
    instance: url,
    code,
    request_id: 'req_1',
    ...more,
  };
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (status === 429)
    Object.assign(headers, { 'retry-after': '1', ...dataHeaders, 'content-type': 'application/problem+json' });
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="investor-graph"';
  headers['cache-control'] = 'no-store';
  return { method: 'GET', url, status, headers, body };
}

/** A trial key's answer states the trial's rate. */
const trialHeaders = { ...dataHeaders, 'ratelimit-policy': '"default";q=2;w=1', ratelimit: '"default";r=1;t=1' };

const anAction = {
  type: 'get_trial_key',
  title: 'Get a trial key',
  href: 'https://investorgraph.example/api/v1/keys/trial',
  method: 'POST',
  content_type: 'application/json',
  body: { email: '{email}' },
};
const onRule = (rule: RuleId, exchange: Exchange, walks?: PageTracker) =>
  checkExchange(validator, exchange, walks)
    .filter((f) => f.rule === rule)
    .map((f) => f.message);

/** For each rule: an exchange that keeps it and the same exchange broken in each way the rule forbids. */
const cases: Record<RuleId, { keeps: () => Exchange; breaks: (() => Exchange)[]; walk?: boolean }> = {
  contract: {
    keeps: () => answer('/api/v1/firms', example('listFirms')),
    breaks: [
      () => answer('/api/v1/firms', { ...example('listFirms'), data: 'not a list' }),
      // A JSON content type over a body that is no JSON.
      () => answer('/api/v1/firms', '{"data": [ cut short'),
      // A body that did not decode as its Content-Encoding said (the client could not read it).
      () => answer('/api/v1/firms', '', { bodyError: 'the body could not be read: incorrect header check' }),
      // A documented 500 whose problem is well formed: the service still failed.
      () => problem(500, 'internal_error'),
      // A documented 503 with its Retry-After: the service was not there to be checked.
      () => ({
        ...problem(503, 'state_unavailable'),
        headers: { 'content-type': 'application/problem+json', 'retry-after': '30' },
      }),
      // A documented 502 or 504: a server behind the gateway failed, the service was not checked either.
      () => problem(502, 'bad_gateway'),
      () => problem(504, 'gateway_timeout'),
    ],
  },
  envelope: {
    keeps: () => answer('/api/v1/firms', example('listFirms')),
    breaks: [
      () => answer('/api/v1/firms', (({ usage: _usage, ...rest }) => rest)(example('listFirms'))),
      () => answer('/api/v1/firms', [example('listFirms')]),
    ],
  },
  problem: {
    // Off the contract (no operation has the path), so only the problem rule looks at it.
    keeps: () => problem(404, 'route_not_found', {}, '/api/v1/nowhere'),
    breaks: [
      () => problem(404, 'Route Not Found', {}, '/api/v1/nowhere'),
      () => ({ ...problem(404, 'route_not_found', {}, '/api/v1/nowhere'), status: 410 }),
      () => ({
        ...problem(404, 'route_not_found', {}, '/api/v1/nowhere'),
        headers: { 'content-type': 'application/json' },
      }),
      () =>
        (({ code: _code, ...rest }) => ({ ...problem(404, 'x', rest, '/api/v1/nowhere'), body: rest }))(
          problem(404, 'x').body as Record<string, unknown>,
        ),
    ],
  },
  actions: {
    keeps: () => problem(401, 'missing_key', { actions: [anAction] }),
    breaks: [() => problem(401, 'missing_key', { actions: [] }), () => problem(401, 'missing_key')],
  },
  'retry-after': {
    keeps: () => problem(429, 'rate_limited', { actions: [anAction] }),
    breaks: [
      () =>
        (({ headers, ...rest }) => ({ ...rest, headers: { 'content-type': headers['content-type']! } }))(
          problem(429, 'rate_limited', { actions: [anAction] }),
        ),
    ],
  },
  'no-people': {
    keeps: () => answer('/api/v1/firms', example('listFirms')),
    breaks: [
      () => {
        const body = example('listFirms');
        body.data[0].website = 'https://www.linkedin.com/in/someone';
        return answer('/api/v1/firms', body);
      },
      () => {
        const body = example('listFirms');
        body.data[0].founderEmails = [];
        return answer('/api/v1/firms', body);
      },
    ],
  },
  'page-limit': {
    keeps: () => answer('/api/v1/firms?limit=1', example('listFirms')),
    breaks: [
      () => {
        const body = example('listFirms');
        body.data.push({ ...body.data[0], service_url: `${body.data[0].service_url}-2` });
        return answer('/api/v1/firms?limit=1', body);
      },
    ],
  },
  'round-lag': {
    keeps: () => answer('/api/v1/rounds', example('listRounds'), { plan: 'trial', headers: trialHeaders }),
    breaks: [
      () => {
        const body = example('listRounds');
        body.data[0].announced_on = body.as_of.slice(0, 10);
        return answer('/api/v1/rounds', body, { plan: 'trial', headers: trialHeaders });
      },
    ],
  },
  'announced-since': {
    keeps: () => answer('/api/v1/rounds?announced_since=2025-06-17', example('listRounds')),
    breaks: [() => answer('/api/v1/rounds?announced_since=2025-06-18', example('listRounds'))],
  },
  'changes-order': {
    keeps: () => answer('/api/v1/changes?since=2026-11-01T00:00:00Z', example('listChanges')),
    breaks: [
      () => {
        const body = example('listChanges');
        body.data.push({ ...body.data[0], sequence: body.data[0].sequence - 1 });
        return answer('/api/v1/changes?since=2026-11-01T00:00:00Z', body);
      },
      () => answer('/api/v1/changes?since=2026-11-21T00:00:00Z', example('listChanges')),
    ],
  },
  'bad-input-no-5xx': {
    keeps: () => ({ ...problem(400, 'invalid_parameter'), url: '/api/v1/firms?limit=abc' }),
    breaks: [() => ({ ...problem(500, 'internal_error'), url: '/api/v1/firms?limit=abc' })],
  },
  'key-not-echoed': {
    keeps: () =>
      answer('/api/v1/account', example('getAccount'), {
        requestHeaders: { authorization: `Bearer igk_team_${'a'.repeat(32)}` },
      }),
    breaks: [
      () => {
        const body = example('getAccount');
        body.data.keys[0].prefix = `igk_team_${'a'.repeat(32)}`;
        return answer('/api/v1/account', body, {
          requestHeaders: { authorization: `Bearer igk_team_${'a'.repeat(32)}` },
        });
      },
      () =>
        answer('/api/v1/firms', example('listFirms'), {
          requestHeaders: { Authorization: `Bearer igk_team_${'b'.repeat(32)}` },
          headers: { ...dataHeaders, 'x-debug-key': `igk_team_${'b'.repeat(32)}` },
        }),
    ],
  },
  'cache-headers': {
    keeps: () =>
      answer('/api/v1/firms', example('listFirms'), {
        headers: {
          ...dataHeaders,
          'access-control-allow-origin': '*',
          'access-control-expose-headers':
            'ETag, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, Preference-Applied, WWW-Authenticate',
        },
      }),
    breaks: [
      () =>
        answer('/api/v1/firms', example('listFirms'), {
          headers: { ...dataHeaders, 'cache-control': 'public, max-age=60' },
        }),
      () => answer('/api/v1/firms', example('listFirms'), { headers: { ...dataHeaders, 'cache-control': 'private' } }),
      () => answer('/api/v1/firms', example('listFirms'), { headers: { ...dataHeaders, vary: 'Accept-Encoding' } }),
      () => answer('/api/v1/account', example('getAccount'), { headers: { ...dataHeaders, vary: 'Accept-Encoding' } }),
      () => {
        const refused = problem(401, 'invalid_key');
        return { ...refused, headers: { ...refused.headers, 'cache-control': 'private, no-cache' } };
      },
      () =>
        answer('/api/v1/firms', example('listFirms'), {
          headers: {
            ...dataHeaders,
            'access-control-allow-origin': '*',
            'access-control-expose-headers': 'RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, WWW-Authenticate',
          },
        }),
    ],
  },
  'action-shapes': {
    keeps: () =>
      problem(402, 'quota_exhausted', {
        actions: [
          anAction,
          {
            type: 'subscribe',
            title: 'x',
            href: 'https://investorgraph.example/pricing',
            method: 'GET',
            plan: 'business',
          },
          {
            type: 'buy_prepaid_rows',
            title: 'x',
            href: 'https://investorgraph.example/buy',
            method: 'GET',
            rows: 10000,
          },
        ],
      }),
    breaks: [
      () => problem(401, 'missing_key', { actions: [{ ...anAction, body: {} }] }),
      () => problem(401, 'missing_key', { actions: [{ ...anAction, method: 'GET' }] }),
      () =>
        problem(402, 'quota_exhausted', {
          actions: [{ type: 'subscribe', title: 'x', href: 'https://investorgraph.example/pricing', method: 'GET' }],
        }),
      () =>
        problem(402, 'quota_exhausted', {
          actions: [{ type: 'buy_prepaid_rows', title: 'x', href: 'https://investorgraph.example/buy', method: 'GET' }],
        }),
    ],
  },
  'request-id': {
    keeps: () =>
      answer('/api/v1/firms', example('listFirms'), {
        requestId: 'igct-7',
        headers: { ...dataHeaders, 'x-request-id': 'igct-7' },
      }),
    breaks: [
      () =>
        answer('/api/v1/firms', example('listFirms'), {
          requestId: 'igct-7',
          headers: { ...dataHeaders, 'x-request-id': 'igct-6' },
        }),
      () => answer('/api/v1/firms', example('listFirms'), { requestId: 'igct-7' }),
      () => {
        const refused = problem(401, 'invalid_key');
        return { ...refused, headers: { ...refused.headers, 'x-request-id': 'req_2' } };
      },
    ],
  },
  'rate-limit-headers': {
    keeps: () => answer('/api/v1/firms', example('listFirms')),
    breaks: [
      () =>
        answer('/api/v1/firms', example('listFirms'), {
          headers: { ...dataHeaders, 'ratelimit-policy': '"default";q=10;w=1' },
        }),
      () =>
        answer('/api/v1/firms', example('listFirms'), { headers: { ...dataHeaders, ratelimit: '"default";r=9;t=1' } }),
      () =>
        answer('/api/v1/firms', example('listFirms'), {
          headers: { ...dataHeaders, 'ratelimit-policy': '"default";q=5;w=1, "quota";q=1000;w=60' },
        }),
      () =>
        answer('/api/v1/firms', example('listFirms'), {
          headers: { 'content-type': 'application/json', etag: 'W/"1"' },
        }),
    ],
  },
  'cursor-continuity': {
    walk: true,
    keeps: () =>
      answer('/api/v1/firms?cursor=next', {
        ...example('listFirms'),
        data: [{ ...example('listFirms').data[0], service_url: 'https://investorgraph.example/firms/other' }],
      }),
    breaks: [() => answer('/api/v1/firms?cursor=next', example('listFirms'))],
  },
};

test(`the actions rule is the API's: a control endpoint's 429 without actions keeps it, the same answer from the API \
breaks it`, () => {
  const throttled = (url: string) =>
    (({ actions: _actions, ...body }) => ({ ...problem(429, 'control_throttled', {}, url), body }))(
      problem(429, 'control_throttled', {}, url).body as Record<string, unknown>,
    );
  expect(onRule('actions', throttled('/__control/keys'))).toEqual([]);
  expect(onRule('actions', throttled('/api/v1/firms'))).toEqual(['a 429 without actions']);
});

describe('every rule carries a check that holds on a good answer and fails on a broken one', () => {
  test('each rule has its case here', () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(rules).sort());
  });

  for (const id of Object.keys(rules) as RuleId[]) {
    test(`${id}: ${rules[id].title}`, () => {
      const { keeps, breaks, walk } = cases[id];
      // A cursor walk spans answers: the first page hands out the cursor the second one follows.
      const walks = (): PageTracker => {
        const tracker = new PageTracker();
        if (walk) tracker.observe(answer('/api/v1/firms', { ...example('listFirms'), next_cursor: 'next' }));
        return tracker;
      };
      expect(checkExchange(validator, keeps(), walks())).toEqual([]);
      for (const [i, broken] of breaks.entries())
        expect(onRule(id, broken(), walks()).length, `${id} saw nothing in break ${i}`).toBeGreaterThan(0);
    });
  }
});

test('an X-Request-Id the caller did not make is not held to an echo (a service replaces a key it knows)', () => {
  const sent = answer('/api/v1/firms', example('listFirms'), {
    requestHeaders: { 'x-request-id': 'trace.my-own-preset-key-9876' },
    headers: { ...dataHeaders, 'x-request-id': 'req_9' },
  });
  expect(onRule('request-id', sent)).toEqual([]);
  expect(onRule('request-id', { ...sent, requestId: 'two words' }), 'not an id a service echoes').toEqual([]);
});

test('the contract document is not held to the caching and request-id rules (a service may serve it as a file)', () => {
  const document = {
    method: 'GET',
    url: '/api/v1/openapi.json',
    status: 503,
    headers: { 'content-type': 'text/html' },
    body: '<html>down</html>',
    requestId: 'igct-1',
  };
  expect(onRule('cache-headers', document)).toEqual([]);
  expect(onRule('request-id', document)).toEqual([]);
  expect(onRule('request-id', { ...document, url: '/api/v1/firms' })).toHaveLength(1);
});

test('the rules that span answers are checked only when given the walks', () => {
  const walks = new PageTracker();
  const first = answer('/api/v1/firms', { ...example('listFirms'), next_cursor: 'next' });
  expect(checkExchange(validator, first, walks)).toEqual([]);
  expect(onRule('cursor-continuity', answer('/api/v1/firms?cursor=next', example('listFirms')))).toEqual([]);
});

test("a malformed as_of is the contract's finding, and the round lag is not measured from it", () => {
  const body = example('listRounds');
  body.as_of = 'not a time';
  const findings = checkExchange(validator, answer('/api/v1/rounds', body, { plan: 'trial', headers: trialHeaders }));
  expect(findings.map((f) => f.rule)).toContain('contract');
  expect(findings.map((f) => f.rule)).not.toContain('round-lag');
});

test('an answer a check cannot read is a finding of that rule, never a throw', () => {
  const body = example('listRounds');
  Object.defineProperty(body.data[0], 'announced_on', {
    enumerable: true,
    get: () => {
      throw new Error('unreadable');
    },
  });
  const findings = checkExchange(validator, answer('/api/v1/rounds?announced_since=2025-01-01', body));
  expect(findings.find((f) => f.rule === 'announced-since')?.message).toMatch(/could not be checked: unreadable/);
});

test('a HEAD answer is held to the headers of the problem rule, not to a body it does not have', () => {
  const head = { ...problem(404, 'route_not_found', {}, '/api/v1/nowhere'), method: 'HEAD', body: '' };
  expect(checkExchange(validator, head)).toEqual([]);
  expect(onRule('problem', { ...head, headers: { 'content-type': 'text/plain' } })).toHaveLength(1);
});
