/**
 * The Node adapter: @hono/node-server's request listener (made to serve a `fetch(Request)` handler
 * on node:http, with a Request that reads Node's headers lazily and a Response it writes without a
 * web stream) wired to the engine. It adds only what the engine cannot know and a server left
 * running needs: the client's address (loopback or not), the bounds (body size, refused by
 * Content-Length before a byte is read; time to send headers and the whole request, 408; how many
 * connections it holds), compression as Accept-Encoding asks, the methods a WHATWG Request cannot
 * carry (TRACE), and a problem+json wherever the listener would answer a bare status.
 * The mock's README ("How a request flows") says why this library.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import type { Engine } from '../engine/engine.ts';
import { ProblemError } from '../engine/problems.ts';
import { refusedRoute } from '../engine/router.ts';
import { bearerOf, escapeControl, redactPath } from '../redact.ts';
import { answerEdges } from './http-edges.ts';

export interface NodeServerOptions {
  /** Called once per request after the response is sent: method, path, status, ms. */
  log?: (line: string) => void;
  /** Keys of forms no pattern knows (preset ones): blanked in the log wherever a request sent them. */
  secrets?: readonly string[];
  /** Host names besides the loopback ones that name this server, for the control plane. */
  allowedHosts?: readonly string[];
  /** Bounds (ms, count) for a server left running; the defaults suit a developer's machine. */
  limits?: Partial<typeof defaultLimits>;
  /**
   * Let @hono/node-server make the process's global Request and Response its own light classes,
   * which it writes without a web stream (the fast path BENCHMARKS.md measures). Native Responses
   * then fail `instanceof Response` in this process (MSW's own checks among them), so only a
   * process that is the mock's alone turns it on: the CLI does; a server started in a user's test
   * process does not, and answers the same, slower.
   */
  globalFetchClasses?: boolean;
  /** The bare-limit-answers fault: 408, 413 and 431 as a bare text line; Expect, CONNECT, Host and dot segments left to Node. */
  bareLimitAnswers?: boolean;
}

const MAX_BODY = 64 * 1024;
/** Bodies below this go as they are: compressing them saves too little to pay for itself. */
const COMPRESS_FROM = 1024;
/** Methods a WHATWG Request refuses to carry: the adapter answers them itself, as the engine would. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** A `.` or `..` path segment, plain or percent-encoded (any case), ended by a slash, the end or a fragment. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$|#)/i;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A slow or idle client is closed with 408 after headersMs (headers) or requestMs (the whole
 * request); past maxConnections new connections are refused at once, so half-open sockets cannot
 * starve everyone else for long.
 */
/**
 * writeWindowMs and minWriteBytes: a client that, with an answer waiting for it, takes fewer than
 * minWriteBytes off it in writeWindowMs (4 KiB/s averaged over 10 s) is cut: a slow reader would
 * otherwise hold a connection (and the answer's memory) for as long as it likes.
 */
export const defaultLimits = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, maxConnections: 2_048, writeWindowMs: 10_000, minWriteBytes: 40 * 1024 };

export function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

/** The 413 for a body over the bound; the connection is closed with the rest unread. */
function tooLarge(bare = false): Response {
  if (bare) return new Response('Payload Too Large\n', { status: 413, headers: { 'content-type': 'text/plain', connection: 'close' } });
  return new ProblemError('payload_too_large', `Request bodies may be at most ${MAX_BODY} bytes.`).toResponse('/', 'req_adapter', { connection: 'close' });
}

/** The body as sent, or null past the bound (the rest drained unread): never handed on cut short. */
async function readBody(req: IncomingMessage): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
  }
  return size > MAX_BODY ? null : new Uint8Array(Buffer.concat(chunks));
}

/**
 * The encoding Accept-Encoding takes for a JSON body: br or gzip (its q-values heeded, br first on
 * a tie); null when it takes neither. Whether the body is worth compressing is the size's to say.
 */
function acceptedEncoding(accept: string): 'br' | 'gzip' | null {
  const weights = new Map<string, number>();
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name!.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? (weights.has('*') ? weights.get('*')! : 0);
  const best = (['br', 'gzip'] as const).filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a))[0];
  return best ?? null;
}

/** A body compressed as chosen: brotli at quality 4 (near gzip's speed, smaller), gzip at its default. */
async function compress(body: Uint8Array, encoding: 'br' | 'gzip'): Promise<Uint8Array> {
  return encoding === 'br'
    ? brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipped(body);
}

/**
 * The answer as the client's Accept-Encoding takes it: JSON of COMPRESS_FROM bytes or more in br
 * or gzip; for HEAD the GET's encoding without a length, which only compressing a body not sent
 * would tell (RFC 9110 9.3.2). The engine says `Vary: Accept-Encoding` (told by the context that
 * this server compresses). Without Accept-Encoding the answer goes on untouched, as the engine
 * built it: the listener then writes it without a copy.
 */
async function encoded(req: IncomingMessage, response: Response): Promise<Response> {
  const accept = req.headers['accept-encoding'];
  if (!accept || response.status === 304 || response.status === 204) return response;
  const headers = response.headers;
  if (headers.has('content-encoding') || !/json/.test(headers.get('content-type') ?? '')) return response;
  // A client that takes neither encoding gets the answer untouched, its body never read here.
  const encoding = acceptedEncoding(accept);
  if (encoding === null) return response;
  const bytes = req.method === 'HEAD' ? null : new Uint8Array(await response.arrayBuffer());
  // Small bodies go as they are (COMPRESS_FROM).
  if ((bytes?.length ?? Number(headers.get('content-length') ?? 0)) < COMPRESS_FROM) return bytes === null ? response : new Response(bytes as BodyInit, { status: response.status, headers });
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  if (!/accept-encoding/i.test(headers.get('vary') ?? '')) headers.append('vary', 'Accept-Encoding');
  return new Response(bytes && ((await compress(bytes, encoding)) as BodyInit), { status: response.status, headers });
}

/** Where the listener hands a request to the engine, with what only the socket knows. */
function handler(engine: Pick<Engine, 'fetch'>, options: NodeServerOptions) {
  const allowedHosts = options.allowedHosts ? { allowedHosts: options.allowedHosts } : {};
  return async (request: Request, { incoming }: { incoming: IncomingMessage }): Promise<Response> => {
    const target = incoming.url ?? '/';
    const method = request.method;
    // Only origin-form targets: an absolute or scheme-relative one must not pick the host.
    // These refusals close the connection (DECISIONS.md, Status codes): what came after is unread.
    const refuse = (detail: string) => new ProblemError('invalid_request', detail).toResponse('/', 'req_adapter', { connection: 'close' });
    if (!target.startsWith('/') || target.startsWith('//')) return refuse('The request target must be a path.');
    // The bare-limit-answers fault lets these two through, as a front that checks neither would.
    if (!options.bareLimitAnswers) {
      // URL parsing resolves dot segments, %2e%2e too: /api/v1/%2e%2e/%2e%2e/__control would reach
      // the control plane past a filter in front that looks at the raw path. No route has one.
      if (DOT_SEGMENT.test(target.split('?')[0]!)) return refuse('The request target holds a dot segment (. or .., however encoded), which no path of this API has.');
      // HTTP/1.1 requires exactly one Host, not empty (RFC 9112 3.2); Node's own check would answer a bare 400.
      const hosts = incoming.rawHeaders.filter((_v, i) => i % 2 === 0 && incoming.rawHeaders[i]!.toLowerCase() === 'host').length;
      if (incoming.httpVersion === '1.1' && (hosts !== 1 || !incoming.headers.host)) return refuse('An HTTP/1.1 request must have one Host header, not empty.');
    }
    if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
      // 405 with Allow (404 off the API), as the router answers any other method a path does not take.
      const path = target.split('?')[0]!;
      return refusedRoute(method, path).toResponse(redactPath(path, options.secrets), 'req_adapter');
    }
    if (method !== 'GET' && method !== 'HEAD') {
      // Bodies are read here, bounded, and handed on whole; Content-Length over the bound is refused unread.
      if (Number(incoming.headers['content-length'] ?? 0) > MAX_BODY) return tooLarge(options.bareLimitAnswers);
      const body = await readBody(incoming);
      if (body === null) return tooLarge(options.bareLimitAnswers);
      request = new Request(request.url, { method, headers: request.headers, body: body.length ? (body as BodyInit) : null });
    }
    const address = incoming.socket.remoteAddress;
    return encoded(incoming, await engine.fetch(request, { clientAddress: address ?? 'unknown', loopback: isLoopback(address), compresses: true, ...allowedHosts }));
  };
}

/** Never a crash: whatever went wrong is the kit's failure, a 500 on this one request, logged. */
function internalError(error: unknown): Response {
  console.error('[investor-graph mock] internal error in the Node adapter:', error);
  return new ProblemError('internal_error', '[investor-graph mock] internal error: the Node adapter failed on this request; the mock\'s log has the details.').toResponse('/', 'req_adapter');
}

export function createNodeServer(engine: Pick<Engine, 'fetch'>, options: NodeServerOptions = {}): Server {
  const limits = { ...defaultLimits, ...options.limits };
  const serve = handler(engine, options);
  // A request the listener cannot make into a Request (a Host that is no host name) is the
  // client's: 400. Anything thrown past the engine, which answers its own failures, is ours: 500.
  const errorHandler = (error: unknown): Response => (error instanceof Error && error.name === 'RequestError'
    ? new ProblemError('invalid_request', 'The request\'s target or Host header is not a URL.').toResponse('/', 'req_adapter')
    : internalError(error));
  const listener = getRequestListener(async (request, env) => {
    try {
      return await serve(request, env as { incoming: IncomingMessage });
    } catch (error) {
      return internalError(error);
    }
  }, {
    errorHandler,
    // An HTTP/1.0 request may come without Host: its URL names localhost, as before (the control
    // plane judges the Host header itself, never this URL).
    hostname: 'localhost',
    overrideGlobalObjects: options.globalFetchClasses === true,
  });
  const logged = options.log
    ? (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      // Redacted before it is cut (a key cut in two is no longer recognisable), and escaped.
      const own = bearerOf(req.headers.authorization);
      res.once('close', () => options.log!(escapeControl(`${req.method} ${redactPath(req.url ?? '', own ? [...(options.secrets ?? []), own] : options.secrets).slice(0, 200)} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`)));
      return listener(req, res);
    }
    : listener;
  const server = createServer({
    maxHeaderSize: 16 * 1024,
    // Checked by the handler, which answers problem+json (Node's own check writes a bare 400).
    requireHostHeader: false,
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    keepAliveTimeout: limits.keepAliveMs,
    // How often Node looks for requests past their time: well inside the shortest bound.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersMs / 4))),
  }, logged);
  server.maxConnections = limits.maxConnections;
  // Expect: 100-continue asks before sending the body: a body over the bound is refused unsent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length'] ?? 0) <= MAX_BODY) res.writeContinue();
    void logged(req, res);
  });
  answerEdges(server, limits, options.bareLimitAnswers === true);
  return server;
}

/** Starts listening and resolves with the base URL. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}`;
}
