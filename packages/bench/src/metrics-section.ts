/**
 * The mock with its metrics on (the default) against `--no-metrics` (the mock before #69's
 * metrics, less one regex test a call) on the throughput section's record and page: alternating
 * rounds, the order of the two turned each round, so a slow spell of the machine falls on both.
 * The target (#69): with metrics on, req/s within 5% of without.
 */
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

const kinds = ['on', 'off'] as const;
const names = ['record', 'page'] as const;

export interface MetricsFigures {
  rps: Record<(typeof kinds)[number], Record<(typeof names)[number], Spread>>;
  /** On over off: the medians' ratio, and the lowest and highest of the rounds' own. */
  ratio: Record<(typeof names)[number], { median: number; low: number; high: number }>;
}

export async function metricsSection(): Promise<MetricsFigures> {
  const mocks = { on: await startMock([]), off: await startMock(['--no-metrics']) };
  try {
    const page = await fetch(`${mocks.on.url}/api/v1/firms?limit=1`, { headers: auth });
    const slug = ((await page.json()) as { data: { slug: string }[] }).data[0]!.slug;
    const paths = { record: `/api/v1/firms/${slug}`, page: '/api/v1/companies?limit=100' };
    const runs = {
      on: { record: [] as Load[], page: [] as Load[] },
      off: { record: [] as Load[], page: [] as Load[] },
    };
    for (let round = 0; round < rounds; round++)
      for (const name of names)
        for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
          const t = await load(`${mocks[kind].url}${paths[name]}`, auth, round > 0, mocks[kind].cpuMs);
          runs[kind][name].push(t);
          log(
            `metrics round ${round + 1}/${rounds} ${name.padEnd(6)} ${kind.padEnd(3)} ${t.rps} req/s  p99 ${t.p99} ms`,
          );
        }
    const rps = (kind: (typeof kinds)[number]) =>
      Object.fromEntries(names.map((n) => [n, spread(runs[kind][n].map((l) => l.rps))])) as MetricsFigures['rps']['on'];
    const both = { on: rps('on'), off: rps('off') };
    const perRound = (n: (typeof names)[number]) => runs.on[n].map((l, i) => ratio(l.rps, runs.off[n][i]!.rps));
    return {
      rps: both,
      ratio: Object.fromEntries(
        names.map((n) => [
          n,
          {
            median: ratio(both.on[n].median, both.off[n].median),
            low: Math.min(...perRound(n)),
            high: Math.max(...perRound(n)),
          },
        ]),
      ) as MetricsFigures['ratio'],
    };
  } finally {
    await Promise.all([mocks.on.stop(), mocks.off.stop()]);
  }
}

/** The target: with metrics on, at least 95% of the req/s without, on the record and the page. */
export const metricsTargets = (f: MetricsFigures) => ({
  'metrics on >= 0.95x metrics off req/s on the record': f.ratio.record.median >= 0.95,
  'metrics on >= 0.95x metrics off req/s on the 100-row page': f.ratio.page.median >= 0.95,
});

export const metricsLines = (f: MetricsFigures): string[] =>
  names.map(
    (n) =>
      `${n.padEnd(6)} on ${f.rps.on[n].median} (${f.rps.on[n].low}-${f.rps.on[n].high}) req/s, ` +
      `off ${f.rps.off[n].median} (${f.rps.off[n].low}-${f.rps.off[n].high}): ` +
      `${f.ratio[n].median}x (rounds ${f.ratio[n].low}-${f.ratio[n].high})`,
  );

/** `--only metrics`: measures, writes the figures and logs them with the targets. */
export async function metricsAlone(): Promise<void> {
  const figures = await metricsSection();
  const targets = metricsTargets(figures);
  const settings = { client: 'autocannon 9.0.0', connections, duration_s: duration, rounds };
  writeResults({ ...measuredOn(), settings, metrics: figures, targets });
  for (const line of metricsLines(figures)) log(line);
  logTargets(targets);
}
