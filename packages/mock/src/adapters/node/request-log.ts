/**
 * `--log`: one line per request once its answer is sent (or the connection is gone), as text
 * (`GET /api/v1/firms?limit=2 200 0.4ms`) or, with `--log json`, as one JSON object a log pipeline
 * reads (time, level, request_id, trace_id, operation, method, path, status, duration_ms, key_id,
 * plan). Both blank keys the same way: the target through `redactPath` with the known keys and
 * the request's own, before it is cut (a key cut in two is no longer recognisable); every other
 * string of the JSON object through `redact`. No header is ever written, only the trace id of a
 * W3C `traceparent` (32 hex digits), or with traces on of the call's span, and not when a known key holds it.
 * A small writer rather than pino: the line has a fixed shape of eleven members and one level per
 * status, the sink is the caller's `(line) => void` (a test's array, the CLI's stdout), and the
 * blanking must be the kit's own (pino's `redact` blanks paths of an object, not a key inside a
 * string in any encoding), so pino would add its dependencies for a `JSON.stringify`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from '@investor-graph/engine/adapter';
import { bearerOf, escapeControl, redact, redactPath, shorten, type KnownKeys } from '@investor-graph/cli/redact';
import type { AnswerFunction } from './fast-path.ts';

export type LogFormat = 'text' | 'json';

/** What the JSON line reads of a call: the engine's note of it, and the request id its answer carries. */
type Noted = NonNullable<RequestContext['note']> & { requestId?: string };

export interface RequestLogOptions {
  log: (line: string) => void;
  /** 'text' (the default) or 'json'. */
  logFormat?: LogFormat;
  known?: KnownKeys;
}

/** The members of a `--log json` line, in order. */
export interface JsonLogLine {
  time: string;
  level: 'info' | 'warn' | 'error';
  request_id: string | null;
  trace_id: string | null;
  operation: string | null;
  method: string;
  path: string;
  status: number | null;
  duration_ms: number;
  key_id: string | null;
  plan: string | null;
}

/** A W3C trace context header: version, trace id, parent id, flags (version ff and all-zero ids are invalid). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?$/;

/** The trace id of a well-formed `traceparent`, or null. */
export function traceIdOf(header: string | string[] | undefined): string | null {
  const match = typeof header === 'string' ? TRACEPARENT.exec(header.trim()) : null;
  if (!match || match[1] === 'ff' || (match[1] === '00' && match[4] !== undefined)) return null;
  return /^0+$/.test(match[2]!) || /^0+$/.test(match[3]!) ? null : match[2]!;
}

/**
 * A trace id is 32 hex digits, which `redact` takes for a secret by its look: it is written unless a
 * known key (a preset of hex digits, say) holds 12 of its characters in a row, as `redact` finds one.
 */
function traceIdShown(id: string | null, known: readonly string[]): string | null {
  if (id === null) return null;
  for (const key of known)
    for (let at = 0; at + 12 <= id.length; at++) if (key.includes(id.slice(at, at + 12))) return null;
  return id;
}

/** The keys to blank in what is written down of a request: the known ones and the request's own. */
function knownTo(known: KnownKeys | undefined, req: IncomingMessage): readonly string[] {
  const own = bearerOf(req.headers.authorization);
  return known?.with(own) ?? (own ? [own] : []);
}

const levelOf = (status: number | null): JsonLogLine['level'] =>
  status === null ? 'warn' : status >= 500 ? 'error' : 'info';

/** The log of one server: what it adds to the context of a call, to `answer`, and around the listener. */
export function requestLog(options: RequestLogOptions) {
  const json = options.logFormat === 'json';
  const noted = new WeakMap<IncomingMessage, Noted>();
  const line = (req: IncomingMessage, res: ServerResponse, started: number): string => {
    const known = knownTo(options.known, req);
    const path = shorten(redactPath(req.url ?? '', known), 200);
    const status = res.writableFinished ? res.statusCode : null;
    const ms = performance.now() - started;
    if (!json) return escapeControl(`${req.method} ${path} ${status ?? 'aborted'} ${ms.toFixed(1)}ms`);
    const note = noted.get(req) ?? {};
    const shown = (text: string | undefined): string | null => (text === undefined ? null : redact(text, known));
    const record: JsonLogLine = {
      time: new Date().toISOString(),
      level: levelOf(status),
      request_id: shown(note.requestId),
      // With traces on, the call's own trace (continued or begun by its span); else a traceparent's.
      trace_id: traceIdShown(note.traceId ?? traceIdOf(req.headers.traceparent), known),
      operation: note.operation ?? null,
      method: shown(req.method ?? '') ?? '',
      path,
      status,
      duration_ms: Math.round(ms * 1000) / 1000,
      key_id: shown(note.keyId),
      plan: note.plan ?? null,
    };
    // JSON.stringify escapes every control character: nothing a client sends starts a line of its own.
    return JSON.stringify(record);
  };
  return {
    /** The socket's context, with a note for the engine's steps to fill when the line is JSON. */
    context(base: (incoming: IncomingMessage) => RequestContext): (incoming: IncomingMessage) => RequestContext {
      if (!json) return base;
      return (incoming) => {
        const note: Noted = {};
        noted.set(incoming, note);
        return { ...base(incoming), note };
      };
    },
    /** `answer`, noting the request id its answer carries (the client's own when well-formed). */
    answer(answer: AnswerFunction): AnswerFunction {
      if (!json) return answer;
      return async (request, context) => {
        const answered = await answer(request, context);
        const note: Noted | undefined = context?.note;
        if (note) note.requestId = answered.headers['x-request-id'];
        return answered;
      };
    },
    /** The listener, writing the line once the answer is sent or the connection is gone. */
    listener(next: (req: IncomingMessage, res: ServerResponse) => unknown) {
      return (req: IncomingMessage, res: ServerResponse): void => {
        const started = performance.now();
        res.once('close', () => options.log(line(req, res, started)));
        next(req, res);
      };
    },
  };
}
