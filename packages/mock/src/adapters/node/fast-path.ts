/**
 * The Node server's fast path, beside the WHATWG one: a GET or HEAD of the data API goes from
 * Node's IncomingMessage to the engine's `answer` (the record `fetch` builds its Response from) and
 * back out through ServerResponse, with no Request or Response built on the way. The engine is the
 * one source of every byte: the status, headers and body it answers are written as they are, with
 * the body's length, as @hono/node-server writes the Response made of them. Only requests both
 * paths read alike take it: a target and Host @hono/node-server would put in the URL unchanged,
 * headers a WHATWG Headers would hold as sent; anything else takes the WHATWG path. The mock's
 * README, "How a request flows".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { isPieces, piecesLength, type Answer } from '@investor-graph/engine/adapter';
import type { RequestContext } from '@investor-graph/engine/adapter';
import { encodedAnswer } from './checks.ts';
import { deliver } from './delivery.ts';

export type AnswerFunction = (request: Request, context?: RequestContext) => Promise<Answer>;

/**
 * What @hono/node-server puts in a URL as sent (its
 * reValidRequestUrl): nothing to percent-encode, no `%`, no backslash.
 */
const PLAIN_TARGET = /^\/api\/[!#$&-;=?-\[\]_a-z~]*$/;
/** A dot segment, which @hono/node-server resolves (the checks refuse it first). */
const DOT = /\/\.\.?(?:[/?#]|$)/;
/** A Host @hono/node-server writes into the URL as sent (its reValidHost). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
/** HTTP whitespace at an end of a value, which a WHATWG Headers trims, and what it refuses. */
const UNTRIMMED = /^[\t ]|[\t ]$/;
const REFUSED_VALUE = /[\0\r\n]/;

/**
 * The request headers as the engine reads them (get, has, and in order of name for the contract's
 * validation): lower-case names, repeats joined with `, ` (`; ` for cookies), as WHATWG Headers do.
 */
class SentHeaders {
  private readonly map = new Map<string, string>();

  /** Null when a value is one a WHATWG Headers would not hold as sent: the WHATWG path then takes it. */
  static of(raw: readonly string[]): SentHeaders | null {
    const headers = new SentHeaders();
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      const value = raw[i + 1]!;
      if (UNTRIMMED.test(value) || REFUSED_VALUE.test(value)) return null;
      const before = headers.map.get(name);
      headers.map.set(name, before === undefined ? value : `${before}${name === 'cookie' ? '; ' : ', '}${value}`);
    }
    return headers;
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return [...this.map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[Symbol.iterator]();
  }
}

/**
 * What the engine reads of a GET or HEAD of the data API: its method, URL and headers. Typed as a
 * Request for the engine's steps, which read nothing else of one without a body (the conformance
 * suite runs through this path and the WHATWG one alike).
 */
function sentRequest(incoming: IncomingMessage): Request | null {
  const method = incoming.method;
  const target = incoming.url ?? '';
  // HTTP/1.0 answers are delimited another way by both, and worth no second path.
  if (
    (method !== 'GET' && method !== 'HEAD') ||
    incoming.httpVersion !== '1.1' ||
    !PLAIN_TARGET.test(target) ||
    DOT.test(target)
  )
    return null;
  const host = incoming.headers.host;
  if (host === undefined || !PLAIN_HOST.test(host)) return null;
  const headers = SentHeaders.of(incoming.rawHeaders);
  if (headers === null) return null;
  return { method, url: `http://${host}${target}`, headers } as unknown as Request;
}

/**
 * Writes an answer: its status and header record as they are, a body in pieces piece by piece,
 * and a body's length as @hono/node-server counts it for a Response built from a record (Node's
 * own WHATWG path writes it the same way: a content-length after the answer's headers).
 */
export async function write(res: ServerResponse, answer: Answer): Promise<void> {
  if (await deliver(res, answer)) return;
  const { status, headers, body } = answer;
  if (body === null) {
    res.writeHead(status, headers).end();
    return;
  }
  if (body instanceof Blob) {
    // A dump file (hundreds of megabytes at scale, backed by a file on disk): streamed, never held whole.
    headers['content-length'] ??= String(body.size);
    res.writeHead(status, headers);
    await pipeline(Readable.fromWeb(body.stream() as NodeReadableStream<Uint8Array>), res);
    return;
  }
  if (isPieces(body)) {
    // Pieces go out as they are: Node corks the socket on the first write, so they leave in one writev.
    headers['content-length'] ??= String(piecesLength(body));
    res.writeHead(status, headers);
    for (let i = 0; i < body.length - 1; i++) res.write(body[i]);
    res.end(body[body.length - 1]);
    return;
  }
  headers['content-length'] ??= String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(status, headers).end(body);
}

/**
 * The fast path's listener: true when it took the request (and answers it), false when the WHATWG
 * path must. `context` is what the socket tells the engine; `failed` answers a throw past the engine.
 * The adapter's refusals (adapter-checks.ts) come before either path, in server.ts.
 */
export function fastPath(
  answer: AnswerFunction,
  options: { context: (incoming: IncomingMessage) => RequestContext; failed: (error: unknown) => Answer },
) {
  return (incoming: IncomingMessage, res: ServerResponse): boolean => {
    const request = sentRequest(incoming);
    if (request === null) return false;
    // Whatever throws on the way, here or in the engine, ends in the catch below: never a crash.
    const answered = (async () => encodedAnswer(incoming, await answer(request, options.context(incoming))))();
    answered
      .then((a) => write(res, a))
      .catch((error: unknown) => {
        if (res.headersSent) return res.destroy();
        write(res, options.failed(error)).catch(() => res.destroy());
      });
    return true;
  };
}
