/**
 * A call of the suite put on the wire with fetch (client.ts decides when, and reads what came):
 * named in X-Request-Id, its key sent as a bearer token, the run's own calls on their way at once
 * counted, and its body read as its headers say.
 */

/** What a call sends: its method, key, headers and body, and whether its body is kept as bytes. */
export interface Outgoing {
  method?: string;
  /** The key to send: the suite's own by default, null for none, or another. */
  key?: string | null;
  headers?: Record<string, string>;
  body?: string;
  /** Keep the body's bytes (a dump file) instead of reading it as text. */
  raw?: boolean;
}

/** A call as sent and what came back, its body read. */
export interface Sent {
  method: string;
  /** The key sent (null: none). */
  key: string | null;
  /** Sent with the run's own key. */
  own: boolean;
  headers: Record<string, string>;
  /** The id this client named the call with, unless its caller sent an id of its own. */
  requestId: string | undefined;
  /** Another of the run's own calls was on its way at the same time (judges.ts: the order of counting is unknown). */
  overlapped: boolean;
  response: Response;
  text: string;
  bytes?: Uint8Array;
  /** Why the body could not be read as its headers say (bad gzip, bad br): the service's fault, not a crash. */
  bodyError?: string;
}

export class CallSender {
  readonly #target: { baseUrl: string; key: string | null; fetch?: typeof globalThis.fetch };
  /** Calls sent so far: each carries its number in X-Request-Id, as a client tracing its calls would. */
  #sent = 0;
  /** The run's own calls on their way, and a count moving whenever two are at once. */
  #ownInFlight = 0;
  #overlaps = 0;

  /** `target.key` is the run's own key; `target.fetch` replaces the global fetch (tests). */
  constructor(target: { baseUrl: string; key: string | null; fetch?: typeof globalThis.fetch }) {
    this.#target = target;
  }

  async send(path: string, init: Outgoing): Promise<Sent> {
    const { baseUrl } = this.#target;
    const key = init.key === undefined ? this.#target.key : init.key;
    // Every call names itself (rule:request-id holds each answer to echo it), unless it sends an id of its own.
    const requestId = `igct-${++this.#sent}`;
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': requestId, ...init.headers };
    const ownId = headers['x-request-id'] === requestId;
    if (key) headers.authorization = `Bearer ${key}`;
    const method = init.method ?? 'GET';
    const own = key === this.#target.key;
    const overlapsBefore = this.#overlaps;
    if (own && ++this.#ownInFlight > 1) this.#overlaps += 1;
    const response = await (this.#target.fetch ?? fetch)(`${baseUrl}${path}`, {
      method,
      headers,
      ...(init.body === undefined ? {} : { body: init.body }),
    }).finally(() => {
      if (own) this.#ownInFlight -= 1;
    });
    const body = await readBody(response, init.raw);
    // Read after the body: a call that overlapped this one while its body came counts too.
    const overlapped = this.#overlaps !== overlapsBefore;
    return { method, key, own, headers, requestId: ownId ? requestId : undefined, overlapped, response, ...body };
  }
}

/**
 * The body as text, or as bytes when `raw`. A body that does not decode as its Content-Encoding
 * says (bad gzip, bad br) is the service's fault: a finding of the contract rule, never a crash of the run.
 */
async function readBody(
  response: Response,
  raw: boolean | undefined,
): Promise<{ text: string; bytes?: Uint8Array; bodyError?: string }> {
  try {
    if (raw) return { text: '', bytes: new Uint8Array(await response.arrayBuffer()) };
    return { text: await response.text() };
  } catch (error) {
    const { message, cause } = error as Error;
    const causeSaid = String((cause as { message?: unknown } | undefined)?.message ?? cause);
    const encoding = JSON.stringify(response.headers.get('content-encoding'));
    return {
      text: '',
      bodyError:
        `the body could not be read as its headers say (Content-Encoding ${encoding}): ` +
        `${message}${cause ? ` (${causeSaid})` : ''}`,
    };
  }
}
