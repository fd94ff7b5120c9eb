/**
 * When traces are on (#69): OpenTelemetry's environment variables as the specification reads them,
 * an endpoint turning them on, OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none turning them off, and
 * whatever is not taken said. traces.test.ts sends them to a real collector.
 */
import { expect, test } from 'vitest';
import { startTracing, tracingSettings } from './tracing.ts';

function settings(env: Record<string, string>) {
  const said: string[] = [];
  return { got: tracingSettings(env, 'investor-graph-mock', (line) => said.push(line)), said };
}

test('no endpoint, no traces: startTracing loads nothing and answers undefined', async () => {
  expect(settings({}).got).toBeNull();
  expect(settings({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_EXPORTER: 'otlp' }).got).toBeNull();
  expect(await startTracing({}, 'investor-graph-mock')).toBeUndefined();
});

test('OTEL_EXPORTER_OTLP_ENDPOINT gets /v1/traces; the traces endpoint is taken as it is, and first', () => {
  expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).got?.url).toBe(
    'http://collector:4318/v1/traces',
  );
  const both = {
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom',
  };
  expect(settings(both).got?.url).toBe('http://traces:4318/custom');
});

test('OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn traces off; another exporter is said', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
  expect(settings({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' }).got).toBeNull();
  expect(settings({ ...endpoint, OTEL_SDK_DISABLED: 'false' }).got).not.toBeNull();
  const none = settings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' });
  expect([none.got, none.said]).toEqual([null, []]);
  const zipkin = settings({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' });
  expect(zipkin.got).toBeNull();
  expect(zipkin.said.join('\n')).toContain('only otlp is supported');
  expect(settings({ ...endpoint, OTEL_TRACES_EXPORTER: 'console, otlp' }).got).not.toBeNull();
});

test('the service name, resource attributes and batch numbers are passed on; a protocol not sent is said', () => {
  const { got, said } = settings({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    OTEL_SERVICE_NAME: ' mock-a ',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=staging',
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_BSP_MAX_QUEUE_SIZE: 'lots',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
  });
  expect(got).toMatchObject({
    program: 'investor-graph-mock',
    serviceName: 'mock-a',
    resourceAttributes: 'deployment.environment=staging',
    batch: { scheduledDelayMillis: 200 },
  });
  expect(got?.batch).not.toHaveProperty('maxQueueSize');
  expect(said.join('\n')).toContain('OTLP protocol grpc is not taken');
  expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).got).not.toHaveProperty('serviceName');
});

test('OTEL_TRACES_SAMPLER and its ratio are read as the spec lists them; one not taken is said', async () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  expect(settings(endpoint).got?.sampler).toEqual({ name: 'parentbased_always_on', ratio: 1 });
  const ratio = settings({
    ...endpoint,
    OTEL_TRACES_SAMPLER: 'ParentBased_TraceIdRatio',
    OTEL_TRACES_SAMPLER_ARG: '0.1',
  });
  expect(ratio.got?.sampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.1 });
  const wrong = settings({ ...endpoint, OTEL_TRACES_SAMPLER: 'sometimes', OTEL_TRACES_SAMPLER_ARG: '2' });
  expect(wrong.got?.sampler).toEqual({ name: 'parentbased_always_on', ratio: 1 });
  expect(wrong.said.join('\n')).toContain('OTEL_TRACES_SAMPLER=sometimes is not a sampler of the spec');
  const badRatio = settings({ ...endpoint, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' });
  expect(badRatio.got?.sampler).toEqual({ name: 'traceidratio', ratio: 1 });
  expect(badRatio.said.join('\n')).toContain('OTEL_TRACES_SAMPLER_ARG=2 is no ratio');
  // The SDK's own samplers, as the SDK names them.
  const { samplerFor } = await import('./tracing-sdk.ts');
  expect(String(samplerFor({ name: 'traceidratio', ratio: 0.25 }))).toBe('TraceIdRatioBased{0.25}');
  expect(String(samplerFor({ name: 'parentbased_always_off', ratio: 1 }))).toMatch(
    /^ParentBased\{root=AlwaysOffSampler/,
  );
  expect(String(samplerFor({ name: 'always_on', ratio: 1 }))).toBe('AlwaysOnSampler');
});
