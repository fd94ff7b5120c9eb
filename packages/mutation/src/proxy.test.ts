// @module-tag servers
import { createServer, connect, type Socket } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, expect, test } from 'vitest';
import { startMutatingProxy, type Mutate } from './proxy.ts';
import { mutatorFor } from './operators.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A raw TCP service that records every byte it is sent and answers each request with `answer(n)`. */
async function rawService(answer: (n: number) => Buffer) {
  const received: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let n = 0;
    socket.on('data', (chunk) => {
      received.push(chunk);
      // One answer a request head (the tests send heads without bodies).
      const heads = chunk.toString('latin1').split('\r\n\r\n').length - 1;
      for (let i = 0; i < heads; i++) socket.write(answer(n++));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(resolve);
      }),
  );
  return { port: (server.address() as { port: number }).port, received };
}

/** Sends `bytes` to `port` and collects what comes back until `done` says it is whole. */
function exchange(port: number, bytes: string, done: (got: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let got = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      got = Buffer.concat([got, chunk]);
      if (done(got)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve(got);
    }, 3000);
  });
}

async function setup(answer: (n: number) => Buffer, mutate?: Mutate) {
  const service = await rawService(answer);
  const proxy = await startMutatingProxy({ mutate, upstreamPort: service.port });
  closers.push(() => proxy.close());
  return { service, proxy, port: Number(new URL(proxy.url).port) };
}

const page = JSON.stringify({
  data: [
    { slug: 'a', updated_at: '2026-01-02T03:00:00Z' },
    { slug: 'b', updated_at: '2026-01-03T03:00:00Z' },
  ],
  next_cursor: 'c1',
  as_of: '2026-11-20T03:00:00Z',
});
const chunked = (body: string) =>
  Buffer.from(
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-request-id: req_1\r\ntransfer-encoding: chunked\r\n\r\n' +
      `${(5).toString(16)}\r\n${body.slice(0, 5)}\r\n` +
      `${(body.length - 5).toString(16)}\r\n${body.slice(5)}\r\n0\r\n\r\n`,
  );
const gzipped = (body: string) => {
  const zipped = gzipSync(body);
  return Buffer.concat([
    Buffer.from(
      `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ` +
        `${zipped.length}\r\n\r\n`,
    ),
    zipped,
  ]);
};
const whole = (got: Buffer) =>
  got.includes('\r\n0\r\n\r\n') ||
  (/content-length: (\d+)/i.test(got.toString('latin1')) &&
    got.length >= got.indexOf('\r\n\r\n') + 4 + Number(/content-length: (\d+)/i.exec(got.toString('latin1'))![1]));

test(`the proxy passes a request and the answer the mutant leaves alone byte for byte, chunked or not, odd or \
not`, async () => {
  // A mutant of another operation is active: nothing of /api/v1/firms may change.
  const { service, port } = await setup(
    () => chunked(page),
    mutatorFor({
      id: 'x',
      family: 'field-shape',
      operator: 'drop',
      operation: 'getAccount',
      plan: 'enterprise',
      target: ['data'],
    }),
  );
  const request = 'GET /api/v1/firms?limit=2 HTTP/1.1\r\nhost: 127.0.0.1\r\nx-odd:  spaced \r\n\r\n';
  const got = await exchange(port, request, whole);
  expect(got.equals(chunked(page))).toBe(true);
  expect(Buffer.concat(service.received).toString('latin1')).toBe(request);
});

test('a request with no Host and a head never ended reach the service as sent', async () => {
  const { service, port } = await setup(() => Buffer.from('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n'));
  await exchange(port, 'GET /api/v1/firms HTTP/1.1\r\nconnection: close\r\n\r\n', (g) => g.length > 0);
  await exchange(port, 'GET /api/v1/firms HTTP/1.1\r\nhost: x\r\nx-slow: 1', () => false).catch(() => null);
  expect(Buffer.concat(service.received).toString('latin1')).toContain(
    'GET /api/v1/firms HTTP/1.1\r\nconnection: close\r\n\r\n',
  );
  expect(Buffer.concat(service.received).toString('latin1')).toContain('x-slow: 1');
});

test(`a field mutant changes the answer it names: the field is gone, Content-Length is new and gzip is \
redone`, async () => {
  const { proxy, port } = await setup(
    () => gzipped(page),
    mutatorFor({
      id: 'x',
      family: 'field-shape',
      operator: 'drop',
      operation: 'listFirms',
      plan: 'enterprise',
      target: ['data', '[]', 'updated_at'],
      answers: 'ok',
    }),
  );
  const got = await exchange(port, 'GET /api/v1/firms?limit=2 HTTP/1.1\r\nhost: x\r\n\r\n', whole);
  const at = got.indexOf('\r\n\r\n') + 4;
  const head = got.subarray(0, at).toString('latin1');
  expect(head).toMatch(/content-encoding: gzip/);
  expect(Number(/content-length: (\d+)/i.exec(head)![1])).toBe(got.length - at);
  const body = JSON.parse(gunzipSync(got.subarray(at)).toString());
  expect(body.data).toEqual([{ slug: 'a' }, { slug: 'b' }]);
  expect(proxy.counts).toMatchObject({ changed: 1, changedByOperation: { listFirms: 1 } });
});

test('a HEAD after a rewritten GET says the rewritten length', async () => {
  const head = Buffer.from(
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${page.length}\r\n\r\n`,
  );
  const { port } = await setup(
    (n) => (n === 0 ? chunked(page) : head),
    mutatorFor({
      id: 'x',
      family: 'rows',
      operator: 'drop-first',
      operation: 'listFirms',
      plan: 'enterprise',
      target: ['data'],
    }),
  );
  const got = await exchange(
    port,
    'GET /api/v1/firms HTTP/1.1\r\nhost: x\r\n\r\nHEAD /api/v1/firms HTTP/1.1\r\nhost: x\r\n\r\n',
    (g) => g.toString('latin1').split('HTTP/1.1 200').length === 3 && g.toString('latin1').endsWith('\r\n\r\n'),
  );
  const [first, second] = got.toString('latin1').split(/(?=HTTP\/1\.1 200)/);
  const firstLength = Number(/Content-Length: (\d+)/.exec(first!)![1]);
  expect(firstLength).toBeLessThan(page.length);
  expect(second).toContain(`Content-Length: ${firstLength}`);
});

test('status and header mutants change what they say and nothing of the body', async () => {
  const status = mutatorFor({
    id: 'x',
    family: 'status',
    operator: 'within-class',
    operation: 'listFirms',
    plan: 'enterprise',
    target: 200,
    value: 203,
  });
  const header = mutatorFor({
    id: 'y',
    family: 'header',
    operator: 'drop',
    operation: 'listFirms',
    plan: 'enterprise',
    target: 'x-request-id',
  });
  const { port } = await setup(
    () => chunked(page),
    (answer, exchange) => {
      const moved = status(answer, exchange);
      return moved && header(moved, exchange);
    },
  );
  const got = (await exchange(port, 'GET /api/v1/firms HTTP/1.1\r\nhost: x\r\n\r\n', whole)).toString('latin1');
  expect(got).toMatch(/^HTTP\/1\.1 203 Non-Authoritative Information\r\n/);
  expect(got).not.toMatch(/x-request-id/i);
  expect(got.endsWith(page)).toBe(true);
});
