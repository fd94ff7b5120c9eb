/**
 * What Node's HTTP server answers before (or instead of) the request listener, made the kit's:
 * problem+json for an Expect it cannot meet, for CONNECT and for what the parser refuses, a 503 for
 * a connection past the table's bounds, and a cut for a reader too slow to take its answer
 * (DECISIONS.md, Status codes and Bounds).
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ProblemError } from '@investor-graph/engine/adapter';

export interface EdgeLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  writeWindowMs: number;
  minWriteBytes: number;
}

/**
 * How long a connection ended with an early answer is kept to
 * read its client's last bytes (unread, they would reset it).
 */
const LINGER_MS = 1_000;
/**
 * Past maxConnections, this many more connections are accepted
 * to be answered 503; beyond them Node drops them unanswered.
 */
const REFUSING = 64;

export function answerEdges(server: Server, limits: EdgeLimits, bare: boolean): void {
  capConnections(server, limits, bare);
  server.on('connection', (socket: Socket) => cutSlowReader(socket, limits.writeWindowMs, limits.minWriteBytes));
  // The bare-limit-answers fault leaves these two to Node (a bare 417, a closed connection).
  if (!bare) answerExpectAndConnect(server);
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const problem =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new ProblemError('headers_too_large', 'The request headers are over 16 KB.')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ProblemError('request_timeout', 'The request did not arrive in time.')
          : new ProblemError('invalid_request', 'The request could not be parsed as HTTP/1.1.');
    closeWith(socket, problem, bare);
  });
}

/**
 * Writes `problem` as the connection's last answer and lets the connection go: its client's last
 * bytes are read and dropped for LINGER_MS at most, then it is destroyed. A client that never
 * closes its side (an idle one answered 408, say) would otherwise hold the socket, and a place in
 * maxConnections, for as long as it liked.
 */
function closeWith(socket: Duplex, problem: ProblemError, bare: boolean): void {
  const answer = problem.toAnswer('/', 'req_adapter');
  const body = bare ? `${problem.title}\n` : (answer.body as string);
  const headers = {
    ...(bare ? { 'content-type': 'text/plain' } : answer.headers),
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n${body}`,
  );
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Past maxConnections in all, or maxConnectionsPerAddress from one client (an IPv6 one by its
 * /64, which one client usually holds whole), a new connection is answered 503
 * too_many_connections with Retry-After and closed, before Node's HTTP server sees it: what it
 * sends is never parsed, let alone served. One address cannot take the whole table.
 */
function capConnections(server: Server, limits: EdgeLimits, bare: boolean): void {
  const node = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const open = new Map<string, number>();
  let total = 0;
  server.on('connection', (socket: Socket) => {
    const client = clientOf(socket.remoteAddress);
    const mine = open.get(client) ?? 0;
    if (total >= limits.maxConnections || mine >= limits.maxConnectionsPerAddress) {
      // The bare-limit-answers fault drops it unanswered, as Node's own maxConnections does.
      if (bare) return socket.destroy();
      const whose =
        mine >= limits.maxConnectionsPerAddress
          ? `${limits.maxConnectionsPerAddress} from one address`
          : `${limits.maxConnections} in all`;
      return closeWith(
        socket,
        new ProblemError(
          'too_many_connections',
          `This server holds at most ${whose}; close an idle one, or retry later.`,
          { headers: { 'retry-after': '1' } },
        ),
        false,
      );
    }
    total++;
    open.set(client, mine + 1);
    socket.once('close', () => {
      total--;
      const left = open.get(client)! - 1;
      if (left) open.set(client, left);
      else open.delete(client);
    });
    for (const listener of node) listener.call(server, socket);
  });
  server.maxConnections = limits.maxConnections + REFUSING;
}

/** The client a connection is counted against: its IPv4 address (mapped or not), or its IPv6 address's /64. */
export function clientOf(address = 'unknown'): string {
  if (!address.includes(':')) return address;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return address.slice(7);
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function answerExpectAndConnect(server: Server): void {
  // Expect other than 100-continue: 417 (RFC 9110 10.1.1), as problem+json, not Node's bare one.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const answer = new ProblemError(
      'expectation_failed',
      'The only expectation this server meets is 100-continue.',
    ).toAnswer('/', 'req_adapter');
    res
      .writeHead(answer.status, {
        ...answer.headers,
        'content-length': Buffer.byteLength(answer.body as string),
        connection: 'close',
      })
      .end(answer.body);
  });
  // CONNECT never reaches the request listener in Node: without this, the socket is just closed.
  // 405 as for any other method the API does not take (DECISIONS.md, HTTP conventions).
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    closeWith(
      socket,
      new ProblemError('method_not_allowed', 'CONNECT is not allowed: this server is not a proxy.', {
        headers: { allow: 'GET, HEAD, OPTIONS' },
      }),
      false,
    );
  });
}

/**
 * Watches what a socket's reader takes: each window in which an answer waited for it the whole time
 * and it took fewer than `minBytes` ends the connection. What waits is libuv's write queue (a large
 * answer is one write, which Node's own counters show whole until it is done); what was taken is
 * how far the queue fell, plus what was queued meanwhile.
 */
function cutSlowReader(socket: Socket, windowMs: number, minBytes: number): void {
  const queued = (): number =>
    (socket as unknown as { _handle?: { writeQueueSize?: number } })._handle?.writeQueueSize ?? 0;
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
