/**
 * An answer an incident has delivered another way (incidents/ in the engine): a connection cut with
 * nothing written (the client's read fails as on a reset by a balancer), or a body sent slowly,
 * paced by the engine's `slowly` so MSW and this server send it alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { toResponse, type Answer } from '@investor-graph/engine/adapter';

/** Writes an answer with a delivery: true when it had one (and is taken care of), false to write it as usual. */
export async function deliver(res: ServerResponse, answer: Answer): Promise<boolean> {
  const { delivery } = answer;
  if (!delivery) return false;
  if ('cut' in delivery) {
    res.destroy();
    return true;
  }
  const body = toResponse(answer).body;
  res.writeHead(answer.status, answer.headers);
  if (body === null) res.end();
  else await pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), res);
  return true;
}

/** The WHATWG path's delivery: the socket destroyed (the Response given back is never written), or a slow body. */
export function delivered(incoming: IncomingMessage, answer: Answer): Response {
  if (answer.delivery && 'cut' in answer.delivery) {
    incoming.socket.destroy();
    return new Response(null, { status: 204 });
  }
  return toResponse(answer);
}
