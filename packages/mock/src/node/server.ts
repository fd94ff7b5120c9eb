/**
 * The Node adapter: node:http in, WHATWG Request to the engine, Response back out. It adds only
 * what the engine cannot know: the client's address (loopback or not), and the bounds a server
 * left running needs: body size (refused by Content-Length before a byte is read), time to send
 * headers and the whole request (408), and how many connections it holds; it compresses what it
 * sends as Accept-Encoding asks, and answers the methods WHATWG Requests cannot carry (TRACE).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Engine } from '../engine/engine.ts';
import { ProblemError } from '../engine/problems.ts';
import { refusedRoute } from '../engine/router.ts';
import { redactPath } from '../redact.ts';

export interface NodeServerOptions {
  /** Called once per request after the response is sent: method, path, status, ms. */
  log?: (line: string) => void;
  /** Host names besides the loopback ones that name this server, for the control plane. */
  allowedHosts?: readonly string[];
  /** Bounds (ms, count) for a server left running; the defaults suit a developer's machine. */
  limits?: Partial<typeof defaultLimits>;
}

const MAX_BODY = 64 * 1024;
/** Bodies below this go as they are: compressing them saves too little to pay for itself. */
const COMPRESS_FROM = 1024;
/** Methods a WHATWG Request refuses to carry: the adapter answers them itself, as the engine would. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A slow or idle client is closed with 408 after headersMs (headers) or requestMs (the whole
 * request); past maxConnections new connections are refused at once, so half-open sockets cannot
 * starve everyone else for long.
 */
export const defaultLimits = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, maxConnections: 2_048 };

/** The 413 for a body over the bound: answered, and the connection closed with the rest unread. */
async function refuseTooLarge(res: ServerResponse): Promise<number> {
  const response = new ProblemError('payload_too_large', `Request bodies may be at most ${MAX_BODY} bytes.`).toResponse('/', 'req_adapter', { connection: 'close' });
  send(res, response, new Uint8Array(await response.arrayBuffer()));
  return response.status;
}

export function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

async function readBody(req: IncomingMessage): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Past the bound the rest is drained unread: the engine answers 413 from Content-Length.
    if (size <= MAX_BODY) chunks.push(chunk);
  }
  if (size > MAX_BODY) return null;
  return size ? new Uint8Array(Buffer.concat(chunks)) : new Uint8Array(0);
}

/**
 * The encoding to send a JSON body in: br or gzip when Accept-Encoding takes it (its q-values
 * heeded, br first on a tie), for COMPRESS_FROM bytes or more; null for the body as it is.
 */
function chooseEncoding(accept: string | undefined, size: number): 'br' | 'gzip' | null {
  if (!accept || size < COMPRESS_FROM) return null;
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

function send(res: ServerResponse, response: Response, body: Uint8Array | null): void {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  // The whole body is in hand, so its length is known: a plain body instead of chunked framing.
  if (body && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

export function createNodeServer(engine: Pick<Engine, 'fetch'>, options: NodeServerOptions = {}): Server {
  const limits = { ...defaultLimits, ...options.limits };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let status = 500;
    try {
      let response: Response;
      const target = req.url ?? '/';
      if (!target.startsWith('/') || target.startsWith('//')) {
        // Only origin-form targets: an absolute or scheme-relative one must not pick the host.
        response = new ProblemError('invalid_request', 'The request target must be a path.').toResponse('/', 'req_adapter');
      } else if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
        // 405 with Allow (404 off the API), as the router answers any other method a path does not take.
        const path = target.split('?')[0]!;
        response = refusedRoute(method, path).toResponse(path, 'req_adapter');
      } else {
        const takesBody = method !== 'GET' && method !== 'HEAD';
        const body = !takesBody || Number(req.headers['content-length'] ?? 0) > MAX_BODY ? null : await readBody(req);
        if (takesBody && body === null) {
          // Said by Content-Length, or found while reading a chunked body: never handed on cut short.
          status = await refuseTooLarge(res);
          return;
        }
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
        const request = new Request(`http://${req.headers.host && /^[\w.:[\]-]+$/.test(req.headers.host) ? req.headers.host : 'localhost'}${target}`, {
          method,
          headers,
          body: body && body.length ? (body as BodyInit) : null,
        });
        response = await engine.fetch(request, { clientAddress: req.socket.remoteAddress ?? 'unknown', loopback: isLoopback(req.socket.remoteAddress), ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) });
      }
      status = response.status;
      const head = method === 'HEAD';
      let bytes: Uint8Array | null = head || response.body === null ? null : new Uint8Array(await response.arrayBuffer());
      // A HEAD answer has the headers its GET would have: its size is the engine's Content-Length.
      const size = bytes?.length ?? (head ? Number(response.headers.get('content-length') ?? 0) : 0);
      if (size > 0 && /json/.test(response.headers.get('content-type') ?? '')) {
        // Whether or not this one is compressed, the same URL may be: caches must key on the encoding.
        response.headers.append('vary', 'Accept-Encoding');
        const encoding = response.headers.has('content-encoding') ? null : chooseEncoding(req.headers['accept-encoding'], size);
        if (encoding) {
          if (bytes) bytes = await compress(bytes, encoding);
          response.headers.set('content-encoding', encoding);
          // For HEAD, the compressed length is not known without compressing a body not sent: left out (RFC 9110 §9.3.2).
          response.headers.delete('content-length');
        }
      }
      send(res, response, bytes);
    } catch (error) {
      // Never a crash: whatever went wrong is the kit's failure, a 500 on this one request, logged.
      console.error('[investor-graph mock] internal error in the Node adapter:', error);
      const problem = new ProblemError('internal_error', '[investor-graph mock] internal error: the Node adapter failed on this request; the mock\'s log has the details.').toResponse(req.url ?? '/', 'req_adapter');
      status = problem.status;
      if (!res.headersSent) send(res, problem, new Uint8Array(await problem.arrayBuffer()));
      else res.destroy();
    } finally {
      options.log?.(`${method} ${redactPath((req.url ?? '').slice(0, 200))} ${status} ${(performance.now() - started).toFixed(1)}ms`);
    }
  };
  const server = createServer({
    maxHeaderSize: 16 * 1024,
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    keepAliveTimeout: limits.keepAliveMs,
    // How often Node looks for requests past their time: well inside the shortest bound.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersMs / 4))),
  }, handle);
  server.maxConnections = limits.maxConnections;
  // Expect: 100-continue asks before sending the body: a body over the bound is refused unsent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) return void refuseTooLarge(res);
    res.writeContinue();
    void handle(req, res);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const problem = error.code === 'HPE_HEADER_OVERFLOW' ? new ProblemError('headers_too_large', 'The request headers are over 16 KB.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new ProblemError('request_timeout', 'The request did not arrive in time.')
      : new ProblemError('invalid_request', 'The request could not be parsed as HTTP/1.1.');
    const body = JSON.stringify(problem.body('/', 'req_adapter'));
    socket.end(`HTTP/1.1 ${problem.status} ${problem.title}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
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
