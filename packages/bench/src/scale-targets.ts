/**
 * The scale targets (issues #24, #39) judged on the figures scale-section.ts measures, and what
 * missed them, for the log and BENCHMARKS.md.
 */
import type { ScaleFigures } from './scale-section.ts';
import { ratio } from './setup.ts';

/** The limits of issue #39: a first call, and p99 under load against the 10,000-row figure. */
const FIRST_CALL_MS = 100;
const P99_RATIO = 2;
const RSS_MB = 400;

/** The scale targets (issues #24, #39), each scale against the first (10,000 rows). */
export function scaleTargets(figures: ScaleFigures[]) {
  const base = figures[0]!;
  const ratios = Object.fromEntries(
    figures.slice(1).map((f) => [
      f.scale,
      {
        first_p50: ratio(f.first_p50_ms, base.first_p50_ms),
        deep_p50: ratio(f.deep_p50_ms, base.deep_p50_ms),
        first_rps: ratio(base.first.rps, f.first.rps),
        deep_rps: ratio(base.deep.rps, f.deep.rps),
        operations: Object.fromEntries(
          Object.entries(f.operations).map(([name, o]) => {
            const b = base.operations[name]!;
            // To the microsecond, so never 0 in practice; a floor keeps a ratio finite.
            const of = (x: number, y: number) => ratio(x, Math.max(y, 0.001));
            return [
              name,
              {
                first: of(o.first.ms, b.first.ms),
                p50: of(o.loaded.p50, b.loaded.p50),
                p99: of(o.loaded.p99, b.loaded.p99),
              },
            ];
          }),
        ),
      },
    ]),
  );
  const all = (test: (f: ScaleFigures) => boolean) => figures.every(test);
  const over = scaleMisses(figures, ratios);
  const targets = {
    'start-up under 2 s at every scale (dataset generated)': all((f) => f.start_ms.median < 2_000),
    [`resident memory under ${RSS_MB} MB throughout at every scale ` +
    '(after start, after the first calls, after the mixed load, and its peak)']: all(
      (f) => Math.max(f.rss_start_mb, f.rss_after_first_calls_mb, f.rss_after_mixed_mb, f.rss_peak_mb) < RSS_MB,
    ),
    'first and deep page p50 within 1.3x of the 10,000-row figure at every scale': Object.values(ratios).every(
      (r) => r.first_p50 <= 1.3 && r.deep_p50 <= 1.3,
    ),
    'first and deep page req/s within 1.3x of the 10,000-row figure at every scale': Object.values(ratios).every(
      (r) => r.first_rps <= 1.3 && r.deep_rps <= 1.3,
    ),
    [`every operation's first call under ${FIRST_CALL_MS} ms at every scale`]: over.first_call.length === 0,
    [`every operation's p99 under the mixed load within ${P99_RATIO}x of the 10,000-row figure at every scale`]:
      over.p99.length === 0,
    ['every statistic served is the same bytes as the rollup from the rows, ' +
    'on Enterprise and trial keys, at every scale']: over.same_bytes.length === 0,
  };
  return { ratios, targets, over };
}

/** What missed the operations' targets, one text each, for the log and BENCHMARKS.md. */
export function scaleMisses(
  figures: ScaleFigures[],
  ratios: Record<string, { operations: Record<string, { p99: number }> }>,
) {
  const at = (f: ScaleFigures) => f.scale.toLocaleString('en');
  return {
    first_call: figures.flatMap((f) =>
      Object.entries(f.operations)
        .filter(([, o]) => !(o.first.ms < FIRST_CALL_MS && o.first.status === 200))
        .map(([name, o]) => `${name} at ${at(f)}: ${o.first.ms} ms (${o.first.status})`),
    ),
    p99: figures.slice(1).flatMap((f) =>
      Object.entries(ratios[f.scale]!.operations)
        .filter(([, r]) => r.p99 > P99_RATIO)
        .map(([name, r]) => `${name} at ${at(f)}: p99 ${f.operations[name]!.loaded.p99} ms, ${r.p99}x`),
    ),
    same_bytes: figures.flatMap((f) =>
      Object.entries(f.same_bytes).flatMap(([name, keys]) =>
        Object.entries(keys)
          .filter(([, line]) => line !== 'same bytes')
          .map(([k, line]) => `${name}, ${k} key, at ${at(f)}: ${line}`),
      ),
    ),
  };
}

/** One line per kind of miss that happened: what, then each operation with its figure. */
export function missLines(over: ReturnType<typeof scaleMisses>): string[] {
  const kinds = [
    [`first calls over ${FIRST_CALL_MS} ms`, over.first_call],
    [`p99 over ${P99_RATIO}x of the 10,000-row figure`, over.p99],
    ['not the same bytes', over.same_bytes],
  ] as const;
  return kinds.filter(([, list]) => list.length).map(([what, list]) => `${what}: ${list.join('; ')}`);
}
