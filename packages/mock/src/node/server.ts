/**
 * The Node adapter: node:http in, WHATWG Request to the engine, Response back out. It adds only
 * what the engine cannot know: the client's address (loopback or not) and a bound on body size.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../engine/engine.ts';
import { ProblemError } from '../engine/problems.ts';
import { redactPath } from '../redact.ts';

export interface NodeServerOptions {
  /** Called once per request after the response is sent: method, path, status, ms. */
  log?: (line: string) => void;
  /** Host names besides the loopback ones that name this server, for the control plane. */
  allowedHosts?: readonly string[];
}

const MAX_BODY = 64 * 1024;

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

function send(res: ServerResponse, response: Response, body: Uint8Array | null): void {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  // The whole body is in hand, so its length is known: a plain body instead of chunked framing.
  if (body && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

export function createNodeServer(engine: Pick<Engine, 'fetch'>, options: NodeServerOptions = {}): Server {
  const server = createServer({ maxHeaderSize: 16 * 1024 }, async (req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let status = 500;
    try {
      let response: Response;
      const target = req.url ?? '/';
      if (!target.startsWith('/') || target.startsWith('//')) {
        // Only origin-form targets: an absolute or scheme-relative one must not pick the host.
        response = new ProblemError('invalid_request', 'The request target must be a path.').toResponse('/', 'req_adapter');
      } else {
        const body = method === 'GET' || method === 'HEAD' ? null : await readBody(req);
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
        if (body === null && method !== 'GET' && method !== 'HEAD') headers.set('content-length', String(MAX_BODY + 1));
        const request = new Request(`http://${req.headers.host && /^[\w.:[\]-]+$/.test(req.headers.host) ? req.headers.host : 'localhost'}${target}`, {
          method,
          headers,
          body: body && body.length ? (body as BodyInit) : null,
        });
        response = await engine.fetch(request, { clientAddress: req.socket.remoteAddress ?? 'unknown', loopback: isLoopback(req.socket.remoteAddress), ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) });
      }
      status = response.status;
      const bytes = method === 'HEAD' || response.body === null ? null : new Uint8Array(await response.arrayBuffer());
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
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify({ type: 'about:blank', title: status === 431 ? 'Headers too large' : 'Bad request', status, detail: 'The request could not be parsed as HTTP/1.1.', code: 'invalid_request', request_id: 'req_adapter' });
    socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
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
