// @module-tag servers
/**
 * The third round of hostile probes (issue #51) at the Node adapter, kept as tests a reader can run:
 * idle and half-open connections, one address holding the connection table, a Host the URL parser
 * refuses, a client that goes away mid-body, and a body in a content coding. Each is the probe that
 * found the fault, on loopback with small bounds, and fails without its fix.
 */
import { spawnSync } from 'node:child_process';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, expect, test, vi } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { createEngine } from '@investor-graph/engine/adapter';
import { clientOf } from './http-edges.ts';
import { createNodeServer, listen, type NodeServerOptions } from './server.ts';
import { cli, killAll, start, stop } from '../../cli/cli-process.test-support.ts';
import { loadInput, startMock } from '../../cli/start-mock.ts';

const [dataset, validator] = await Promise.all([loadInput({}), createContractValidator()]);
const servers: Server[] = [];
const sockets: Socket[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  killAll();
  for (const s of sockets) s.destroy();
  await Promise.all(closers.map((c) => c()));
  await Promise.all(servers.map((s) => new Promise((done) => (s.closeAllConnections(), s.close(done)))));
});

/** The mock's engine behind a real Node server on a free loopback port. */
async function serve(options: NodeServerOptions = {}) {
  const server = createNodeServer(createEngine({ dataset: structuredClone(dataset), validator }), options);
  servers.push(server);
  const url = await listen(server, 0, '127.0.0.1');
  return { server, url, port: Number(new URL(url).port) };
}

const connections = (server: Server) =>
  new Promise<number>((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n))));

/** Polls `check` every 25 ms for `ms` at most; whether it came true. */
async function until(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

/**
 * A client that opens a connection from `from` (any 127.x address is this machine), sends `text`
 * and never closes its side, whatever the server does: what an attacker holding sockets does.
 */
function holder(port: number, text = '', from = '127.0.0.1') {
  let got = '';
  const socket = connect(
    { port, host: '127.0.0.1', localAddress: from, allowHalfOpen: true },
    () => text && socket.write(text),
  );
  sockets.push(socket);
  socket.on('data', (d) => (got += String(d)));
  socket.on('error', () => {});
  return { socket, got: () => got };
}

/** Sends `text` from `from` and reads until the server closes (3 s at most). */
function raw(port: number, text: string, from = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => socket.write(text));
    const done = () => (clearTimeout(timer), socket.destroy(), resolve(got));
    const timer = setTimeout(done, 3_000);
    socket.on('data', (d) => (got += String(d)));
    socket.on('close', done);
    socket.on('error', done);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const header = (answer: string, name: string) =>
  new RegExp(`^${name}: ([^\\r\\n]*)`, 'im').exec(answer.slice(0, answer.indexOf('\r\n\r\n')))?.[1];
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
const get = (path: string, host: string) => `GET ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`;
const post = (path: string, body: string, more = '') =>
  `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
  `content-length: ${Buffer.byteLength(body)}\r\n${more}connection: close\r\n\r\n${body}`;
const keysMade = async (port: number, from = '127.0.0.1') =>
  (bodyOf(await raw(port, get('/__control/state', '127.0.0.1'), from)).keys as unknown[]).length;

test(
  'a connection that sends nothing, or too little, is answered 408 after headersMs and ' +
    'closed, though its client never closes its side (regression: held half-open for good)',
  async () => {
    const { server, port } = await serve({ limits: { headersMs: 300, requestMs: 600 } });
    const held = [holder(port), holder(port), holder(port, '\r\n'), holder(port, 'GET /api/v1/firms HTTP/1.1\r\n')];
    expect(await until(async () => (await connections(server)) === held.length, 2_000), 'all accepted').toBe(true);
    expect(await until(async () => (await connections(server)) === 0, 4_000), 'the server let every one go').toBe(true);
    for (const h of held) {
      expect(statusOf(h.got())).toBe(408);
      expect(bodyOf(h.got()).code).toBe('request_timeout');
    }
  },
);

test('a keep-alive connection idle after its answer is closed after keepAliveMs, as before', async () => {
  const { server, port } = await serve({ limits: { keepAliveMs: 200 } });
  const h = holder(port, 'GET /api/v1/openapi.json HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
  expect(await until(() => statusOf(h.got()) === 200, 3_000)).toBe(true);
  expect(await until(async () => (await connections(server)) === 0, 3_000)).toBe(true);
});

test(
  'one address cannot take the connection table: past its share a connection is ' +
    'answered 503 with Retry-After and closed unserved, and another address is served',
  async () => {
    const { server, port } = await serve({
      limits: { maxConnectionsPerAddress: 3, maxConnections: 5, headersMs: 1_500, requestMs: 3_000 },
    });
    for (let i = 0; i < 3; i++) holder(port);
    expect(await until(async () => (await connections(server)) === 3, 2_000)).toBe(true);
    // A fourth from the same address, with a call that would make a key: refused, and the call not served.
    const refused = await raw(port, post('/__control/keys', '{"plan":"team"}'));
    expect(statusOf(refused)).toBe(503);
    expect(header(refused, 'content-type')).toBe('application/problem+json');
    expect(header(refused, 'retry-after')).toBe('1');
    expect(header(refused, 'connection')).toBe('close');
    expect(bodyOf(refused).code).toBe('too_many_connections');
    // Another address is served at once, and sees that no key was made.
    expect(await keysMade(port, '127.0.0.2')).toBe(0);
    // Past maxConnections in all, any address is refused the same way.
    for (let i = 0; i < 2; i++) holder(port, '', '127.0.0.3');
    expect(await until(async () => (await connections(server)) === 5, 2_000)).toBe(true);
    expect(statusOf(await raw(port, get('/api/v1/openapi.json', '127.0.0.1'), '127.0.0.4'))).toBe(503);
    // The idle ones go after headersMs; the first address is served again. Node stops counting a
    // connection as it is destroyed, the table when its 'close' comes, a turn of the event loop later
    // (on a busy machine a call sent at once could come between): served once that has come.
    expect(await until(async () => (await connections(server)) === 0, 4_000)).toBe(true);
    const served = () => raw(port, get('/api/v1/openapi.json', '127.0.0.1')).then(statusOf);
    expect(await until(async () => (await served()) === 200, 2_000)).toBe(true);
  },
);

test(
  '--max-connections-per-address sets the share (behind a ' +
    'balancer, every client has its address); a bad one is refused',
  async () => {
    const { url, child } = await start('--max-connections-per-address', '2');
    const port = Number(new URL(url).port);
    holder(port);
    holder(port);
    await new Promise((r) => setTimeout(r, 200));
    expect(statusOf(await raw(port, get('/api/v1/openapi.json', '127.0.0.1')))).toBe(503);
    expect(statusOf(await raw(port, get('/api/v1/openapi.json', '127.0.0.1'), '127.0.0.2'))).toBe(200);
    await stop(child, 'SIGKILL');
    const bad = spawnSync(process.execPath, [cli, '--max-connections-per-address', '0'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--max-connections-per-address must be a whole number from 1 to 2,048, got 0');
  },
);

test(
  'a client is counted by its IPv4 address, mapped or not, and ' +
    'an IPv6 one by its /64 (which one client usually holds whole)',
  () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8:1:2:3:4:5:6')).toBe(clientOf('2001:0db8:0001:0002::9'));
    expect(clientOf('2001:db8:1:2::1%eth0')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:3::1')).not.toBe(clientOf('2001:db8:1:2::1'));
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('fe80::1')).toBe('fe80:0:0:0::/64');
  },
);

test(
  "the default share of one address is above what the kit's own " +
    "load opens from 127.0.0.1 (k6 at Enterprise's rate: ~200 VUs)",
  async () => {
    const { defaultLimits } = await import('./server.ts');
    expect(defaultLimits.maxConnectionsPerAddress).toBeGreaterThanOrEqual(2 * 200 + 100);
    expect(defaultLimits.maxConnectionsPerAddress).toBeLessThanOrEqual(defaultLimits.maxConnections / 4);
  },
);

const badHosts = [
  '127.0.0.256',
  '256.0.0.1',
  '1.2.3.4.5',
  '09.1.1.1',
  '0x100000000',
  '0x7f.1.2.0x100',
  '[::1',
  '[1::2::3]',
  '[::g]',
  '[v1.x]',
  'localhost:65536',
  '127.0.0.1:99999',
  'a@b',
  'a/b',
  'a%41',
];

for (const fastPath of [true, false]) {
  test(
    `a Host that is no valid authority is a 400 invalid_request on data, control and unknown ` +
      `paths, with no stack logged (${fastPath ? 'fast' : 'WHATWG'} path; regression: a 500)`,
    async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { port } = await serve({ fastPath });
      for (const host of [...badHosts, '']) {
        for (const path of ['/api/v1/firms', '/__control/state', '/nope']) {
          const answer = await raw(port, get(path, host));
          expect(statusOf(answer), `${host} ${path}`).toBe(400);
          expect(header(answer, 'content-type')).toBe('application/problem+json');
          expect(bodyOf(answer).code).toBe('invalid_request');
        }
      }
      // Refused as the adapter refuses a bad target: the connection closes, what came after it unread.
      const pipelined = await raw(
        port,
        `GET /api/v1/firms HTTP/1.1\r\nhost: 127.0.0.256\r\n\r\n${get('/api/v1/firms', '127.0.0.1')}`,
      );
      expect(pipelined.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
      expect(header(pipelined, 'connection')).toBe('close');
      expect(bodyOf(pipelined).detail).toMatch(/Host/);
      expect(errors).not.toHaveBeenCalled();
      // A valid Host is still served: names, addresses, a port, an IPv6 literal, upper case.
      for (const host of [
        '127.0.0.1',
        `127.0.0.1:${port}`,
        'localhost',
        `LOCALHOST:${port}`,
        '[::1]',
        `[::1]:${port}`,
        'api.example.test',
      ]) {
        expect(statusOf(await raw(port, get('/api/v1/firms', host))), host).toBe(401);
      }
      expect(statusOf(await raw(port, get('/__control/state', `localhost:${port}`)))).toBe(200);
    },
  );
}

test(
  'a Host that is no valid authority is a 400 on the mock ' + 'as started, /docs too (which parses the URL of its own)',
  async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const mock = await startMock({ port: 0 });
    closers.push(() => mock.close());
    const port = Number(new URL(mock.url).port);
    for (const path of ['/docs', '/api/v1/firms', '/__control/state']) {
      for (const host of ['127.0.0.256', '09.1.1.1', 'localhost:65536'])
        expect(statusOf(await raw(port, get(path, host))), `${host} ${path}`).toBe(400);
      expect(statusOf(await raw(port, get(path, `127.0.0.1:${port}`))), path).not.toBe(400);
    }
    expect(errors).not.toHaveBeenCalled();
  },
);

test(
  'a URL the engine cannot parse (the bare-limit-answers fault lets a bad ' +
    "Host through, as a front that checks none) is the engine's 400, not a 500",
  async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const faulty = await startMock({ port: 0, faults: ['bare-limit-answers'] });
    closers.push(() => faulty.close());
    // The fault through startMock (faults wrap fetch: the WHATWG path), and the adapter's bare mode on the fast path.
    for (const port of [Number(new URL(faulty.url).port), (await serve({ bareLimitAnswers: true })).port]) {
      for (const path of ['/api/v1/firms', '/__control/state']) {
        const answer = await raw(port, get(path, '127.0.0.256'));
        expect(statusOf(answer), path).toBe(400);
        expect(bodyOf(answer).code).toBe('invalid_request');
      }
    }
    expect(errors).not.toHaveBeenCalled();
  },
);

for (const [name, path, body] of [
  ['the trial call', '/api/v1/keys/trial', '{"email":"gone-midway@example.com"}'],
  ['a control call', '/__control/keys', '{"plan":"team","prepaid_rows":0}'],
] as const) {
  test(
    `a client that goes away mid-body on ${name} is no internal ` +
      `error: one log line, no stack, nothing made (regression)`,
    async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const lines: string[] = [];
      const { port } = await serve({ log: (line) => lines.push(line) });
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      socket.on('error', () => {});
      const head =
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `content-length: ${body.length}\r\n\r\n`;
      socket.write(head + body.slice(0, body.length / 2));
      await new Promise((r) => setTimeout(r, 100));
      socket.destroy();
      expect(await until(() => lines.length === 1, 3_000), 'the request is logged once').toBe(true);
      expect(lines[0]).toMatch(new RegExp(`^POST ${path.replace(/\//g, '\\/')} aborted \\d+\\.\\dms$`));
      expect(errors).not.toHaveBeenCalled();
      expect(await keysMade(port)).toBe(0);
    },
  );
}

test(
  'a body in a content coding (gzip, br, deflate, any but identity) is refused 415 with ' +
    'Accept-Encoding: identity, on the trial call and a control call; identity is read',
  async () => {
    const { port } = await serve();
    const trial = JSON.stringify({ email: 'coded@example.com' });
    for (const [coding, bytes] of [
      ['gzip', gzipSync(trial)],
      ['br', brotliCompressSync(trial)],
      ['deflate', gzipSync(trial)],
      ['gzip, identity', gzipSync(trial)],
    ] as const) {
      const answer = await new Promise<string>((resolve) => {
        let got = '';
        const socket = connect(port, '127.0.0.1', () =>
          socket.end(
            Buffer.concat([
              Buffer.from(
                `POST /api/v1/keys/trial HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
                  `content-encoding: ${coding}\r\ncontent-length: ${bytes.length}\r\n\r\n`,
              ),
              bytes,
            ]),
          ),
        );
        socket.on('data', (d) => (got += String(d)));
        socket.on('close', () => resolve(got));
      });
      expect(statusOf(answer), coding).toBe(415);
      expect(header(answer, 'accept-encoding')).toBe('identity');
      expect(bodyOf(answer).code).toBe('unsupported_media_type');
      expect(bodyOf(answer).detail).toMatch(/identity/);
      const headers = Object.fromEntries(
        answer
          .slice(0, answer.indexOf('\r\n\r\n'))
          .split('\r\n')
          .slice(1)
          .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      expect(
        validator.validateResponse('createTrialKey', { status: 415, headers, body: bodyOf(answer) }),
        "the contract's 415",
      ).toEqual([]);
    }
    // Asked first (Expect: 100-continue), it is refused before the body is sent.
    const asked = await raw(
      port,
      'POST /api/v1/keys/trial HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
        'content-encoding: gzip\r\ncontent-length: 40\r\nexpect: 100-continue\r\n\r\n',
    );
    expect(statusOf(asked)).toBe(415);
    expect(asked).not.toContain('100 Continue');
    const control = await raw(port, post('/__control/keys', '{"plan":"team"}', 'content-encoding: gzip\r\n'));
    expect(statusOf(control)).toBe(415);
    expect(header(control, 'accept-encoding')).toBe('identity');
    expect(await keysMade(port)).toBe(0);
    // identity is no coding at all: read as sent.
    expect(
      statusOf(await raw(port, post('/__control/keys', '{"plan":"team"}', 'content-encoding: identity\r\n'))),
    ).toBe(201);
    expect(statusOf(await raw(port, post('/api/v1/keys/trial', trial, 'content-encoding: identity\r\n')))).toBe(201);
    expect(await keysMade(port)).toBe(2);
    // The validation proxy hands such a body on as sent: the service it forwards to decides.
    const proxyLike = createNodeServer(
      {
        fetch: async (r) => new Response(`${r.headers.get('content-encoding')} ${(await r.arrayBuffer()).byteLength}`),
      },
      { passCodedBodies: true },
    );
    servers.push(proxyLike);
    const gz = gzipSync(trial);
    const passed = await fetch(`${await listen(proxyLike, 0, '127.0.0.1')}/api/v1/keys/trial`, {
      method: 'POST',
      headers: { 'content-encoding': 'gzip' },
      body: gz,
    });
    expect(await passed.text()).toBe(`gzip ${gz.length}`);
  },
);
