// @module-tag servers
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, expect, test, vi } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { runConformance } from '../../conformance/suite.ts';
import { createEngine } from '@investor-graph/engine/adapter';
import { MemoryKeyStore } from '@investor-graph/engine/adapter';
import type { KeyRecord, KeyStore } from '@investor-graph/engine/adapter';
import { createNodeServer, isLoopback, listen, type NodeServerOptions } from './server.ts';
import { SqliteKeyStore } from '../../stores/sqlite/key-store.ts';
import { loadInput, startMock } from '../../cli/start-mock.ts';

const [dataset, validator] = await Promise.all([loadInput({}), createContractValidator()]);

/** A fresh engine on the default dataset behind a real Node server on a free loopback port. */
async function serve(
  now: string,
  extra: { adminToken?: string; keyStore?: KeyStore } = {},
  options: NodeServerOptions = {},
) {
  let baseUrl = '';
  const engine = createEngine({
    dataset: structuredClone(dataset),
    validator,
    now: Date.parse(now),
    frozen: true,
    publicUrl: () => baseUrl,
    ...extra,
  });
  const server = createNodeServer(engine, options);
  baseUrl = await listen(server, 0, '127.0.0.1');
  return {
    baseUrl,
    engine,
    fetch: globalThis.fetch,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          void extra.keyStore?.close();
          resolve();
        });
      }),
  };
}

// A GET or HEAD of the data API takes the fast path (fast-path.ts);
// the rest, and everything with it off, the WHATWG one.
runConformance({ name: 'node server', setup: ({ now }) => serve(now) });
runConformance({
  name: 'node server on its WHATWG path alone',
  setup: ({ now }) => serve(now, {}, { fastPath: false }),
});

// The same suite with the state in an SQLite database (--state), a new file for each case.
const databases = mkdtempSync(join(tmpdir(), 'ig-state-conformance-'));
let database = 0;
runConformance({
  name: 'node server on an SQLite state database',
  setup: ({ now }) => serve(now, { keyStore: SqliteKeyStore.open(join(databases, `state-${++database}.db`)) }),
});
afterAll(() => rmSync(databases, { recursive: true, force: true }));

test('control endpoints refuse a non-loopback client unless it brings the admin token', async () => {
  const engine = createEngine({ dataset, validator, adminToken: 'let-me-in-0123456789' });
  const remote = { clientAddress: '203.0.113.7', loopback: false };
  const refused = await engine.fetch(new Request('http://mock/__control/state'), remote);
  expect(refused.status).toBe(403);
  expect((await refused.json()).code).toBe('control_forbidden');
  const wrong = await engine.fetch(
    new Request('http://mock/__control/state', { headers: { authorization: 'Bearer nope' } }),
    remote,
  );
  expect(wrong.status).toBe(403);
  const admitted = await engine.fetch(
    new Request('http://mock/__control/state', { headers: { authorization: 'Bearer let-me-in-0123456789' } }),
    remote,
  );
  expect(admitted.status).toBe(200);
  const open = createEngine({ dataset, validator });
  expect((await open.fetch(new Request('http://mock/__control/state'), remote)).status, 'no token: loopback only').toBe(
    403,
  );
});

test(
  'remembered request verdicts never change an answer: a bad ' +
    "query stays a 400 and a good one a 200, past the memory's bound",
  async () => {
    const key = 'igk_enterprise_verdict_memory_key_01';
    const engine = createEngine({ dataset, validator, keys: [{ plan: 'enterprise', key }], rateLimit: false });
    const get = (path: string, headers: Record<string, string> = {}) =>
      engine.fetch(new Request(`http://mock${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } }));
    const bad = '/api/v1/firms?limit=0';
    const first = await get(bad);
    expect(first.status).toBe(400);
    const code = (await first.json()).code;
    expect((await (await get(bad)).json()).code).toBe(code);
    expect((await get('/api/v1/firms?limit=3')).status).toBe(200);
    // More distinct queries than the memory keeps, then the first ones again.
    for (let n = 1; n <= 2100; n++) expect((await get(`/api/v1/firms?limit=${n}`)).status).toBe(200);
    expect((await get(bad)).status).toBe(400);
    expect((await get('/api/v1/firms?limit=3')).status).toBe(200);
    // The same path with another validator header is judged on its own.
    const tagged = await get('/api/v1/firms?limit=3');
    expect((await get('/api/v1/firms?limit=3', { 'if-none-match': tagged.headers.get('etag')! })).status).toBe(304);
  },
);

test(
  'a path with characters a URI may not hold raw still ' + 'gets a problem whose instance is a valid uri-reference',
  async () => {
    const key = 'igk_team_instance_check_key_000001';
    const engine = createEngine({ dataset, validator, keys: [{ plan: 'team', key }] });
    // The first is the contract tests' own counterexample (seed 1492134806, bad-input).
    for (const path of [
      '/api/v1/firms/[}p%?)@)w]</funds?b_i=iCSHTV%5DD%21',
      '/api/v1/firms/a|b^c',
      '/api/v1/firms/%ZZ',
      '/api/v1/firms/caf\u00e9',
    ]) {
      const res = await engine.fetch(
        new Request(`http://mock${path}`, { headers: { authorization: `Bearer ${key}` } }),
      );
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      const body = await res.json();
      expect(body.instance, path).toMatch(/^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/);
      const operationId = path.includes('/funds') ? 'listFirmFunds' : 'getFirm';
      const headers = Object.fromEntries(res.headers);
      expect(
        validator
          .validateResponse(operationId, { status: res.status, headers, body })
          .filter((v) => v.path.includes('instance')),
        path,
      ).toEqual([]);
    }
  },
);

test('loopback means 127.0.0.0/8 and ::1, nothing else', () => {
  for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
  for (const a of ['10.0.0.1', '192.168.1.1', '::ffff:10.0.0.1', '0.0.0.0', '', undefined])
    expect(isLoopback(a), String(a)).toBe(false);
});

test('a raw request the HTTP parser cannot read gets a 400 and the server keeps serving', async () => {
  const mock = await serve('2026-11-20T03:00:00Z');
  try {
    const { connect } = await import('node:net');
    const port = Number(new URL(mock.baseUrl).port);
    const garbage = async (bytes: string): Promise<string> =>
      new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
        let out = '';
        socket.on('data', (d) => (out += String(d)));
        socket.on('close', () => resolve(out));
        socket.on('error', () => resolve(out));
      });
    expect(await garbage('GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await garbage(`GET /api/v1/firms HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 431/,
    );
    expect(
      await garbage('GET http://evil.example/api/v1/firms HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ).toMatch(/^HTTP\/1\.1 400/);
    // HTTP/1.0 may leave Host out: still answered (its URL names localhost), not refused.
    expect(await garbage('GET /api/v1/openapi.json HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200/);
    expect((await fetch(`${mock.baseUrl}/api/v1/openapi.json`)).status).toBe(200);
  } finally {
    await mock.close();
  }
});

/**
 * A raw HTTP/1.1 exchange, so that Host, Origin, content type and Accept-Encoding are exactly what a
 * browser or curl would send, and the body is the bytes as sent (fetch would decompress them).
 */
function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string; bytes: Buffer }> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body: bytes.toString('utf8'), bytes });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

test(
  'a web page cannot drive the control plane: cross-site POST, ' +
    'DNS-rebinding Host and preflight are refused (regression)',
  async () => {
    const mock = await serve('2026-11-20T03:00:00Z');
    try {
      const keysBefore = (
        JSON.parse((await rawRequest(mock.baseUrl, 'GET', '/__control/state', {})).body) as { keys: unknown[] }
      ).keys.length;
      // The tester's reproduction: a page on evil.example posts a key for itself as text/plain.
      const forged = await rawRequest(
        mock.baseUrl,
        'POST',
        '/__control/keys',
        { origin: 'https://evil.example', 'content-type': 'text/plain' },
        '{"plan":"enterprise","key":"attacker-key-0001"}',
      );
      expect(forged.status).toBe(403);
      expect(JSON.parse(forged.body).code).toBe('control_forbidden');
      expect(forged.headers['access-control-allow-origin']).toBeUndefined();
      const keysAfter = (
        JSON.parse((await rawRequest(mock.baseUrl, 'GET', '/__control/state', {})).body) as { keys: unknown[] }
      ).keys.length;
      expect(keysAfter).toBe(keysBefore);
      expect(
        (await rawRequest(mock.baseUrl, 'GET', '/api/v1/firms?limit=1', { authorization: 'Bearer attacker-key-0001' }))
          .status,
      ).toBe(401);
      // DNS rebinding: the page's own name resolving to 127.0.0.1.
      expect((await rawRequest(mock.baseUrl, 'GET', '/__control/state', { host: 'rebind.evil' })).status).toBe(403);
      // The preflight a browser sends before a JSON POST: refused, and no CORS header to read.
      const preflight = await rawRequest(mock.baseUrl, 'OPTIONS', '/__control/keys', {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
      expect(preflight.status).toBe(403);
      expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      // What a developer sends from a terminal still works.
      const made = await rawRequest(
        mock.baseUrl,
        'POST',
        '/__control/keys',
        { 'content-type': 'application/json' },
        '{"plan":"team"}',
      );
      expect(made.status).toBe(201);
    } finally {
      await mock.close();
    }
  },
);

test(
  "the kit's own failure is a 500 internal_error that names " +
    'the request id, never a 400 and never a path (regression)',
  async () => {
    const key = 'igk_team_internal_error_check_0001';
    const broken = {
      ...validator,
      validateRequest: () => {
        throw new Error("ENOENT: no such file or directory, open '/home/dev/.mock/state.json.tmp'");
      },
    };
    const engine = createEngine({ dataset, validator: broken, keys: [{ plan: 'team', key }] });
    const server = createNodeServer(engine);
    const baseUrl = await listen(server, 0, '127.0.0.1');
    const logged: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    try {
      const answer = await fetch(`${baseUrl}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(500);
      const problem = await answer.json();
      expect(problem.code).toBe('internal_error');
      expect(problem.detail).toContain(problem.request_id);
      expect(JSON.stringify(problem)).not.toMatch(/ENOENT|\/home\/dev|state\.json/);
      // The log has what the answer leaves out.
      expect(String((logged[0] as unknown[])[0])).toContain(problem.request_id);
      expect(String((logged[0] as unknown[])[1])).toContain('ENOENT');
    } finally {
      spy.mockRestore();
      server.closeAllConnections();
      server.close();
    }
  },
);

test(
  'a clock set past what dates can hold is refused at the ' + 'control call, and the API keeps answering (regression)',
  async () => {
    const mock = await serve('2026-11-20T03:00:00Z');
    try {
      const far = await rawRequest(
        mock.baseUrl,
        'PUT',
        '/__control/clock',
        { 'content-type': 'application/json' },
        '{"now":"+275760-09-13T00:00:00Z"}',
      );
      expect(far.status).toBe(400);
      expect(JSON.parse(far.body).errors).toEqual([
        { pointer: '/now', detail: 'must be between 1970-01-01 and 9999-12-31' },
      ]);
      const advance = await rawRequest(
        mock.baseUrl,
        'PUT',
        '/__control/clock',
        { 'content-type': 'application/json' },
        '{"now":"9999-12-31T00:00:00Z"}',
      );
      expect(advance.status).toBe(200);
      const past = await rawRequest(
        mock.baseUrl,
        'POST',
        '/__control/clock/advance',
        { 'content-type': 'application/json' },
        '{"duration":"P2D"}',
      );
      expect(past.status).toBe(400);
      const { key } = JSON.parse(
        (
          await rawRequest(
            mock.baseUrl,
            'POST',
            '/__control/keys',
            { 'content-type': 'application/json' },
            '{"plan":"team"}',
          )
        ).body,
      ) as { key: string };
      expect(
        (await rawRequest(mock.baseUrl, 'GET', '/api/v1/firms?limit=1', { authorization: `Bearer ${key}` })).status,
      ).toBe(200);
    } finally {
      await mock.close();
    }
  },
);

test('the request log never holds a key, whatever form it takes in the URL (regression)', async () => {
  const lines: string[] = [];
  const engine = createEngine({ dataset, validator });
  const server = createNodeServer(engine, { log: (line) => lines.push(line) });
  const baseUrl = await listen(server, 0, '127.0.0.1');
  const key = 'igk_team_LeakLeakLeak0123456789abcdEF';
  try {
    for (const query of [`api_key=${key}`, `x=${key.replace(/_/g, '%5F')}`, 'token=sk_live_4eC39HqLyjWDarjtT1zdp7dc'])
      await (await fetch(`${baseUrl}/api/v1/firms?${query}`)).arrayBuffer();
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toMatch(/LeakLeak|4eC39HqL/);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

/** Sends `text` on a raw connection and collects what comes back until the server closes or `ms` pass. */
function rawExchange(baseUrl: string, text: string, ms = 3_000): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (d) => (answer += String(d)));
    socket.on('close', done);
    socket.on('error', done);
  });
}

test(
  'bodies over the bound are refused by what they declare, before a ' +
    'byte is sent: 413, also after Expect: 100-continue (regression)',
  async () => {
    const mock = await serve('2026-11-20T03:00:00Z');
    try {
      for (const expect100 of [true, false]) {
        const answer = await rawExchange(
          mock.baseUrl,
          `POST /api/v1/keys/trial HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `Content-Length: 52428800\r\n${expect100 ? 'Expect: 100-continue\r\n' : ''}\r\n`,
        );
        expect(answer, `expect100=${expect100}`).toMatch(/^HTTP\/1\.1 413 /);
        expect(answer).not.toContain('100 Continue');
      }
      // A chunked control body past the bound is a 413, not an empty object.
      const big = JSON.stringify({ plan: 'team', note: 'x'.repeat(70_000) });
      const chunked = await rawExchange(
        mock.baseUrl,
        `POST /__control/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Transfer-Encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`,
      );
      expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
      // A URL past 8 KB is 414, not 400.
      expect((await rawRequest(mock.baseUrl, 'GET', `/api/v1/firms?limit=1&pad=${'a'.repeat(9_000)}`, {})).status).toBe(
        414,
      );
    } finally {
      await mock.close();
    }
  },
);

test('a client that stalls its headers is answered 408 and closed (regression)', async () => {
  const engine = createEngine({ dataset, validator });
  const server = createNodeServer(engine, { limits: { headersMs: 300, requestMs: 600 } });
  const baseUrl = await listen(server, 0, '127.0.0.1');
  try {
    const answer = await rawExchange(baseUrl, 'GET /api/v1/firms HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"request_timeout"');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("dump links are built from the mock's public URL, never from the Host a client sends (regression)", async () => {
  const key = 'igk_business_public_url_check_0001';
  const mock = await startMock({ port: 0, keys: [{ plan: 'business', key }] });
  const behindProxy = await startMock({
    port: 0,
    keys: [{ plan: 'business', key }],
    publicUrl: 'https://mock.example.test/base',
  });
  try {
    for (const [running, expected] of [
      [mock, mock.url],
      [behindProxy, 'https://mock.example.test/base'],
    ] as const) {
      const answer = await rawRequest(running.url, 'GET', '/api/v1/exports?limit=1', {
        host: 'attacker.example',
        authorization: `Bearer ${key}`,
      });
      expect(answer.status).toBe(200);
      const urls = (JSON.parse(answer.body).data as { files: { url: string }[] }[]).flatMap((d) =>
        d.files.map((f) => f.url),
      );
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url.startsWith(`${expected}/api/v1/exports/`), url).toBe(true);
    }
  } finally {
    await Promise.all([mock.close(), behindProxy.close()]);
  }
});

test(
  'a data call without a valid key is 401 whatever ' + 'its query holds: who calls comes first (regression)',
  async () => {
    const engine = createEngine({ dataset, validator });
    const answer = await engine.fetch(new Request('http://mock/api/v1/firms?limit=0&nope=1'), {
      clientAddress: '127.0.0.1',
      loopback: true,
    });
    expect(answer.status).toBe(401);
    expect((await answer.json()).code).toBe('missing_key');
  },
);

test('a call the kit fails to save is answered 500 and neither counted nor charged (regression)', async () => {
  const key = 'igk_payg_state_write_fails_0001';
  // A store whose next write fails, as a full disk fails an SQLite commit.
  class FailingStore extends MemoryKeyStore {
    failNext = false;
    override save(record: KeyRecord): void {
      if (this.failNext) {
        this.failNext = false;
        throw new Error('SQLITE_FULL: database or disk is full');
      }
      super.save(record);
    }
  }
  const keyStore = new FailingStore();
  const engine = createEngine({ dataset, validator, keys: [{ plan: 'payg', key, prepaidRows: 1_000 }], keyStore });
  const get = (path: string) =>
    engine.fetch(new Request(`http://mock${path}`, { headers: { authorization: `Bearer ${key}` } }), {
      clientAddress: '127.0.0.1',
      loopback: true,
    });
  const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const before = (await (await get('/api/v1/account')).json()).data;
    keyStore.failNext = true;
    const failed = await get('/api/v1/firms?limit=20');
    expect(failed.status).toBe(500);
    expect((await failed.json()).code).toBe('internal_error');
    const after = (await (await get('/api/v1/account')).json()).data;
    expect(after.usage.calls_used).toBe(before.usage.calls_used);
    expect(after.balance.prepaid_rows).toBe(before.balance.prepaid_rows);
  } finally {
    spy.mockRestore();
  }
});

test(
  'the Node server compresses JSON as Accept-Encoding asks (br ' +
    'first, gzip, or none), and a compressed page is the same JSON',
  async () => {
    const key = 'igk_enterprise_compression_check_00001';
    const mock = await serve('2026-11-20T03:00:00Z');
    await mock.engine.accounts.create('enterprise', Date.parse('2026-11-20T03:00:00Z'), { key });
    try {
      const page = '/api/v1/companies?limit=200';
      const auth = { authorization: `Bearer ${key}` };
      const plain = await rawRequest(mock.baseUrl, 'GET', page, auth);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/Accept-Encoding/);
      const data = JSON.parse(plain.body).data;
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
        ['br;q=0.5, gzip;q=0.9', 'gzip', gunzipSync],
      ] as const) {
        const answer = await rawRequest(mock.baseUrl, 'GET', page, { ...auth, 'accept-encoding': accept });
        expect(answer.headers['content-encoding'], accept).toBe(encoding);
        expect(answer.bytes.length, `${accept}: smaller`).toBeLessThan(plain.bytes.length / 3);
        expect(JSON.parse(decode(answer.bytes).toString('utf8')).data, accept).toEqual(data);
      }
      // Small answers go as they are: a 401 problem is a few hundred bytes.
      const small = await rawRequest(mock.baseUrl, 'GET', page, { 'accept-encoding': 'gzip' });
      expect(small.status).toBe(401);
      expect(small.headers['content-encoding']).toBeUndefined();
      // A HEAD has no body and the headers its GET has: the GET's length when not compressed, the
      // GET's encoding (and no length, which only compressing would tell) when it would be.
      const head = await rawRequest(mock.baseUrl, 'HEAD', page, auth);
      expect(head.bytes.length).toBe(0);
      expect(Number(head.headers['content-length'])).toBe(plain.bytes.length);
      expect(head.headers.vary).toMatch(/Accept-Encoding/);
      const compressedHead = await rawRequest(mock.baseUrl, 'HEAD', page, { ...auth, 'accept-encoding': 'gzip' });
      expect(compressedHead.headers['content-encoding']).toBe('gzip');
      expect(compressedHead.headers['content-length']).toBeUndefined();
    } finally {
      await mock.close();
    }
  },
);

test(
  'TRACE, which a WHATWG Request cannot carry, is 405 with ' + 'Allow from the Node server (regression: it was a 400)',
  async () => {
    const mock = await serve('2026-11-20T03:00:00Z');
    try {
      const trace = await rawRequest(mock.baseUrl, 'TRACE', '/api/v1/firms', {});
      expect(trace.status).toBe(405);
      expect(trace.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(JSON.parse(trace.body).code).toBe('method_not_allowed');
      expect((await rawRequest(mock.baseUrl, 'TRACE', '/api/v1/nowhere', {})).status).toBe(404);
    } finally {
      await mock.close();
    }
  },
);

test('--cors-origin lets one origin in: it gets CORS, another gets none, and both answers vary by Origin', async () => {
  const key = 'igk_team_cors_origin_restricted_00001';
  const engine = createEngine({
    dataset,
    validator,
    keys: [{ plan: 'team', key }],
    corsOrigins: ['https://app.example'],
  });
  const ask = (origin: string, init: RequestInit = {}) =>
    engine.fetch(
      new Request('http://mock/api/v1/firms?limit=1', {
        ...init,
        headers: { origin, authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
      }),
      { clientAddress: '127.0.0.1', loopback: true },
    );
  const allowed = await ask('https://app.example');
  expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
  expect(allowed.headers.get('vary')).toMatch(/Origin/);
  const other = await ask('https://elsewhere.example');
  expect(other.status).toBe(200); // CORS is the browser's to enforce: the answer itself is the same
  expect(other.headers.get('access-control-allow-origin')).toBeNull();
  const preflight = await ask('https://elsewhere.example', {
    method: 'OPTIONS',
    headers: { 'access-control-request-method': 'GET' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
});

test(
  "a mock started in a user's process leaves its global Request and " +
    "Response alone: fetch's answers stay instanceof Response (regression)",
  async () => {
    const NativeResponse = globalThis.Response;
    const mock = await startMock({ port: 0 });
    try {
      const answer = await fetch(`${mock.url}/api/v1/openapi.json`);
      expect(answer).toBeInstanceOf(Response);
      expect(globalThis.Response).toBe(NativeResponse);
      // and the mock's own answers, built in this process, are native ones too
      expect(await mock.engine.fetch(new Request(`${mock.url}/api/v1/firms`))).toBeInstanceOf(NativeResponse);
    } finally {
      await mock.close();
    }
  },
);
