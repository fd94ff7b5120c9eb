/**
 * Conformance cases of HTTP: conditional requests, HEAD, OPTIONS
 * and CORS, headers, the served contract, bad parameters.
 */
import { expect } from 'vitest';
import { plans } from '@investor-graph/contract';
import { type ConformanceContext } from './context.ts';

export function httpCases(c: ConformanceContext): void {
  c.it(
    'a weak ETag sent back in If-None-Match gives 304 with no body, counted as a call but charging no rows',
    async () => {
      const { key } = await c.newKey('payg', 1_000);
      const first = await c.call('/api/v1/firms?limit=25', { key });
      const etag = first.headers.get('etag')!;
      // Weak: the body's usage changes every call while the data it validates does not.
      expect(etag).toMatch(/^W\/"[0-9a-f]{16}"$/);
      const again = await c.call('/api/v1/firms?limit=25', { key, headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.get('etag')).toBe(etag);
      // Compared weakly (RFC 9110): the tag without W/ matches too.
      expect(
        (await c.call('/api/v1/firms?limit=25', { key, headers: { 'if-none-match': etag.slice(2) } })).status,
      ).toBe(304);
      const other = await c.call('/api/v1/firms?limit=6', { key, headers: { 'if-none-match': etag } });
      expect(other.status).toBe(200);
      const usage = (await c.call('/api/v1/account', { key })).body.data.usage;
      expect(usage.calls_used, 'every call counted, the 304s too').toBe(4);
      expect(usage.balance_rows, 'rows charged for the two 200s alone').toBe(1_000 - 25 - 10);
    },
  );

  c.it('HEAD answers every GET with its status and headers and no body', async () => {
    const { key } = await c.newKey('enterprise');
    // Uncompressed, the GET's length is known without sending it; compressed, it is not (the Node
    // server's HEAD then says the GET's encoding and no length, as RFC 9110 9.3.2 allows).
    const identity = { 'accept-encoding': 'identity' };
    const get = await c.call('/api/v1/firms?limit=3', { key, headers: identity });
    const head = await c.call('/api/v1/firms?limit=3', { key, method: 'HEAD', headers: identity });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(Number(head.headers.get('content-length'))).toBe(get.bytes.length);
    const compressible = await c.call('/api/v1/firms?limit=50', {
      key,
      method: 'HEAD',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(compressible.headers.get('content-encoding')).toBe(
      (await c.call('/api/v1/firms?limit=50', { key, headers: { 'accept-encoding': 'gzip' } })).headers.get(
        'content-encoding',
      ),
    );
    expect((await c.call('/api/v1/firms/no-such-firm', { key, method: 'HEAD' })).status).toBe(404);
    expect((await c.call('/api/v1/firms?limit=3', { method: 'HEAD' })).status).toBe(401);
  });

  c.it(
    'OPTIONS is 204 with Allow, and a CORS preflight from any origin is answered for the data API, never for control',
    async () => {
      const plain = await c.call('/api/v1/firms', { method: 'OPTIONS' });
      expect(plain.status).toBe(204);
      expect(plain.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      const preflight = await c.call('/api/v1/firms', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
      const trial = await c.call('/api/v1/keys/trial', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(trial.headers.get('access-control-allow-methods')).toContain('POST');
      const control = await c.call('/__control/state', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      });
      // Refused (403 over a network; under MSW there is no network to guard, and no such route).
      expect(control.status).toBeGreaterThanOrEqual(400);
      expect(control.headers.get('access-control-allow-origin')).toBeNull();
      expect((await c.call('/api/v1/nowhere', { method: 'OPTIONS' })).status).toBe(404);
    },
  );

  c.it('data answers carry CORS, caching and request-id headers; a 401 carries WWW-Authenticate', async () => {
    const { key } = await c.newKey('team');
    const answer = await c.call('/api/v1/firms?limit=1', {
      key,
      headers: { origin: 'https://app.example', 'x-request-id': 'client-trace.42:a' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Policy/);
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    expect(answer.headers.get('vary')).toMatch(/Authorization/);
    expect(answer.headers.get('x-request-id')).toBe('client-trace.42:a');
    // Any origin allowed: the same answer with or without Origin,
    // so a shared cache cannot hand a browser one without it.
    expect((await c.call('/api/v1/firms?limit=1', { key })).headers.get('access-control-allow-origin')).toBe('*');
    // A request id that is not one to echo (here, with a space) is replaced.
    const replaced = await c.call('/api/v1/firms?limit=1', { key, headers: { 'x-request-id': 'two words' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('two words');
    // Nor is a key sent as one, whole or in part, by mistake or not: it would reach logs and problem bodies.
    const customKey = 'my-own-preset-key-9876';
    for (const id of [key, `trace.${customKey}`, customKey.slice(0, -4)]) {
      const answer = await c.call('/api/v1/firms?limit=1', { key: customKey, headers: { 'x-request-id': id } });
      expect(answer.body.request_id, id).not.toBe(id);
      expect(answer.headers.get('x-request-id'), id).not.toBe(id);
    }
    const missing = await c.call('/api/v1/firms?limit=1', { headers: { 'x-request-id': 'trace-401' } });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="investor-graph"');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(missing.body.request_id).toBe('trace-401');
    const refused = await c.call('/api/v1/firms?limit=1', { key: 'igk_team_not_a_key_at_all_00000000' });
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="investor-graph", error="invalid_token"');
  });

  c.it('the monthly quota is a second item of the rate-limit headers, counting down with each call', async () => {
    const { key } = await c.newKey('team');
    const limit = plans.team.calls_limit!;
    const first = await c.call('/api/v1/firms?limit=1', { key });
    expect(first.headers.get('ratelimit-policy')).toMatch(
      new RegExp(`^"default";q=${plans.team.rate_per_second};w=1, "quota";q=${limit};w=\\d+$`),
    );
    expect(first.headers.get('ratelimit')).toMatch(new RegExp(`, "quota";r=${limit - 1};t=\\d+$`));
    const second = await c.call('/api/v1/firms?limit=1', { key });
    expect(second.headers.get('ratelimit')).toMatch(new RegExp(`, "quota";r=${limit - 2};t=\\d+$`));
  });

  c.it('the served contract names this server in servers', async () => {
    const answer = await c.call('/api/v1/openapi.json');
    expect(answer.body.servers).toEqual([
      { url: c.target.baseUrl, description: expect.stringMatching(/^Sandbox: /), 'x-internal': false },
    ]);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
  });

  c.it('an unknown query parameter is a 400 that names it and suggests the right one', async () => {
    const { key } = await c.newKey('team');
    const answer = await c.call('/api/v1/firms?limt=5', { key });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('unknown_parameter');
    expect(answer.body.errors).toEqual([{ parameter: 'limt', detail: 'unknown; did you mean limit?' }]);
  });

  c.it('bad path formats are a 400 naming the parameter, unknown records a 404', async () => {
    const { key } = await c.newKey('enterprise');
    for (const [path, parameter] of [
      ['/api/v1/firms/Not_A_Slug', 'slug'],
      ['/api/v1/funds/12', 'id'],
      ['/api/v1/exports/2026-99-01/firms.jsonl.gz', 'date'],
      ['/api/v1/companies/a--b/rounds', 'slug'],
    ] as const) {
      const answer = await c.call(path, { key });
      expect(answer.status, path).toBe(400);
      expect(
        answer.body.errors.map((e: any) => e.parameter),
        path,
      ).toContain(parameter);
    }
    for (const path of [
      '/api/v1/firms/no-such-firm',
      '/api/v1/companies/no-such-company/investors',
      '/api/v1/funds/fnd_000000000000',
      '/api/v1/lists/no-such-list',
    ]) {
      const answer = await c.call(path, { key });
      expect(answer.status, path).toBe(404);
      expect(answer.body.code).toBe('not_found');
    }
    const stat = await c.call('/api/v1/statistics/rounds-by-month', { key });
    expect(stat.status).toBe(404);
    expect(stat.body.code).toBe('unknown_statistic');
    expect(stat.body.allowed).toEqual([
      'rounds-by-year',
      'rounds-by-stage',
      'most-active-investors',
      'fund-returns-by-vintage',
    ]);
  });
}
