/**
 * The OpenTelemetry SDK the mock and the proxy trace with, imported by tracing.ts only when traces
 * are on: a TracerProvider with a batch processor and the OTLP/HTTP exporter, the W3C trace context
 * propagator, and (for the proxy's upstream span) an async-local context. Nothing is registered
 * globally: several mocks in one process (tests) each keep their own provider.
 */
import { ROOT_CONTEXT, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, parseKeyPairsIntoRecord, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import type { HeaderReader, Tracing, TracingParts, TracingSettings } from './tracing-types.ts';
import { tracingWrapper } from './tracing-wrapper.ts';
import { tracedExchange, tracedUpstream } from './tracing-proxy.ts';

const getter: TextMapGetter<HeaderReader> = {
  get: (headers, name) => headers.get(name) ?? undefined,
  keys: () => [],
};
const setter: TextMapSetter<Headers> = { set: (headers, name, value) => headers.set(name, value) };

/** An exporter that says once, on stderr, that spans could not be sent, and why: else the loss is silent. */
function sayingFailures(exporter: SpanExporter, settings: TracingSettings): SpanExporter {
  let said = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS && !said) {
          said = true;
          settings.say(
            `[${settings.program}] traces could not be sent to ${settings.url} ` +
              `(${result.error?.message ?? 'failed'}); said once, the spans of such exports are dropped`,
          );
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** The SDK's sampler for OTEL_TRACES_SAMPLER's name (the spec's table): a parent's decision first where it says so. */
export function samplerFor({ name, ratio }: TracingSettings['sampler']): Sampler {
  const root = name.endsWith('always_off')
    ? new AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new TraceIdRatioBasedSampler(ratio)
      : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/** Starts the SDK as `settings` say (tracing.ts reads them from the environment). */
export function openTracing(settings: TracingSettings): Tracing {
  const attributes = {
    'service.name': settings.program,
    ...parseKeyPairsIntoRecord(settings.resourceAttributes),
    ...(settings.serviceName ? { 'service.name': settings.serviceName } : {}),
  };
  const exporter = sayingFailures(new OTLPTraceExporter({ url: settings.url }), settings);
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes(attributes)),
    sampler: samplerFor(settings.sampler),
    spanProcessors: [new BatchSpanProcessor({ exporter, ...settings.batch })],
  });
  const propagator = new W3CTraceContextPropagator();
  const contexts = new AsyncLocalStorageContextManager().enable();
  const parts: TracingParts = {
    tracer: provider.getTracer('@investor-graph/mock'),
    extract: (headers) => propagator.extract(ROOT_CONTEXT, headers, getter),
    inject: (context, headers) => propagator.inject(context, headers, setter),
    contexts,
  };
  let stopped: Promise<void> | undefined;
  return {
    url: settings.url,
    wrapper: (known) => tracingWrapper(parts, known),
    exchange: (fetch) => tracedExchange(parts, fetch),
    upstream: (send) => tracedUpstream(parts, send),
    shutdown: () =>
      (stopped ??= provider.shutdown().finally(() => {
        contexts.disable();
      })),
  };
}
