/**
 * Bodies on the WHATWG path: a request's, read whole within its bound (never handed on cut short),
 * and an answer's, compressed as the client's Accept-Encoding asks.
 */
import type { IncomingMessage } from 'node:http';
import { ProblemError } from '@investor-graph/engine/adapter';
import { acceptedEncoding, compress, COMPRESS_FROM } from './checks.ts';

/** The largest request body the mock reads (64 KiB): larger ones are refused 413. */
export const MAX_BODY = 64 * 1024;

/** The 413 for a body over the bound; the connection is closed with the rest unread. */
export function tooLarge(bare = false): Response {
  if (bare)
    return new Response('Payload Too Large\n', {
      status: 413,
      headers: { 'content-type': 'text/plain', connection: 'close' },
    });
  return new ProblemError('payload_too_large', `Request bodies may be at most ${MAX_BODY} bytes.`).toResponse(
    '/',
    'req_adapter',
    { connection: 'close' },
  );
}

/** A body its client went away in the middle of: nobody to answer, nothing to count, no failure of the kit's. */
export const GONE = Symbol('gone');

/** The body as sent, null past the bound (the rest drained unread), or GONE: never handed on cut short. */
export async function readBody(req: IncomingMessage): Promise<Uint8Array | null | typeof GONE> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || req.socket.destroyed) return GONE;
    throw error;
  }
  return size > MAX_BODY ? null : new Uint8Array(Buffer.concat(chunks));
}

/**
 * The answer as the client's Accept-Encoding takes it: JSON of COMPRESS_FROM bytes or more in br
 * or gzip; for HEAD the GET's encoding without a length, which only compressing a body not sent
 * would tell (RFC 9110 9.3.2). The engine says `Vary: Accept-Encoding` (told by the context that
 * this server compresses). Without Accept-Encoding the answer goes on untouched, as the engine
 * built it: the listener then writes it without a copy.
 */
export async function encoded(req: IncomingMessage, response: Response): Promise<Response> {
  const accept = req.headers['accept-encoding'];
  if (!accept || response.status === 304 || response.status === 204) return response;
  const headers = response.headers;
  if (headers.has('content-encoding') || !/json/.test(headers.get('content-type') ?? '')) return response;
  // A client that takes neither encoding gets the answer untouched, its body never read here.
  const encoding = acceptedEncoding(accept);
  if (encoding === null) return response;
  const bytes = req.method === 'HEAD' ? null : new Uint8Array(await response.arrayBuffer());
  // Small bodies go as they are (COMPRESS_FROM).
  if ((bytes?.length ?? Number(headers.get('content-length') ?? 0)) < COMPRESS_FROM)
    return bytes === null ? response : new Response(bytes as BodyInit, { status: response.status, headers });
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  if (!/accept-encoding/i.test(headers.get('vary') ?? '')) headers.append('vary', 'Accept-Encoding');
  return new Response(bytes && ((await compress(bytes, encoding)) as BodyInit), { status: response.status, headers });
}
