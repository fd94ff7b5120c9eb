/**
 * What a fault is, and the few ways one breaks a call. A fault wraps the engine's fetch (or the
 * next fault's) like any middleware: it may rewrite the request, answer it itself, or edit the
 * answer. The helpers below are those three, so each entry of the table says only what it breaks.
 */
import type { RequestContext } from '../context.ts';
import type { Engine } from '../engine.ts';
import { ProblemError } from '../problems.ts';

export type Fetch = (request: Request, context?: RequestContext) => Promise<Response>;
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
  /** The fetch with this fault on, around `next`. */
  wrap: (next: Fetch, deps: FaultDeps) => Fetch;
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

const isJson = (response: Response): boolean => (response.headers.get('content-type') ?? '').includes('json');

/** Edits a JSON answer (not a HEAD's, a 304's or a file's). */
export function onJson(edit: (answer: JsonAnswer) => void | Promise<void>): Fault['wrap'] {
  return (next) => async (request, context) => {
    const response = await next(request, context);
    if (request.method === 'HEAD' || response.status === 304 || !isJson(response)) return response;
    const url = new URL(request.url);
    const answer: JsonAnswer = {
      status: response.status,
      body: (await response.clone().json()) as Json,
      headers: new Headers(response.headers),
      request,
      url,
      relabel(status, code) {
        this.status = this.body.status = status;
        if (code !== undefined) this.body.code = code;
      },
      answerWith(code, detail) {
        const problem = new ProblemError(code, detail);
        this.status = problem.status;
        this.body = problem.body(url.pathname, response.headers.get('x-request-id') ?? '');
        this.headers.set('content-type', 'application/problem+json');
      },
      async refetch(again) {
        const fresh = await next(again, context);
        this.status = fresh.status;
        this.body = (await fresh.clone().json()) as Json;
        fresh.headers.forEach((v, k) => this.headers.set(k, v));
      },
    };
    await edit(answer);
    answer.headers.delete('content-length');
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
  };
}

/** Edits the rows of a page served whole (200, `data` an array). */
export function onRows(edit: (rows: Record<string, unknown>[], answer: JsonAnswer) => void): Fault['wrap'] {
  return onJson((answer) => {
    if (answer.status === 200 && Array.isArray(answer.body.data))
      edit(answer.body.data as Record<string, unknown>[], answer);
  });
}

/** Edits the headers of every answer (HEAD and 304 included). */
export function onHeaders(edit: (headers: Headers, response: Response, request: Request) => void): Fault['wrap'] {
  return (next) => async (request, context) => {
    const response = await next(request, context);
    const headers = new Headers(response.headers);
    edit(headers, response, request);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** Sends a rewritten request on instead (`edit` returns null to leave it). */
export function onRequest(edit: (request: Request, url: URL) => Request | null): Fault['wrap'] {
  return (next) => (request, context) => next(edit(request, new URL(request.url)) ?? request, context);
}

/** Answers some requests itself (`answer` returns null to let one through). */
export function answerBefore(answer: (request: Request, url: URL) => Response | null): Fault['wrap'] {
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
  next: Fetch,
  request: Request,
  context: RequestContext | undefined,
): Promise<void> {
  await (
    await next(new Request(new URL('/api/v1/firms?limit=1', request.url), { headers: request.headers }), context)
  ).arrayBuffer();
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
