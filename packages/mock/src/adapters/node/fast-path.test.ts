// @module-tag servers
/**
 * The Node server's fast path (fast-path.ts) beside its WHATWG path: which requests take it, that
 * both answer alike, byte for byte, and that the adapter's refusals and failures hold on it. The
 * conformance suite runs through both paths too (server.test.ts).
 */
import { request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { createEngine, type Engine } from '@investor-graph/engine/adapter';
import { withFaultsOnAnswer, type FaultName } from '@investor-graph/engine/faults';
import { createNodeServer, listen, type NodeServerOptions, type Served } from './server.ts';
import type { AnswerFunction } from './fast-path.ts';
import { loadInput } from '../../cli/start-mock.ts';

const [dataset, validator] = await Promise.all([loadInput({}), createContractValidator()]);
const key = 'igk_enterprise_fast_path_key_0123456789';
const servers: Server[] = [];
afterAll(() =>
  Promise.all(
    servers.map(
      (s) =>
        new Promise((done) => {
          s.closeAllConnections();
          s.close(done);
        }),
    ),
  ),
);

/**
 * Engines as alike as two can be: the same data, frozen clock, key,
 * cursor secret and rate time (limits off: the time stands still).
 */
function engine(): Engine {
  return createEngine({
    dataset: structuredClone(dataset),
    validator,
    frozen: true,
    keys: [{ plan: 'enterprise', key }],
    cursorSecret: 'fast-path-cursor-secret-0123456789',
    realNow: () => 0,
    rateLimit: false,
  });
}

async function serve(served: Served, options: NodeServerOptions = {}): Promise<string> {
  const server = createNodeServer(served, options);
  servers.push(server);
  return listen(server, 0, '127.0.0.1');
}

interface Sent {
  status: number;
  /** As sent, but Date (the second it was written in). */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const { date: _date, ...headers } = res.headers;
          resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks).toString('base64') });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Raw bytes to a server, for what an HTTP client will not send (HTTP/1.0, two Hosts); the status line back. */
function raw(base: string, text: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    let got = '';
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    socket.on('data', (d) => (got += String(d)));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
}

/** An engine's one entry with faults on, as the mock serves it with --fault. */
function faulted(faults: FaultName[]): Served {
  const e = engine();
  return { answer: withFaultsOnAnswer(e.answer, faults, e) };
}

// Faults act on the engine's answer, which both paths call: a faulted mock takes the fast path as a
// clean one does (it used to turn the fast path off), and answers alike through either. One fault of
// each kind: a header dropped, rows edited, a status changed, a problem's body edited, an answer cached.
test.each(
  ([[], ['drop-request-id'], ['repeat-row'], ['wrong-status'], ['problem-without-code'], ['cached-304']] as const).map(
    (faults) => ({ faults: [...faults] as FaultName[] }),
  ),
)(
  'a GET or HEAD of the data API answers the same through the fast ' +
    'path as through the WHATWG path: status, headers and body bytes (faults: $faults)',
  async ({ faults }) => {
    const fast = await serve(faulted(faults));
    const whatwg = await serve(faulted(faults), { fastPath: false });
    const auth = { authorization: `Bearer ${key}` };
    const first = JSON.parse(
      Buffer.from((await send(fast, '/api/v1/firms?limit=2', { headers: auth })).body, 'base64').toString(),
    ) as { data: { slug: string }[]; next_cursor: string };
    await send(whatwg, '/api/v1/firms?limit=2', { headers: auth });
    const slug = first.data[0]!.slug;
    // A dump file: a Blob the fast path streams (hundreds of megabytes at scale), as the WHATWG path does.
    const manifest = JSON.parse(
      Buffer.from((await send(fast, '/api/v1/exports', { headers: auth })).body, 'base64').toString(),
    ) as { data: { files: { url: string; name: string }[] }[] };
    await send(whatwg, '/api/v1/exports', { headers: auth });
    const dumpFile = new URL(manifest.data[0]!.files.find((f) => f.name === 'investments.jsonl.gz')!.url).pathname;
    const record = await send(fast, `/api/v1/firms/${slug}`, { headers: auth });
    await send(whatwg, `/api/v1/firms/${slug}`, { headers: auth });
    const calls: [string, { method?: string; headers?: Record<string, string> }][] = [
      [`/api/v1/firms/${slug}`, { headers: auth }],
      ['/api/v1/companies?limit=100', { headers: auth }],
      [`/api/v1/firms?limit=2&cursor=${first.next_cursor}`, { headers: auth }],
      ['/api/v1/companies?limit=100', { method: 'HEAD', headers: auth }],
      [`/api/v1/firms/${slug}`, { headers: { ...auth, 'if-none-match': record.headers.etag as string } }],
      ['/api/v1/companies?limit=100', {}],
      ['/api/v1/companies?limit=0', { headers: auth }],
      ['/api/v1/companies?limt=10', { headers: auth }],
      ['/api/v1/nowhere', { headers: auth }],
      ['/api/v1/firms/no-such-firm', { headers: auth }],
      ['/api/v1/companies?limit=100', { headers: { ...auth, 'accept-encoding': 'gzip' } }],
      ['/api/v1/companies?limit=100', { headers: { ...auth, 'accept-encoding': 'br;q=0.5, gzip;q=0.4' } }],
      ['/api/v1/companies?limit=100', { method: 'HEAD', headers: { ...auth, 'accept-encoding': 'gzip' } }],
      [
        `/api/v1/firms/${slug}`,
        {
          headers: { ...auth, 'accept-encoding': 'gzip', origin: 'https://app.example', 'x-request-id': 'trace-0123' },
        },
      ],
      ['/api/v1/openapi.json', {}],
      [dumpFile, { headers: auth }],
      [dumpFile, { method: 'HEAD', headers: auth }],
    ];
    for (const [i, [path, options]] of calls.entries()) {
      // Each engine makes its own request ids (a random prefix): the client sends one, which both echo.
      const sent = { ...options, headers: { 'x-request-id': `call-${i}`, ...options.headers } };
      const [a, b] = [await send(fast, path, sent), await send(whatwg, path, sent)];
      expect({ path, ...a }, `${options.method ?? 'GET'} ${path}`).toEqual({ path, ...b });
    }
  },
);

test(
  'a plain GET or HEAD of the data API takes the fast path; other methods, other ' +
    'paths and targets or requests the two paths could read apart take the WHATWG path',
  async () => {
    // The one entry both paths call: the fast path hands it what it read (no Request), the WHATWG
    // path a Request, so its status says which path took the call.
    const served: Served = {
      answer: (request) =>
        Promise.resolve({
          status: request instanceof Request ? 299 : 298,
          headers: { 'content-type': 'text/plain' },
          body: request instanceof Request ? 'whatwg' : 'fast',
        }),
    };
    const base = await serve(served);
    const { port } = new URL(base);
    const status = async (path: string, options: { method?: string; headers?: Record<string, string> } = {}) =>
      (await send(base, path, options)).status;
    expect(await status('/api/v1/firms?limit=5')).toBe(298);
    expect(await status('/api/v1/firms/some-firm', { method: 'HEAD' })).toBe(298);
    expect(await status('/api/v1/keys/trial', { method: 'POST' })).toBe(299);
    expect(await status('/__control/state')).toBe(299);
    expect(await status('/docs')).toBe(299);
    expect(await status('/api/v1/firms/a%62c')).toBe(299);
    expect(await status('/api/v1/firms?q=a|b')).toBe(299);
    expect(await status('/api/v1/firms', { headers: { host: `LOCALHOST:${port}` } })).toBe(299);
    expect(await raw(base, 'GET /api/v1/firms HTTP/1.0\r\nhost: localhost\r\n\r\n')).toMatch(/^HTTP\/1\.1 299 /);
    // A plain fetch handler (the validation proxy), or the fast path off: every request takes the WHATWG path.
    const handler = { fetch: () => Promise.resolve(new Response('whatwg', { status: 299 })) };
    expect((await send(await serve(handler), '/api/v1/firms')).status).toBe(299);
    expect((await send(await serve(served, { fastPath: false }), '/api/v1/firms')).status).toBe(299);
  },
);

test('a faulted mock serves the data API through the fast path, with the fault acting on what it writes', async () => {
  const faultedEntry = faulted(['drop-request-id']) as { answer: AnswerFunction };
  const tookRequest: boolean[] = [];
  const base = await serve({
    answer: (request, context) => {
      tookRequest.push(request instanceof Request);
      return faultedEntry.answer(request, context);
    },
  });
  const got = await send(base, '/api/v1/firms?limit=1', {
    headers: { authorization: `Bearer ${key}`, 'x-request-id': 'trace-0001' },
  });
  expect(got.status).toBe(200);
  expect(got.headers['x-request-id']).toBeUndefined();
  // What the fast path hands the engine is no Request: that is how this test knows the path.
  expect(tookRequest).toEqual([false]);
});

test(
  "the fast path keeps the adapter's refusal of two Hosts, " + 'and answers a failure past the engine as a 500 problem',
  async () => {
    const base = await serve(engine());
    const twoHosts = await raw(
      base,
      'GET /api/v1/firms HTTP/1.1\r\nhost: localhost\r\nhost: example.com\r\nconnection: close\r\n\r\n',
    );
    expect(twoHosts).toMatch(/^HTTP\/1\.1 400 /);
    expect(twoHosts).toContain('"code":"invalid_request"');
    const failing = await serve({ answer: () => Promise.reject(new Error('broken on purpose')) });
    const failed = await send(failing, '/api/v1/firms');
    expect(failed.status).toBe(500);
    expect(failed.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(Buffer.from(failed.body, 'base64').toString()).code).toBe('internal_error');
  },
);

test(
  'a file answer (a dump, hundreds of megabytes at scale) is ' +
    'streamed on the fast path, never read whole into memory first',
  async () => {
    /** A Blob that refuses to be read whole: only its stream gives its bytes. */
    class StreamOnly extends Blob {
      override arrayBuffer(): Promise<ArrayBuffer> {
        throw new Error('read whole');
      }
    }
    const bytes = new Uint8Array(256 * 1024).map((_, i) => i % 251);
    const base = await serve({
      answer: () =>
        Promise.resolve({
          status: 200,
          headers: { 'content-type': 'application/gzip' },
          body: new StreamOnly([bytes]),
        }),
    });
    const got = await send(base, '/api/v1/exports/2026-11-19/firms.jsonl.gz');
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe(String(bytes.length));
    expect(Buffer.from(got.body, 'base64').equals(Buffer.from(bytes))).toBe(true);
  },
);
