// @module-tag servers
/**
 * Traces (#69) received by a real OpenTelemetry Collector (collector.test-support.ts: its OTLP/HTTP
 * receiver, its file exporter's OTLP JSON): the mock's CLI, turned on by OTEL_EXPORTER_OTLP_ENDPOINT
 * alone, continues a call's W3C traceparent in one SERVER span with the engine's steps as children,
 * sends it when stopped, and puts no key in any byte of it; the proxy's exchange and its call upstream
 * hang between the client's span and the mock's. Skipped, saying why, where the collector is not built.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock } from '../node.ts';
import { killAll, startWith, stop } from '../cli/cli-process.test-support.ts';
import { attribute, startCollector, type Collector, type ReceivedSpan } from './collector.test-support.ts';
import { startTracing } from './tracing.ts';

const team = newKeyText('team');
let collector: Collector | undefined;
let why = '';

beforeAll(async () => {
  const started = await startCollector();
  if ('why' in started) why = started.why;
  else collector = started;
});
afterAll(async () => {
  killAll();
  await collector?.stop();
});

/** A sampled W3C traceparent of a client's span: its trace id and span id, fresh for each test. */
function clientSpan() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** Every form of a key a careless exporter could carry it in. */
const forms = (key: string) => [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)];
/** The spans whose parent is `parent`, in the order they started. */
const childrenOf = (spans: readonly ReceivedSpan[], parent: ReceivedSpan) =>
  spans
    .filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId)
    .sort((a, b) => Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)));

test('a keyed call with a traceparent reaches the collector as one server span with its steps', async (context) => {
  if (!collector) return context.skip(why);
  const sent = clientSpan();
  const mock = await startWith(
    { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_SERVICE_NAME: 'mock-under-test' },
    '--key',
    `team=${team}`,
    '--log',
    'json',
  );
  const headers = { authorization: `Bearer ${team}`, traceparent: sent.traceparent };
  const answer = await fetch(`${mock.url}/api/v1/firms?limit=2`, { headers });
  expect(answer.status).toBe(200);
  // The mock's answer is not changed by tracing: no trace header comes back.
  expect([...answer.headers.keys()].filter((name) => /^trace/.test(name))).toEqual([]);
  await answer.arrayBuffer();
  // A key sent in the path (by mistake) is blanked in the span's url.path, as in the log; no slug has its form.
  expect((await fetch(`${mock.url}/api/v1/firms/${team}`, { headers })).status).toBe(400);
  // A call without a traceparent begins a trace of its own, which its log line names.
  const alone = await fetch(`${mock.url}/api/v1/companies?limit=1`, {
    headers: { authorization: headers.authorization },
  });
  expect(alone.status).toBe(200);
  await alone.arrayBuffer();
  // The spans are held in a batch: stopping the mock sends them.
  expect(await stop(mock.child)).toBe(0);
  expect(mock.output()).toContain(`traces: a span per call, with its steps, to ${collector.endpoint}/v1/traces`);

  const spans = await collector.until((all) => all.filter((s) => s.traceId === sent.traceId).length >= 2);
  const servers = spans.filter((s) => s.traceId === sent.traceId && s.kind === 2);
  expect(servers.map((s) => s.name).sort()).toEqual(['GET /api/v1/firms', 'GET /api/v1/firms/{slug}']);
  const call = servers.find((s) => s.name === 'GET /api/v1/firms')!;
  expect(call.parentSpanId).toBe(sent.spanId);
  expect(call.service).toBe('mock-under-test');
  expect(attribute(call, 'http.request.method')).toBe('GET');
  expect(attribute(call, 'http.route')).toBe('/api/v1/firms');
  expect(attribute(call, 'http.response.status_code')).toBe('200');
  expect(attribute(call, 'url.path')).toBe('/api/v1/firms');
  expect(attribute(call, 'investor_graph.operation')).toBe('listFirms');
  expect(attribute(call, 'investor_graph.plan')).toBe('team');
  expect(attribute(call, 'investor_graph.rows_served')).toBe('2');
  expect(childrenOf(spans, call).map((s) => s.name)).toEqual([
    'authenticate',
    'incident',
    'validate',
    'rate',
    'admit',
    'read',
    'charge',
    'envelope',
    'journal',
  ]);
  const missed = servers.find((s) => s !== call)!;
  expect(attribute(missed, 'http.response.status_code')).toBe('400');
  expect(attribute(missed, 'url.path')).toMatch(/^\/api\/v1\/firms\/.+/);
  // The step that refused the call is the one failed, with the problem it became; none after it but the journal ran.
  const steps = childrenOf(spans, missed);
  expect(steps.map((s) => s.name)).toEqual(['authenticate', 'incident', 'validate', 'journal']);
  expect(steps.map((s) => s.status?.code ?? 0)).toEqual([0, 0, 2, 0]);
  expect(steps[2]!.status?.message).toBe(attribute(missed, 'investor_graph.problem'));
  for (const form of forms(team)) expect(collector.received().bytes).not.toContain(form);
  // The log lines name the same traces: the one continued, and the one begun.
  const logged = (operation: string) =>
    (
      JSON.parse(
        mock
          .output()
          .split('\n')
          .find((l) => l.includes(`"${operation}"`))!,
      ) as { trace_id: string }
    ).trace_id;
  expect(logged('listFirms')).toBe(sent.traceId);
  const begun = logged('listCompanies');
  expect(begun).toMatch(/^[0-9a-f]{32}$/);
  const own = await collector.until((all) => all.some((s) => s.traceId === begun));
  expect(own.find((s) => s.traceId === begun && s.kind === 2)).toMatchObject({ name: 'GET /api/v1/companies' });
  expect(own.find((s) => s.traceId === begun && s.kind === 2)?.parentSpanId ?? '').toBe('');
});

test("the proxy's span continues the client's trace, its upstream call the parent of the mock's", async (context) => {
  if (!collector) return context.skip(why);
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint };
  const tracing = await startTracing(env, 'investor-graph-mock', () => undefined);
  let upstream: RunningMock | undefined;
  try {
    upstream = await startMock({ port: 0, keys: [{ plan: 'team', key: team }], tracing });
    const proxy = await startWith(env, 'proxy', upstream.url, '--report', '/dev/null', '--junit', '/dev/null');
    const sent = clientSpan();
    const answer = await fetch(`${proxy.url}/api/v1/firms?limit=1`, {
      headers: { authorization: `Bearer ${team}`, traceparent: sent.traceparent },
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    await stop(proxy.child);
    await upstream.close();
    upstream = undefined;
    const spans = await collector.until((all) => all.filter((s) => s.traceId === sent.traceId).length >= 3);
    const ours = spans.filter((s) => s.traceId === sent.traceId && s.kind !== 1);
    const exchange = ours.find((s) => s.service === 'investor-graph-proxy' && s.kind === 2)!;
    const client = ours.find((s) => s.kind === 3)!;
    const served = ours.find((s) => s.service === 'investor-graph-mock' && s.kind === 2)!;
    expect(exchange).toMatchObject({ name: 'GET /api/v1/firms', parentSpanId: sent.spanId });
    expect(attribute(exchange, 'http.response.status_code')).toBe('200');
    expect(client).toMatchObject({ service: 'investor-graph-proxy', parentSpanId: exchange.spanId });
    expect(served).toMatchObject({ name: 'GET /api/v1/firms', parentSpanId: client.spanId });
    for (const form of forms(team)) expect(collector.received().bytes).not.toContain(form);
  } finally {
    await upstream?.close();
    await tracing?.shutdown();
  }
});

/**
 * The modules of traces the CLI's process resolves, with `env` added, over one keyed call: the
 * OpenTelemetry SDK's and the mock's own (operate/tracing-*.ts). A module hook (node:module's
 * registerHooks) preloaded with --import writes down each it resolves. @opentelemetry/api is not
 * counted: prom-client (the metrics) loads it whatever the traces, for exemplars.
 */
async function otelModulesLoaded(env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ig-otel-modules-'));
  try {
    const seen = join(dir, 'seen.txt');
    writeFileSync(seen, '');
    const hook = join(dir, 'hook.mjs');
    writeFileSync(
      hook,
      `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (/@opentelemetry\\/(?!api\\/)|tracing-[a-z]+\\.ts$/.test(resolved.url))
      appendFileSync(${JSON.stringify(seen)}, resolved.url + '\\n');
    return resolved;
  },
});
`,
    );
    const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(hook).href}`.trim();
    const mock = await startWith({ ...env, NODE_OPTIONS: nodeOptions }, '--key', `team=${team}`);
    const answer = await fetch(`${mock.url}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${team}` } });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    expect(await stop(mock.child)).toBe(0);
    return readFileSync(seen, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("without an OTLP endpoint, or with OTEL_SDK_DISABLED, no module of OpenTelemetry's SDK is loaded", async () => {
  expect(await otelModulesLoaded({})).toEqual([]);
  // An endpoint and the SDK disabled: off, as the specification says.
  expect(
    await otelModulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SDK_DISABLED: 'true' }),
  ).toEqual([]);
  // The hook sees them when tracing is on (port 9 refuses: the export fails, said once, and the mock goes on).
  const on = await otelModulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
  for (const loaded of ['@opentelemetry/sdk-trace/', '@opentelemetry/exporter-trace-otlp-http/', 'tracing-sdk.ts'])
    expect(on.some((url) => url.includes(loaded))).toBe(true);
});
