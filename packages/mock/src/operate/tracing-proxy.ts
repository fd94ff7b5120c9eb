/**
 * The validation proxy's traces (proxy-command.ts wraps the proxy's fetch and its call upstream when
 * traces are on): a SERVER span per exchange, continuing the client's `traceparent`, and a CLIENT
 * span for the call to the service, its child, whose own `traceparent` is the one sent upstream (in
 * place of the client's), so the service's spans hang under the proxy's. The proxy itself is not
 * changed: the exchange's span reaches its call upstream through an async-local context.
 */
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { operationFor } from '@investor-graph/contract';
import { bearerOf, redactPath } from '@investor-graph/cli/redact';
import type { TracingParts } from './tracing-types.ts';
import { methodAttributes, pathOf } from './tracing-wrapper.ts';

/** The span's status as HTTP's conventions give it: a SERVER span fails on a 5xx, a CLIENT span on a 4xx too. */
function statusOf(span: Span, status: number, failsFrom: number): void {
  span.setAttribute('http.response.status_code', status);
  if (status < failsFrom) return;
  span.setAttribute('error.type', String(status));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** The contract's route of a method and path (HEAD read as its GET), when it has one. */
const routeOf = (method: string, path: string): string | undefined =>
  operationFor(method === 'HEAD' ? 'GET' : method, path)?.path;

/** The proxy's `fetch`, one SERVER span an exchange, which its call upstream (below) runs inside. */
export function tracedExchange(
  parts: TracingParts,
  fetch: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const path = pathOf(request.url);
    const route = routeOf(request.method, path);
    const parent = parts.extract(request.headers);
    const own = bearerOf(request.headers.get('authorization'));
    const span = parts.tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          ...methodAttributes(request.method),
          ...(route ? { 'http.route': route } : {}),
          'url.path': redactPath(path, own ? [own] : []),
        },
      },
      parent,
    );
    try {
      const response = await parts.contexts.with(trace.setSpan(parent, span), () => fetch(request));
      statusOf(span, response.status, 500);
      return response;
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  };
}

/** The proxy's call upstream, one CLIENT span each, its `traceparent` sent instead of the client's. */
export function tracedUpstream(parts: TracingParts, send: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : input);
    const method = init?.method ?? 'GET';
    const parent = parts.contexts.active();
    const own = bearerOf(new Headers(init?.headers).get('authorization'));
    const route = routeOf(method, target.pathname);
    const span = parts.tracer.startSpan(
      route ? `${method} ${route}` : method,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...methodAttributes(method),
          'server.address': target.hostname,
          'server.port': Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
          // The full URL without its query (a cursor, a filter), the path's keys blanked.
          'url.full': `${target.origin}${redactPath(target.pathname, own ? [own] : [])}`,
        },
      },
      parent,
    );
    const headers = new Headers(init?.headers);
    // The client's trace context is replaced, not added to: the service's parent is this span.
    headers.delete('traceparent');
    headers.delete('tracestate');
    parts.inject(trace.setSpan(parent, span), headers);
    try {
      const response = await send(input, { ...init, headers });
      statusOf(span, response.status, 400);
      return response;
    } catch (error) {
      span.setAttribute('error.type', (error as Error).name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  };
}
