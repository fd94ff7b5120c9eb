/**
 * What a fault is, and the few ways one breaks a call. A fault is a wrapper of the engine's one
 * type (wrapper.ts): it takes the next Handler and gives one around it, answer records in and out,
 * so a faulted call builds no Response on the way (the adapter builds one at the end, as for any
 * call). It may rewrite the request, answer it itself, or edit the answer; the helpers below are
 * those three, so each entry of the table says only what it breaks.
 */
import { isPieces, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Engine } from '../engine.ts';
import { concatBytes } from '../hash.ts';
import { ProblemError } from '../problems.ts';
import type { Handler } from '../wrapper.ts';

export type Json = Record<string, unknown> & {
  data?: unknown;
  next_cursor?: unknown;
  actions?: unknown;
  status?: unknown;
  code?: unknown;
  usage?: unknown;
  plan?: unknown;
};

/** What a fault that must act as another key, or read the data, is given. */
export interface FaultDeps {
  engine?: Pick<Engine, 'accounts' | 'clock' | 'store'>;
}

/** The engine options a fault may set (engine.ts says what each does). */
export interface EngineFaultOptions {
  limiterNow?: () => number;
  trialKeptMs?: number;
}

export interface Fault {
  /** What it breaks, as `--help` says it. */
  breaks: string;
  /** The handler with this fault on, around `next`. */
  wrap: (next: Handler, deps: FaultDeps) => Handler;
  /** A fault that acts in the engine, not on a request or an answer: the engine option it sets. */
  engine?: (engine: () => Pick<Engine, 'clock'>) => EngineFaultOptions;
  /** A fault that acts in the Node server, before any request reaches the engine: the option it sets. */
  adapter?: { bareLimitAnswers?: boolean };
}

/** Leaves every call alone (a fault that acts in the engine or the adapter). */
export const untouched: Fault['wrap'] = (next) => next;

/** A JSON answer being edited: its status, body and headers, the request, and what may be done instead. */
export interface JsonAnswer {
  status: number;
  body: Json;
  headers: Headers;
  request: Request;
  url: URL;
  /** Gives the answer another status (in its body too) and, if given, another code: the problem otherwise as served. */
  relabel(status: number, code?: string): void;
  /** Answers instead with the problem of the kit's table: its status, body and content type. */
  answerWith(code: ConstructorParameters<typeof ProblemError>[0], detail: string): void;
  /** Answers instead what `request` gets from the rest of the chain. */
  refetch(request: Request): Promise<void>;
}

const isJson = (answer: Answer): boolean => (answer.headers['content-type'] ?? '').includes('json');
const utf8 = new TextDecoder();

/** An answer's body parsed as JSON: text as it is, bytes or pieces decoded once, a Blob read. */
export async function jsonOf(answer: Answer): Promise<Json> {
  const { body } = answer;
  const text =
    body === null
      ? ''
      : typeof body === 'string'
        ? body
        : body instanceof Blob
          ? await body.text()
          : utf8.decode(isPieces(body) ? concatBytes(body) : body);
  return JSON.parse(text) as Json;
}

/** Headers as an answer's record (lower-case names, as Headers gives them). */
export function recordOf(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}

/** Edits a JSON answer (not a HEAD's, a 304's or a file's). */
export function onJson(edit: (answer: JsonAnswer) => void | Promise<void>): Fault['wrap'] {
  return (next) => async (request, context) => {
    const answer = await next(request, context);
    if (request.method === 'HEAD' || answer.status === 304 || !isJson(answer)) return answer;
    const url = new URL(request.url);
    let delivery = answer.delivery;
    const json: JsonAnswer = {
      status: answer.status,
      body: await jsonOf(answer),
      headers: new Headers(answer.headers),
      request,
      url,
      relabel(status, code) {
        this.status = this.body.status = status;
        if (code !== undefined) this.body.code = code;
      },
      answerWith(code, detail) {
        const problem = new ProblemError(code, detail);
        this.status = problem.status;
        this.body = problem.body(url.pathname, answer.headers['x-request-id'] ?? '');
        this.headers.set('content-type', 'application/problem+json');
      },
      async refetch(again) {
        const fresh = await next(again, context);
        this.status = fresh.status;
        this.body = await jsonOf(fresh);
        for (const [name, value] of Object.entries(fresh.headers)) this.headers.set(name, value);
        delivery = fresh.delivery;
      },
    };
    await edit(json);
    json.headers.delete('content-length');
    const edited: Answer = { status: json.status, headers: recordOf(json.headers), body: JSON.stringify(json.body) };
    return delivery ? { ...edited, delivery } : edited;
  };
}

/** Edits the rows of a page served whole (200, `data` an array). */
export function onRows(edit: (rows: Record<string, unknown>[], answer: JsonAnswer) => void): Fault['wrap'] {
  return onJson((answer) => {
    if (answer.status === 200 && Array.isArray(answer.body.data))
      edit(answer.body.data as Record<string, unknown>[], answer);
  });
}

/** Edits the headers of every answer (HEAD and 304 included); the body goes on as it is. */
export function onHeaders(edit: (headers: Headers, answer: Answer, request: Request) => void): Fault['wrap'] {
  return (next) => async (request, context) => {
    const answer = await next(request, context);
    const headers = new Headers(answer.headers);
    edit(headers, answer, request);
    return { ...answer, headers: recordOf(headers) };
  };
}

/** Sends a rewritten request on instead (`edit` returns null to leave it). */
export function onRequest(edit: (request: Request, url: URL) => Request | null): Fault['wrap'] {
  return (next) => (request, context) => next(edit(request, new URL(request.url)) ?? request, context);
}

/** Answers some requests itself (`answer` returns null to let one through). */
export function answerBefore(answer: (request: Request, url: URL) => Answer | null): Fault['wrap'] {
  return (next) => (request, context) =>
    Promise.resolve(answer(request, new URL(request.url))).then((own) => own ?? next(request, context));
}

/** The request with its query edited. */
export function rewriteQuery(request: Request, edit: (params: URLSearchParams) => void): Request {
  const url = new URL(request.url);
  edit(url.searchParams);
  return new Request(url, request);
}

/**
 * The request with other headers (from its parts: the Node adapter's
 * own request class cannot be copied by undici's Request).
 */
export function withHeaders(request: Request, edit: (headers: Headers) => void): Request {
  const headers = new Headers(request.headers);
  edit(headers);
  return new Request(request.url, { method: request.method, headers });
}

/** One more call, unseen, with the same key: a fault that counts (and charges) a call too many. */
export async function countAnotherCall(
  next: Handler,
  request: Request,
  context: RequestContext | undefined,
): Promise<void> {
  await next(new Request(new URL('/api/v1/firms?limit=1', request.url), { headers: request.headers }), context);
}

/** A bounded memory: cleared whole past `max` (a fault's bookkeeping, never the mock's own). */
export function boundedMap<K, V>(max = 10_000): Map<K, V> {
  const map = new Map<K, V>();
  const set = map.set.bind(map);
  map.set = (k, v) => {
    if (map.size > max) map.clear();
    return set(k, v);
  };
  return map;
}
