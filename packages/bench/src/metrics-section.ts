/**
 * The mock with its metrics on (the default) against `--no-metrics` (the mock before #69's
 * metrics, less one regex test a call), and with tracing on besides (OTLP/HTTP to a receiver in
 * this process that takes every export and keeps nothing), on the throughput section's record and
 * page: alternating rounds, the order of the three turned each round, so a slow spell of the
 * machine falls on all. The targets (#69): with metrics on, req/s within 5% of without; tracing's
 * cost is said, not held to a number. The server's CPU a call is beside req/s: req/s on two shared
 * CPUs mixes the server's work with the client's, its CPU a call does not.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  auth,
  connections,
  duration,
  load,
  log,
  measuredOn,
  ratio,
  rounds,
  startMock,
  writeResults,
  type Load,
} from './setup.ts';
import { logTargets } from './throughput-section.ts';
import { spread, type Spread } from './state.ts';

const kinds = ['on', 'off', 'traced'] as const;
const names = ['record', 'page'] as const;
type Kind = (typeof kinds)[number];
type Name = (typeof names)[number];
type Ratio = { median: number; low: number; high: number };

export interface MetricsFigures {
  rps: Record<Kind, Record<Name, Spread>>;
  /** The mock's CPU a call, µs (user and system over each measured run). */
  cpuUs: Record<Kind, Record<Name, Spread>>;
  /** On over off, and traced over on: the medians' ratio, and the lowest and highest of the rounds' own. */
  ratio: Record<Name, Ratio>;
  traced: Record<Name, Ratio>;
  /** Spans the receiver took from the traced mock (none: tracing did not run, and its figures mean nothing). */
  spans: number;
}

/** An OTLP/HTTP receiver that answers every export 200 and counts what it took (JSON: its spans). */
async function startSink(): Promise<{ url: string; spans: () => number; close: () => Promise<void> }> {
  let spans = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      spans += (
        Buffer.concat(chunks)
          .toString('latin1')
          .match(/"spanId"/g) ?? []
      ).length;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The rounds' ratios of `a` over `b` for one request, and the ratio of their medians. */
function ratioOf(median: (s: Spread) => number, a: Spread, b: Spread, perRound: number[]): Ratio {
  return { median: ratio(median(a), median(b)), low: Math.min(...perRound), high: Math.max(...perRound) };
}

export async function metricsSection(): Promise<MetricsFigures> {
  const sink = await startSink();
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'investor-graph-mock-bench' };
  const mocks = {
    on: await startMock([]),
    off: await startMock(['--no-metrics']),
    traced: await startMock([], traced),
  };
  try {
    const page = await fetch(`${mocks.on.url}/api/v1/firms?limit=1`, { headers: auth });
    const slug = ((await page.json()) as { data: { slug: string }[] }).data[0]!.slug;
    const paths = { record: `/api/v1/firms/${slug}`, page: '/api/v1/companies?limit=100' };
    const runs = Object.fromEntries(kinds.map((k) => [k, { record: [] as Load[], page: [] as Load[] }])) as Record<
      Kind,
      Record<Name, Load[]>
    >;
    for (let round = 0; round < rounds; round++)
      for (const name of names)
        for (const kind of [...kinds.slice(round % 3), ...kinds.slice(0, round % 3)]) {
          const t = await load(`${mocks[kind].url}${paths[name]}`, auth, round > 0, mocks[kind].cpuMs);
          runs[kind][name].push(t);
          log(
            `metrics round ${round + 1}/${rounds} ${name.padEnd(6)} ${kind.padEnd(6)} ${t.rps} req/s  ` +
              `p99 ${t.p99} ms  CPU ${t.cpuUs ?? '?'} µs a call`,
          );
        }
    const of = (kind: Kind, figure: (l: Load) => number) =>
      Object.fromEntries(names.map((n) => [n, spread(runs[kind][n].map(figure))])) as Record<Name, Spread>;
    const rps = { on: of('on', (l) => l.rps), off: of('off', (l) => l.rps), traced: of('traced', (l) => l.rps) };
    const cpu = (l: Load) => l.cpuUs ?? NaN;
    const cpuUs = { on: of('on', cpu), off: of('off', cpu), traced: of('traced', cpu) };
    const rounded = (a: Kind, b: Kind, n: Name) => runs[a][n].map((l, i) => ratio(l.rps, runs[b][n][i]!.rps));
    const byName = (a: Kind, b: Kind) =>
      Object.fromEntries(
        names.map((n) => [n, ratioOf((s) => s.median, rps[a][n], rps[b][n], rounded(a, b, n))]),
      ) as Record<Name, Ratio>;
    return { rps, cpuUs, ratio: byName('on', 'off'), traced: byName('traced', 'on'), spans: sink.spans() };
  } finally {
    await Promise.all([mocks.on.stop(), mocks.off.stop(), mocks.traced.stop()]);
    await sink.close();
  }
}

/** The target: with metrics on, at least 95% of the req/s without, on the record and the page. */
export const metricsTargets = (f: MetricsFigures) => ({
  'metrics on >= 0.95x metrics off req/s on the record': f.ratio.record.median >= 0.95,
  'metrics on >= 0.95x metrics off req/s on the 100-row page': f.ratio.page.median >= 0.95,
});

const range = (s: Spread) => `${s.median} (${s.low}-${s.high})`;

export const metricsLines = (f: MetricsFigures): string[] => [
  ...names.map(
    (n) =>
      `${n.padEnd(6)} on ${range(f.rps.on[n])} req/s, off ${range(f.rps.off[n])}: ` +
      `${f.ratio[n].median}x (rounds ${f.ratio[n].low}-${f.ratio[n].high}); ` +
      `CPU a call on ${range(f.cpuUs.on[n])} µs, off ${range(f.cpuUs.off[n])}`,
  ),
  ...names.map(
    (n) =>
      `${n.padEnd(6)} traced ${range(f.rps.traced[n])} req/s: ${f.traced[n].median}x of on ` +
      `(rounds ${f.traced[n].low}-${f.traced[n].high}); CPU a call ${range(f.cpuUs.traced[n])} µs`,
  ),
  `the receiver took ${f.spans} spans from the traced mock${f.spans ? '' : ': tracing did not run'}`,
];

/** `--only metrics`: measures, writes the figures and logs them with the targets. */
export async function metricsAlone(): Promise<void> {
  const figures = await metricsSection();
  const targets = metricsTargets(figures);
  const settings = { client: 'autocannon 9.0.0', connections, duration_s: duration, rounds };
  writeResults({ ...measuredOn(), settings, metrics: figures, targets });
  for (const line of metricsLines(figures)) log(line);
  logTargets(targets);
}
