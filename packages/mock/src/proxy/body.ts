/**
 * What the proxy passes on of the service's answer: its headers as they stand once fetch has
 * decoded the body, and its body, held for checking up to a bound per answer and a budget across
 * every answer held at once, else streamed on as it arrives, unchecked, and said to be.
 */
import { concatBytes } from '@investor-graph/engine/adapter';
import type { ProxyViolation } from './types.ts';
import { violationsHeader } from './violations.ts';

/** Hop-by-hop headers (RFC 9110 7.6.1) and what fetch sets itself are not forwarded. */
export const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'proxy-authorization',
  'proxy-authenticate',
]);

/** Bytes of answers held for checking at once, across exchanges. */
export class HeldBytes {
  used = 0;
  readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
}

/**
 * The body in hand (`release` gives its bytes back to the budget
 * once checked), or what was read and the rest still to come.
 */
export type BoundedBody =
  | { bytes: Uint8Array; release: () => void }
  | { head: Uint8Array[]; rest: ReadableStreamDefaultReader<Uint8Array>; why: string };

/** Reads the body while it fits `limit` and the budget; past either, stops holding it and says why. */
export async function readBounded(response: Response, limit: number, held: HeldBytes): Promise<BoundedBody> {
  if (!response.body) return { bytes: new Uint8Array(0), release: () => undefined };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let given = false;
  const release = (): void => {
    if (!given) held.used -= size;
    given = true;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
      held.used += value.length;
      // Past the budget is memory pressure made a number: answers held by other exchanges leave no room for this one.
      const why =
        size > limit
          ? `the body is over ${limit} bytes`
          : held.used > held.max
            ? `the proxy was already holding ${held.used - size} bytes of other answers for checking ` +
              `(${held.max} at most)`
            : null;
      if (why) {
        release();
        return { head: chunks, rest: reader, why };
      }
    }
  } catch (error) {
    release();
    throw error;
  }
  return { bytes: concatBytes(chunks), release };
}

/**
 * A body made of what was read and what is still to come, passed on as
 * it arrives; `ended` once it is through, broke off or was dropped.
 */
export function passOn(
  head: Uint8Array[],
  rest: ReadableStreamDefaultReader<Uint8Array>,
  ended: (error?: unknown) => void,
): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
    },
    async pull(controller) {
      try {
        const { done, value } = await rest.read();
        if (!done) return controller.enqueue(value);
        controller.close();
        ended();
      } catch (error) {
        ended(error);
        controller.error(error);
      }
    },
    cancel: (reason) => (ended(), rest.cancel(reason)),
  });
}

/** The service's headers as passed on: fetch has decoded the body, so its encoding and length no longer describe it. */
export function passedOnHeaders(
  headers: Headers,
  violations: readonly ProxyViolation[],
  head = false,
  more = 0,
): Headers {
  const out = new Headers(headers);
  // A HEAD's Content-Length is the GET's, which no decoding changed: it stays when nothing was encoded.
  const keepLength = head && !headers.has('content-encoding');
  for (const name of ['content-encoding', 'transfer-encoding', 'connection', ...(keepLength ? [] : ['content-length'])])
    out.delete(name);
  if (violations.length) out.set('sl-violations', violationsHeader(violations, more));
  return out;
}
