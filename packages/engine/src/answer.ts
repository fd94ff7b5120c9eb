/**
 * Answers: what the engine builds a data answer as (status, a plain header record, a body), and
 * how it writes a time. Every step on the way out (CORS, caching, HEAD) edits the record, and the
 * Response is built once, at the end: building one and then editing its Headers costs more than
 * the rest of a record's call, and a Response built once from a record and a string is what the
 * Node adapter writes without copying (packages/mock/README.md, "How a request flows").
 */
import { concatBytes } from './hash.ts';

export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string | Uint8Array | Pieces | Blob | null;
  /** How an incident (incidents/) has it delivered: not at all (the connection cut), or slowly. */
  delivery?: Delivery;
}

export type Delivery = { cut: true } | { bytesPerSecond: number };

/**
 * A body of bytes in pieces, sent one after another and never joined into one where the adapter
 * can write them so (a remembered page's 50 KB between the envelope's text: joining them copied
 * the page on every answer, a fifth of a page call's time in the Node server, profiled).
 */
export type Pieces = readonly Uint8Array[];

/** (Array.isArray does not narrow a readonly array's union.) */
export const isPieces = (body: Answer['body']): body is Pieces => Array.isArray(body);

export function piecesLength(pieces: Pieces): number {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length;
}

/** The ISO text of the last few times written: an answer writes the same as-of and period bounds many times. */
const isoTexts = new Map<number, string>();

/** A time as answers write it: ISO 8601 in UTC, without milliseconds when there are none. */
export function iso(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString().replace('.000Z', 'Z');
    if (isoTexts.size >= 64) isoTexts.delete(isoTexts.keys().next().value!);
    isoTexts.set(ms, text);
  }
  return text;
}

/** A JSON answer whose body is already serialised. */
export function jsonText(status: number, text: string, headers: Record<string, string> = {}): Answer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: text };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return jsonText(status, JSON.stringify(body), headers);
}

export function toResponse(answer: Answer): Response {
  const { delivery } = answer;
  // A fetch handler has no connection to cut: a network error is what its client sees of one (MSW's too).
  if (delivery && 'cut' in delivery) return Response.error();
  const whole = isPieces(answer.body) ? concatBytes(answer.body) : answer.body;
  const body = delivery && whole !== null ? slowly(whole, delivery.bytesPerSecond) : whole;
  return new Response(body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

const encoder = new TextEncoder();

/**
 * A body sent at `bytesPerSecond`: a tenth of a second's worth at a time, the first at once, so a
 * client's read timeout meets the body it would meet from a slow service.
 */
export function slowly(body: string | Uint8Array | Blob, bytesPerSecond: number): ReadableStream<Uint8Array> {
  const piece = Math.max(1, Math.ceil(bytesPerSecond / 10));
  const pause = (piece / bytesPerSecond) * 1000;
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const source = bytes instanceof Blob ? bytes.stream() : new Blob([bytes as Uint8Array<ArrayBuffer>]).stream();
  let first = true;
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        for (let at = 0; at < chunk.length; at += piece) {
          if (!first) await new Promise((resolve) => setTimeout(resolve, pause));
          first = false;
          controller.enqueue(chunk.subarray(at, at + piece));
        }
      },
    }),
  );
}
