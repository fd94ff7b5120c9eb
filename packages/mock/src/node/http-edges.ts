/**
 * What Node's HTTP server answers before (or instead of) the request listener, made the kit's:
 * problem+json for an Expect it cannot meet, for CONNECT and for what the parser refuses, and a cut
 * for a reader too slow to take its answer (DECISIONS.md, Status codes).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ProblemError } from '../engine/problems.ts';

export function answerEdges(server: Server, limits: { writeWindowMs: number; minWriteBytes: number }, bare: boolean): void {
  server.on('connection', (socket: Socket) => cutSlowReader(socket, limits.writeWindowMs, limits.minWriteBytes));
  // The bare-limit-answers fault leaves these two to Node (a bare 417, a closed connection).
  if (!bare) answerExpectAndConnect(server);
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const problem = error.code === 'HPE_HEADER_OVERFLOW' ? new ProblemError('headers_too_large', 'The request headers are over 16 KB.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new ProblemError('request_timeout', 'The request did not arrive in time.')
      : new ProblemError('invalid_request', 'The request could not be parsed as HTTP/1.1.');
    const body = bare ? `${problem.title}\n` : JSON.stringify(problem.body('/', 'req_adapter'));
    socket.end(`HTTP/1.1 ${problem.status} ${problem.title}\r\ncontent-type: ${bare ? 'text/plain' : 'application/problem+json'}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}

function answerExpectAndConnect(server: Server): void {
  // Expect other than 100-continue: 417 (RFC 9110 10.1.1), as problem+json, not Node's bare one.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const answer = new ProblemError('expectation_failed', 'The only expectation this server meets is 100-continue.').toAnswer('/', 'req_adapter');
    res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body as string), connection: 'close' }).end(answer.body);
  });
  // CONNECT never reaches the request listener in Node: without this, the socket is just closed.
  // 405 as for any other method the API does not take (DECISIONS.md, HTTP conventions).
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const answer = new ProblemError('method_not_allowed', 'CONNECT is not allowed: this server is not a proxy.', { headers: { allow: 'GET, HEAD, OPTIONS' } }).toAnswer('/', 'req_adapter');
    const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body as string)), connection: 'close' };
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${answer.body}`);
  });
}

/**
 * Watches what a socket's reader takes: each window in which an answer waited for it the whole time
 * and it took fewer than `minBytes` ends the connection. What waits is libuv's write queue (a large
 * answer is one write, which Node's own counters show whole until it is done); what was taken is
 * how far the queue fell, plus what was queued meanwhile.
 */
function cutSlowReader(socket: Socket, windowMs: number, minBytes: number): void {
  const queued = (): number => (socket as unknown as { _handle?: { writeQueueSize?: number } })._handle?.writeQueueSize ?? 0;
  let written = socket.bytesWritten;
  let pending = queued();
  const timer = setInterval(() => {
    const nowWritten = socket.bytesWritten;
    const nowPending = queued();
    const taken = pending - nowPending + (nowWritten - written);
    if (pending > 0 && nowPending > 0 && taken < minBytes) socket.destroy();
    written = nowWritten;
    pending = nowPending;
  }, windowMs);
  timer.unref();
  socket.once('close', () => clearInterval(timer));
}
