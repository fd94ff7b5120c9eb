/** Ordinary requests while a nightly dump of the largest dataset is built. */
import autocannon from 'autocannon';
import { spread, type Spread } from './state.ts';
import { type Load, auth, connections, load, loadOf, log, pace, ratio, scales, smoke, startMock } from './setup.ts';

export interface DumpFigures {
  scale: number;
  rounds: number;
  /** The ordinary request measured, the same in both runs of a round. */
  request: string;
  quiet: { p50: Spread; p99: Spread; max: Spread; rps: Spread };
  during: { p50: Spread; p99: Spread; max: Spread; rps: Spread };
  /** How long the builds took, of those that ended within the window (null: none did). */
  build_ms: Spread | null;
  window_s: number;
  /** p99 while a dump is built over p99 without: the ratio of the medians, with the rounds' own lowest and highest. */
  p99_ratio: number;
  p99_ratio_rounds: { low: number; high: number };
}

/**
 * Ordinary requests while the day's dump of the largest dataset is built, beside the same requests
 * with none: each round starts a mock (a dump is built once a day), loads it quietly, then asks for
 * the manifest, which builds the dump, and loads it again until that answer comes or the window
 * ends (a dump of ten million rows takes minutes; its first half minute is as loaded as any).
 */
export async function dumpsSection(): Promise<DumpFigures> {
  const scale = scales.at(-1)!;
  const dumpRounds = smoke ? 1 : 3;
  // The load stops when the manifest arrives, so a long window costs only a build that is slow: the
  // smoke's 20 s, then 30 s, ran out on a busy machine (test files and contract-test runs beside it,
  // a build of 16 s taking over 30) and left no figure to check.
  const windowMs = 60_000;
  const request = '/api/v1/companies?limit=10';
  const quiet: Load[] = [];
  const during: Load[] = [];
  const builds: number[] = [];
  for (let round = 0; round < dumpRounds; round++) {
    // Written when the manifest asks, from the rows (not ahead at start, not from the cache):
    // the build is what is measured.
    const server = await startMock([
      '--seed',
      'bench',
      '--scale',
      String(scale),
      '--no-dumps-ahead',
      '--no-dump-cache',
    ]);
    try {
      quiet.push(await load(`${server.url}${request}`, auth));
      const started = performance.now();
      const manifest = fetch(`${server.url}/api/v1/exports`, { headers: auth }).then(async (r) => {
        if (r.status !== 200) throw new Error(`the manifest answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
        return Math.round(performance.now() - started);
      });
      manifest.catch(() => undefined);
      // Load until the manifest is there or the window ends, then stop: autocannon stops at its
      // next sample, every 100 ms here (a second by default), so the load ends with the build.
      const loaded = new Promise<Load>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `${server.url}${request}`,
            connections,
            duration: windowMs / 1000,
            headers: auth,
            sampleInt: 100,
            ...pace,
          },
          (error: Error | null, result) =>
            // requests.average is per sample (100 ms here), so the rate is the total over the time.
            error ? reject(error) : resolve(loadOf(result, result.requests.total / Math.max(0.001, result.duration))),
        );
        manifest.then(
          () => instance.stop(),
          () => instance.stop(),
        );
      });
      during.push(await loaded);
      const built = await Promise.race([manifest, new Promise<null>((resolve) => setTimeout(resolve, 50, null))]);
      if (built !== null) builds.push(built);
      log(
        `dump round ${round + 1}/${dumpRounds}: ` +
          `${built === null ? `still building after ${windowMs / 1000} s` : `built in ${built} ms`}; ` +
          `${request} p99 ${quiet.at(-1)!.p99} ms quiet, ${during.at(-1)!.p99} ms while building (p50 ` +
          `${quiet.at(-1)!.p50} / ${during.at(-1)!.p50} ms, slowest ${quiet.at(-1)!.max} / ` +
          `${during.at(-1)!.max} ms)`,
      );
    } finally {
      await server.stop();
    }
  }
  const of = (list: Load[]) => ({
    p50: spread(list.map((l) => l.p50)),
    p99: spread(list.map((l) => l.p99)),
    max: spread(list.map((l) => l.max)),
    rps: spread(list.map((l) => l.rps)),
  });
  // autocannon reports whole milliseconds: a quiet p99 of 0 is counted as 1 so the ratio stays finite.
  const perRound = during.map((d, i) => ratio(d.p99, Math.max(1, quiet[i]!.p99)));
  const figures = { quiet: of(quiet), during: of(during) };
  return {
    scale,
    rounds: dumpRounds,
    request,
    ...figures,
    build_ms: builds.length ? spread(builds) : null,
    window_s: windowMs / 1000,
    p99_ratio: ratio(figures.during.p99.median, Math.max(1, figures.quiet.p99.median)),
    p99_ratio_rounds: { low: Math.min(...perRound), high: Math.max(...perRound) },
  };
}

export const dumpLine = (d: DumpFigures): string =>
  `while a dump of scale ${d.scale.toLocaleString('en')} is built ` +
  `(${d.build_ms ? `${d.build_ms.median} ms` : `longer than the ${d.window_s} s window measured`}): ` +
  `${d.request} p99 ${d.during.p99.median} ms against ${d.quiet.p99.median} ms with none, ${d.p99_ratio}x ` +
  `(rounds ${d.p99_ratio_rounds.low}-${d.p99_ratio_rounds.high}x; p50 ${d.during.p50.median} / ` +
  `${d.quiet.p50.median} ms, slowest ${d.during.max.median} / ${d.quiet.max.median} ms; req/s ` +
  `${d.during.rps.median} / ${d.quiet.rps.median})`;
