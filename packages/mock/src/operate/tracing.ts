/**
 * Traces, turned on the standard way: OpenTelemetry's environment variables, read here and nowhere
 * else. On only when an OTLP endpoint is given (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or
 * OTEL_EXPORTER_OTLP_ENDPOINT with `/v1/traces` added), off when OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER names no `otlp`; sampled as OTEL_TRACES_SAMPLER says. The SDK (tracing-sdk.ts
 * and the @opentelemetry packages) is imported only then: a mock or proxy without traces never
 * loads a module of it, so pays nothing.
 */
import type { SamplerName, Tracing, TracingSettings } from './tracing-types.ts';

export type { Tracing, TracingSettings };

type Env = Readonly<Record<string, string | undefined>>;

// Here, not in tracing-types.ts: a value there would load that module with traces off.
const samplerNames: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

const number = (text: string | undefined): number | undefined =>
  text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined;

/** The traces' URL the OTLP exporters derive from the environment (the spec's rules), or null. */
function tracesUrl(env: Env): string | null {
  const own = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : null;
}

/** OTEL_TRACES_SAMPLER and _ARG as the spec reads them: a name it does not list, or a ratio outside 0-1, is said. */
function samplerOf(env: Env, program: string, say: (line: string) => void): TracingSettings['sampler'] {
  const given = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const name = (samplerNames as readonly string[]).includes(given) ? (given as SamplerName) : 'parentbased_always_on';
  if (name !== given)
    say(`[${program}] OTEL_TRACES_SAMPLER=${given} is not a sampler of the spec: parentbased_always_on`);
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg === undefined || arg === '' ? 1 : Number(arg);
  if (!name.endsWith('traceidratio')) return { name, ratio: 1 };
  if (Number.isFinite(ratio) && ratio >= 0 && ratio <= 1) return { name, ratio };
  say(`[${program}] OTEL_TRACES_SAMPLER_ARG=${arg} is no ratio from 0 to 1: every trace is sampled (1)`);
  return { name, ratio: 1 };
}

/**
 * The settings traces are on with, or null when `env` leaves them off. `program` is the default
 * service name (`investor-graph-mock`, `investor-graph-proxy`), `say` where a setting not taken is said.
 */
export function tracingSettings(env: Env, program: string, say: (line: string) => void): TracingSettings | null {
  const url = tracesUrl(env);
  if (url === null || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((e) => e.trim().toLowerCase());
  if (!exporters.includes('otlp')) {
    if (!exporters.every((e) => e === 'none' || e === ''))
      say(`[${program}] OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER}: only otlp is supported; traces are off`);
    return null;
  }
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
  // @opentelemetry/exporter-trace-otlp-http sends JSON, which every OTLP/HTTP receiver takes.
  if (protocol !== undefined && protocol.trim() !== 'http/json')
    say(`[${program}] OTLP protocol ${protocol} is not taken: traces go to ${url} over HTTP as JSON (http/json)`);
  const batch = {
    scheduledDelayMillis: number(env.OTEL_BSP_SCHEDULE_DELAY),
    maxQueueSize: number(env.OTEL_BSP_MAX_QUEUE_SIZE),
    maxExportBatchSize: number(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE),
    exportTimeoutMillis: number(env.OTEL_BSP_EXPORT_TIMEOUT),
  };
  return {
    url,
    program,
    ...(env.OTEL_SERVICE_NAME?.trim() ? { serviceName: env.OTEL_SERVICE_NAME.trim() } : {}),
    ...(env.OTEL_RESOURCE_ATTRIBUTES ? { resourceAttributes: env.OTEL_RESOURCE_ATTRIBUTES } : {}),
    batch: Object.fromEntries(Object.entries(batch).filter(([, n]) => n !== undefined)),
    sampler: samplerOf(env, program, say),
    say,
  };
}

/** Traces as `env` sets them: the SDK loaded and started, or undefined (off) with nothing loaded. */
export async function startTracing(
  env: Env,
  program: string,
  say: (line: string) => void = (line) => console.error(line),
): Promise<Tracing | undefined> {
  const settings = tracingSettings(env, program, say);
  if (!settings) return undefined;
  const { openTracing } = await import('./tracing-sdk.ts');
  const tracing = openTracing(settings);
  say(`[${program}] traces: a span per call, with its steps, to ${settings.url} (OTLP/HTTP, JSON)`);
  return tracing;
}
