/**
 * The Node adapter: @hono/node-server's request listener (made to serve a `fetch(Request)` handler
 * on node:http, with a Request that reads Node's headers lazily and a Response it writes without a
 * web stream) wired to the engine. It adds only what the engine cannot know and a server left
 * running needs: the client's address (loopback or not), the bounds (body size, refused by
 * Content-Length before a byte is read; time to send headers and the whole request, 408; how many
 * connections it holds, in all and from one address), compression as Accept-Encoding asks, the
 * methods a WHATWG Request cannot carry (TRACE), and a problem+json wherever the listener would
 * answer a bare status.
 * Given the engine's `answer` (its one entry), a GET or HEAD of the data API takes the fast path
 * beside it (fast-path.ts), which writes the answer record as it is; every other request takes the
 * WHATWG path, with the Response made of the same record. The checks and compression both paths
 * share are in checks.ts.
 * The mock's README ("How a request flows") says why this library.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Engine } from '@investor-graph/engine/adapter';
import { toResponse } from '@investor-graph/engine/adapter';
import { ProblemError } from '@investor-graph/engine/adapter';
import { refusedRoute } from '@investor-graph/engine/adapter';
import { bearerOf, redactPath, type KnownKeys } from '@investor-graph/cli/redact';
import { encoded, GONE, MAX_BODY, readBody, tooLarge } from './bodies.ts';
import { codingRefusal, refusal } from './checks.ts';
import { delivered } from './delivery.ts';
import { fastPath, write, type AnswerFunction } from './fast-path.ts';
import { answerEdges } from './http-edges.ts';
import { requestLog, type LogFormat } from './request-log.ts';
import { socketContext } from './socket.ts';

export { isLoopback } from './socket.ts';

export interface NodeServerOptions {
  /** Called once per request after the response is sent: method, path, status, ms. */
  log?: (line: string) => void;
  /** The log line's form (request-log.ts): text (the default) or one JSON object. */
  logFormat?: LogFormat;
  /**
   * Keys of forms no pattern knows (presets, custom keys made through
   * control): blanked in the log wherever a request sent them.
   */
  known?: KnownKeys;
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
  /**
   * The bare-limit-answers fault: 408, 413 and 431 as a bare text
   * line; Expect, CONNECT, Host and dot segments left to Node.
   */
  bareLimitAnswers?: boolean;
  /** false: every request takes the WHATWG path, even with the engine's `answer` given (the tests run both). */
  fastPath?: boolean;
  /**
   * A body in a content coding is handed on as sent (the validation
   * proxy: the service it forwards to decides), not refused 415.
   */
  passCodedBodies?: boolean;
}

/** What it serves: the engine's one entry, `answer`, which both paths call, or any fetch handler (the WHATWG path). */
export type Served = { answer: AnswerFunction } | Pick<Engine, 'fetch'>;

/** Methods a WHATWG Request refuses to carry: the adapter answers them itself, as the engine would. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * A slow or idle client (one that sends nothing too) is answered 408 and closed after headersMs
 * (headers) or requestMs (the whole request), and one idle between requests after keepAliveMs;
 * past maxConnections in all, or maxConnectionsPerAddress from one client, a new connection is
 * answered 503 and closed (http-edges.ts): neither held sockets nor one address can starve everyone
 * else for long. The share of one address is above what the kit's own load tests open from
 * 127.0.0.1 (k6 at Enterprise's rate, ~200 VUs).
 * writeWindowMs and minWriteBytes: a client that, with an answer waiting for it, takes fewer than
 * minWriteBytes off it in writeWindowMs (4 KiB/s averaged over 10 s) is cut: a slow reader would
 * otherwise hold a connection (and the answer's memory) for as long as it likes.
 */
export const defaultLimits = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  maxConnections: 2_048,
  maxConnectionsPerAddress: 512,
  writeWindowMs: 10_000,
  minWriteBytes: 40 * 1024,
};

/** Where the listener hands a request to the engine, with what only the socket knows. */
function handler(served: Served, options: NodeServerOptions, context: ReturnType<typeof socketContext>) {
  return async (request: Request, { incoming }: { incoming: IncomingMessage }): Promise<Response> => {
    const target = incoming.url ?? '/';
    const method = request.method;
    if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
      // 405 with Allow (404 off the API), as the router answers any other method a path does not take.
      const path = target.split('?')[0]!;
      return refusedRoute(method, path).toResponse(
        redactPath(path, options.known?.with(bearerOf(incoming.headers.authorization))),
        'req_adapter',
      );
    }
    if (method !== 'GET' && method !== 'HEAD') {
      // Bodies are read here, bounded, and handed on whole; Content-Length over the bound is refused unread.
      if (Number(incoming.headers['content-length'] ?? 0) > MAX_BODY) return tooLarge(options.bareLimitAnswers);
      const coded = options.passCodedBodies ? null : codingRefusal(incoming);
      if (coded) return coded.toResponse('/', 'req_adapter');
      const body = await readBody(incoming);
      if (body === null) return tooLarge(options.bareLimitAnswers);
      // Written to no one (the socket is gone), so never seen; the log line says aborted.
      if (body === GONE)
        return new ProblemError('invalid_request', 'The connection closed before the body was whole.').toResponse(
          '/',
          'req_adapter',
          { connection: 'close' },
        );
      request = new Request(request.url, {
        method,
        headers: request.headers,
        body: body.length ? (body as BodyInit) : null,
      });
    }
    if (!('answer' in served)) return encoded(incoming, await served.fetch(request, context(incoming)));
    const answer = await served.answer(request, context(incoming));
    // An incident's delivery (a cut connection, a slow body) is written as it says, never compressed whole.
    return answer.delivery ? delivered(incoming, answer) : encoded(incoming, toResponse(answer));
  };
}

/** Never a crash: whatever went wrong is the kit's failure, a 500 on this one request, logged. */
function internalFailure(error: unknown): ProblemError {
  console.error('[investor-graph mock] internal error in the Node adapter:', error);
  return new ProblemError(
    'internal_error',
    "[investor-graph mock] internal error: the Node adapter failed on this request; the mock's log has the details.",
  );
}
const internalError = (error: unknown): Response => internalFailure(error).toResponse('/', 'req_adapter');

export function createNodeServer(given: Served, options: NodeServerOptions = {}): Server {
  const limits = { ...defaultLimits, ...options.limits };
  const log = options.log ? requestLog({ ...options, log: options.log }) : null;
  const context = log ? log.context(socketContext(options)) : socketContext(options);
  const engine = log && 'answer' in given ? { answer: log.answer(given.answer) } : given;
  const serve = handler(engine, options, context);
  // A request the listener cannot make into a Request (a Host that is no host name) is the
  // client's: 400. Anything thrown past the engine, which answers its own failures, is ours: 500.
  const errorHandler = (error: unknown): Response =>
    error instanceof Error && error.name === 'RequestError'
      ? new ProblemError('invalid_request', "The request's target or Host header is not a URL.").toResponse(
          '/',
          'req_adapter',
        )
      : internalError(error);
  const listener = getRequestListener(
    async (request, env) => {
      try {
        return await serve(request, env as { incoming: IncomingMessage });
      } catch (error) {
        return internalError(error);
      }
    },
    {
      errorHandler,
      // An HTTP/1.0 request may come without Host: its URL names localhost, as before (the control
      // plane judges the Host header itself, never this URL).
      hostname: 'localhost',
      overrideGlobalObjects: options.globalFetchClasses === true,
    },
  );
  const fast =
    'answer' in engine && options.fastPath !== false
      ? fastPath(engine.answer, {
          context,
          failed: (error) => internalFailure(error).toAnswer('/', 'req_adapter'),
        })
      : null;
  const either = fast
    ? (req: IncomingMessage, res: ServerResponse) => (fast(req, res) ? undefined : listener(req, res))
    : listener;
  // A target or Host no request of this API has is refused before either path builds a URL of it.
  const checked = (req: IncomingMessage, res: ServerResponse) => {
    const refused = refusal(req, req.url ?? '/', options.bareLimitAnswers === true);
    if (refused === null) return either(req, res);
    write(res, refused.toAnswer('/', 'req_adapter')).catch(() => res.destroy());
  };
  // The log line is set to go once the answer is out (request-log.ts).
  const logged = log ? log.listener(checked) : checked;
  const server = createServer(
    {
      maxHeaderSize: 16 * 1024,
      // Checked by the handler, which answers problem+json (Node's own check writes a bare 400).
      requireHostHeader: false,
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      // How often Node looks for requests past their time: well inside the shortest bound.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersMs / 4))),
    },
    // Node ignores what a listener returns: the WHATWG path's promise settles on its own (Hono answers its failures).
    (req, res) => void logged(req, res),
  );
  // Expect: 100-continue asks before sending the body: a body over the bound, or coded, is refused unsent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length'] ?? 0) <= MAX_BODY && (options.passCodedBodies || !codingRefusal(req)))
      res.writeContinue();
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
