/**
 * A real OpenTelemetry Collector for the trace tests (otelcol-tool.ts builds it; `pnpm test` does so
 * before the tests): its OTLP/HTTP receiver on a free loopback port, its file exporter writing each
 * batch it receives as one line of OTLP JSON into a folder of the test's own, read back as spans.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findGoTool } from '@investor-graph/cli/go-tool';
import { otelcolTool } from './otelcol-tool.ts';

/** One attribute as OTLP JSON writes it (64-bit integers as strings). */
export interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string; boolValue?: boolean; doubleValue?: number };
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  startTimeUnixNano: string;
  attributes?: OtlpAttribute[];
  status?: { code?: number; message?: string };
}
/** A span with its service's name (the resource's `service.name`). */
export type ReceivedSpan = OtlpSpan & { service: string };

export interface Collector {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  endpoint: string;
  /** Every span the collector has written so far, and the bytes it wrote. */
  received(): { spans: ReceivedSpan[]; bytes: string };
  /** Waits (20 s at most) until `found` holds of what was received, and gives that. */
  until(found: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]>;
  stop(): Promise<void>;
}

/** The value of attribute `key` of a span, as text (integers are text in OTLP JSON), or undefined. */
export function attribute(span: { attributes?: OtlpAttribute[] }, key: string): string | boolean | number | undefined {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A running collector, or why there is none to start (not built, no Go): the test skips saying so. */
export async function startCollector(): Promise<Collector | { why: string }> {
  const found = findGoTool(otelcolTool);
  if (!found || 'missing' in found)
    return { why: found?.missing ?? 'the collector is not built (pnpm test builds it; OTELCOL_BIN names one)' };
  const dir = mkdtempSync(join(tmpdir(), 'ig-otelcol-'));
  const port = await freePort();
  const file = join(dir, 'traces.jsonl');
  // The collector's own metrics off: they would listen on :8888, which another run may hold.
  writeFileSync(
    join(dir, 'config.yaml'),
    `receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${port}
exporters:
  file:
    path: ${file}
    format: json
    flush_interval: 50ms
service:
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file]
`,
  );
  const child: ChildProcess = spawn(found.bin, ['--config', join(dir, 'config.yaml')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  for (let tries = 0; !(await accepts(port)); tries++) {
    if (child.exitCode !== null || tries > 200) {
      child.kill('SIGKILL');
      throw new Error(`the collector did not start on 127.0.0.1:${port}:\n${output}`);
    }
    await pause(50);
  }
  const received = () => {
    let bytes = '';
    try {
      bytes = readFileSync(file, 'utf8');
    } catch {
      // Nothing written yet.
    }
    const spans = bytes
      .split('\n')
      .filter(Boolean)
      // The last line may be a batch the collector is still writing: read again on the next try.
      .filter((line) => {
        try {
          JSON.parse(line);
          return true;
        } catch {
          return false;
        }
      })
      .flatMap((line) =>
        (
          JSON.parse(line) as {
            resourceSpans: { resource: { attributes?: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
          }
        ).resourceSpans.flatMap((r) =>
          r.scopeSpans.flatMap((s) =>
            s.spans.map((span) => ({ ...span, service: `${attribute(r.resource, 'service.name')}` })),
          ),
        ),
      );
    return { spans, bytes };
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    async until(found) {
      for (let tries = 0; tries < 400; tries++) {
        const { spans } = received();
        if (found(spans)) return spans;
        await pause(50);
      }
      throw new Error(`the collector did not receive the spans looked for: ${JSON.stringify(received().spans)}`);
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
