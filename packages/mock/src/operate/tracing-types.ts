/**
 * The shapes traces are made of (tracing.ts reads the settings, tracing-sdk.ts makes the rest), in a
 * file of their own so the modules that use them import none of the SDK's code to name them.
 */
import type { Context, Tracer } from '@opentelemetry/api';
import type { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { KnownKeys } from '@investor-graph/cli/redact';
import type { Wrapper } from '@investor-graph/engine/adapter';

/** What tracing-sdk.ts is started with: read from the environment by `tracingSettings`. */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL the spans are sent to, as JSON. */
  url: string;
  /** The program's own name, service.name unless OTEL_RESOURCE_ATTRIBUTES or OTEL_SERVICE_NAME (first) names one. */
  program: string;
  serviceName?: string;
  /** OTEL_RESOURCE_ATTRIBUTES as given (`key=value,...`, percent-encoded). */
  resourceAttributes?: string;
  /** The batch processor's OTEL_BSP_* numbers, where given. */
  batch: {
    scheduledDelayMillis?: number;
    maxQueueSize?: number;
    maxExportBatchSize?: number;
    exportTimeoutMillis?: number;
  };
  /** OTEL_TRACES_SAMPLER and its OTEL_TRACES_SAMPLER_ARG (a ratio), parentbased_always_on unless given. */
  sampler: { name: SamplerName; ratio: number };
  /** Where what traces do is said (stderr): the start, a setting not taken, the first export that failed. */
  say: (line: string) => void;
}

/** The samplers OTEL_TRACES_SAMPLER names, as the OpenTelemetry SDK specification lists them. */
export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

/** Request headers as both paths of the Node server hand them on (a WHATWG Headers, the fast path's own). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What the wrapper and the proxy's spans are made with. */
export interface TracingParts {
  tracer: Tracer;
  /** The trace a request's `traceparent` and `tracestate` continue; the root when it has none, or a malformed one. */
  extract(headers: HeaderReader): Context;
  /** `traceparent` (and `tracestate`) of `context`'s span, into headers that go on. */
  inject(context: Context, headers: Headers): void;
  /** The proxy's exchange, across its awaits: its upstream span is the exchange span's child. */
  contexts: AsyncLocalStorageContextManager;
}

/** Traces as they run: a Wrapper for the mock, two for the proxy, and the shutdown that sends what is left. */
export interface Tracing {
  /** The traces' URL, for the start line. */
  readonly url: string;
  /** The mock's tracing Wrapper, keys blanked from a path by `known` (and the request's own). */
  wrapper(known: KnownKeys): Wrapper;
  /** The proxy's exchange, one SERVER span each. */
  exchange(fetch: (request: Request) => Promise<Response>): (request: Request) => Promise<Response>;
  /** The proxy's call upstream, one CLIENT span each, whose `traceparent` it sends. */
  upstream(send: typeof globalThis.fetch): typeof globalThis.fetch;
  /** Sends the spans still held and stops (once; later calls wait for the same). */
  shutdown(): Promise<void>;
}
