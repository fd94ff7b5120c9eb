/**
 * The mock's tracing Wrapper (start-mock.ts puts it outermost when traces are on): one SERVER span
 * per call of the data API, continuing the request's W3C `traceparent`, named and described as
 * OpenTelemetry's HTTP conventions say (`GET /api/v1/firms/{slug}`: the contract's route, never the
 * path), with a child span per step of the engine (`TracedStep`: authenticate, incident, validate,
 * rate, admit, read, charge, envelope, journal). Never a key, a header or the query: the key's id
 * and plan are attributes, the path is written with keys blanked as the log writes it.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { operations } from '@investor-graph/contract';
import { bearerOf, redactPath, type KnownKeys } from '@investor-graph/cli/redact';
import type { Answer, RequestContext, Wrapper } from '@investor-graph/engine/adapter';
import { pathUnder } from '@investor-graph/engine/adapter';
import type { TracingParts } from './tracing-types.ts';

type CallTrace = NonNullable<RequestContext['trace']>;
type Step = Parameters<CallTrace['step']>[0];

const CONTROL_URL = pathUnder('/__control');
/** The contract's path template of each operation: `http.route`, and the span's name after the method. */
const routes = new Map(operations.map((op) => [op.operationId, op.path]));
/** The methods OpenTelemetry's HTTP conventions name; any other is `_OTHER`, the sent one beside it. */
const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT']);

/** `http.request.method` (and `http.request.method_original` for one the conventions do not name). */
export function methodAttributes(method: string): Attributes {
  return knownMethods.has(method)
    ? { 'http.request.method': method }
    : { 'http.request.method': '_OTHER', 'http.request.method_original': method.slice(0, 32) };
}

/** The path of a request's URL, without its query, read without building a URL. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const end = url.search(/[?#]/);
  return url.slice(start, end === -1 ? undefined : end);
}

/**
 * The engine's steps as child spans of the call's. They run one after another: a step still open when
 * the next begins (the journal's, after a problem) or when the call ends is the one that threw, ended as failed.
 */
class StepSpans implements CallTrace {
  private readonly open = new Set<Span>();
  private readonly parts: TracingParts;
  private readonly parent: Context;
  private readonly note: NonNullable<RequestContext['note']>;

  constructor(parts: TracingParts, parent: Context, note: NonNullable<RequestContext['note']>) {
    this.parts = parts;
    this.parent = parent;
    this.note = note;
  }

  step(name: Step): () => void {
    this.close();
    const span = this.parts.tracer.startSpan(name, { kind: SpanKind.INTERNAL }, this.parent);
    this.open.add(span);
    return () => {
      this.open.delete(span);
      span.end();
    };
  }

  /** Ends the step a throw left open, with the problem it became. */
  close(problem = this.note.problem): void {
    if (this.open.size === 0) return;
    for (const span of this.open) {
      span.setStatus({ code: SpanStatusCode.ERROR, ...(problem ? { message: problem } : {}) });
      span.end();
    }
    this.open.clear();
  }
}

/** What the call's span says once it is answered, from the answer and what the steps noted. */
function answered(span: Span, method: string, answer: Answer, note: NonNullable<RequestContext['note']>): void {
  const route = note.operation === undefined ? undefined : routes.get(note.operation);
  if (route) span.updateName(`${method} ${route}`);
  const attributes: Attributes = {
    ...(route ? { 'http.route': route } : {}),
    ...(answer.status ? { 'http.response.status_code': answer.status } : {}),
    'investor_graph.operation': note.operation,
    'investor_graph.request_id': answer.headers['x-request-id'],
    'investor_graph.key_id': note.keyId,
    'investor_graph.plan': note.plan,
    'investor_graph.problem': note.problem,
    'investor_graph.incident': note.incident,
    'investor_graph.rows_served': note.rowsServed,
    'investor_graph.rows_charged': note.rowsCharged,
  };
  span.setAttributes(attributes);
  // A server's span fails on its own failures (5xx) and a connection an incident cut; a 4xx is the client's.
  if (answer.status >= 500 || (answer.delivery && 'cut' in answer.delivery)) {
    span.setAttribute('error.type', note.problem ?? (answer.status ? String(answer.status) : 'connection_cut'));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

/** One SERVER span per call of the data API (the control plane's are not traced), its steps as children. */
export function tracingWrapper(parts: TracingParts, known: KnownKeys): Wrapper {
  return (next) =>
    async (request, context = {}) => {
      if (CONTROL_URL.test(request.url)) return next(request, context);
      const method = request.method;
      const path = pathOf(request.url);
      const parent = parts.extract(request.headers);
      const span = parts.tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            ...methodAttributes(method),
            'url.path': redactPath(path, known.with(bearerOf(request.headers.get('authorization')))),
            'url.scheme': request.url.slice(0, request.url.indexOf(':')),
            ...(context.clientAddress ? { 'client.address': context.clientAddress } : {}),
          },
        },
        parent,
      );
      const note: NonNullable<RequestContext['note']> = context.note ?? {};
      const steps = new StepSpans(parts, trace.setSpan(parent, span), note);
      // The log line's trace id: the call's trace, continued or begun here.
      note.traceId = span.spanContext().traceId;
      try {
        const answer = await next(request, { ...context, note, trace: steps });
        steps.close();
        answered(span, method, answer, note);
        return answer;
      } catch (error) {
        // The engine answers its own failures: what reaches here is an adapter's wrapper failing.
        steps.close('internal_error');
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    };
}
