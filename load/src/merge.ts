/**
 * One verdict for a load run split across k6 processes (or pods): every part's samples read into one
 * set of figures, the plan's thresholds (rebuilt from the contract's plan table with the run's
 * inputs) judged on them, and the run's JUnit, figures and HTML report written. A run that was not
 * split is one part, and gets the same report.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { planOptions, seconds, servedBound, type PlanTable } from '../lib/plan-options.js';
import { junit, k6Summary, thresholdLines, type SummaryData, type SummaryMetric } from '../lib/summary.js';
import { RunFigures } from './figures.ts';
import { findParts, PartsError, partMetric, type Part } from './parts.ts';
import { ClientTally, mockWindowOf, type MockWindow } from './mock-metrics.ts';
import { mockLine } from './report-mock.ts';
import { renderReport } from './report-html.ts';
import { readSamples, SamplesError } from './samples.ts';
import { judge, parseThreshold, percentilesAsked, type Verdict } from './thresholds.ts';

export { PartNotStarted, PartsError } from './parts.ts';
export { SamplesError } from './samples.ts';

/** The contract's plan table, as the package carries it beside the k6 scripts. */
export function planTable(): PlanTable {
  return JSON.parse(readFileSync(new URL('../lib/plans.json', import.meta.url), 'utf8')) as PlanTable;
}

export interface MergeResult {
  ok: boolean;
  plan: string;
  parts: Part[];
  verdicts: Verdict[];
  data: SummaryData;
  /** The files written: JUnit, figures (k6's summary shape), HTML report (the last alone with reportOnly). */
  files: { junit: string; figures: string; html: string };
  /** k6's end-of-test summary of the merged figures, then each threshold ok or FAIL. */
  text: string;
  /** The mock's own counts for a whole run's window, when it was run with --mock-metrics. */
  mock?: MockWindow;
}

/**
 * Merges the parts found in `paths` (folders or files), writing the verdict's files into `out`;
 * `reportOnly` writes the HTML report alone (a whole run's own JUnit and summary are k6's).
 */
export async function merge(paths: string[], out: string, { reportOnly = false } = {}): Promise<MergeResult> {
  const table = planTable();
  const parts = await findParts(paths, table);
  const { plan: planId, inputs } = parts[0]!;
  const { plan, thresholds } = planOptions(table, planId, inputs);

  const figures = new RunFigures(Object.keys(thresholds));
  const client = new ClientTally();
  const perPart: number[] = [];
  for (const part of parts) {
    figures.nextPart();
    let requests = 0;
    let iterations = 0;
    try {
      await readSamples(part.samplesFile, {
        metric: (definition) => figures.metric(definition),
        sample(s) {
          if (
            s.metric === partMetric &&
            (s.tags.segment !== part.segment || s.tags.fingerprint !== part.fingerprint || s.tags.plan !== part.plan)
          ) {
            throw new PartsError(
              `${part.samplesFile} holds samples of two parts (${part.plan} ${part.segment} and ` +
                `${s.tags.plan} ${s.tags.segment}): give each part its own file`,
            );
          }
          if (s.metric === 'http_reqs') requests += s.value;
          else if (s.metric === 'iterations') iterations += s.value;
          figures.sample(s);
          client.add(s);
        },
      });
    } catch (error) {
      if (error instanceof PartsError || error instanceof SamplesError) throw error;
      throw new PartsError(`${part.samplesFile}: ${(error as Error).message}`);
    }
    // The summary is written at the part's end: a samples file that holds fewer requests than it
    // counts was cut short (a full disk, a copy made mid-run) and would bias the verdict.
    const counted = part.summary.metrics.http_reqs?.values.count ?? 0;
    const iterated = part.summary.metrics.iterations?.values.count ?? 0;
    if (requests !== counted || iterations !== iterated) {
      throw new PartsError(
        `${part.samplesFile} holds ${requests} requests and ${iterations} iterations where its summary ` +
          `${part.summaryFile} counts ${counted} and ${iterated}: the samples file is incomplete or from ` +
          `another run`,
      );
    }
    perPart.push(requests);
  }

  // Counters' rates are over the run: the longest part, or the span of all samples when the parts
  // did not start together.
  const longest = Math.max(...parts.map((p) => Number(p.summary.state?.testRunDurationMs ?? 0)));
  const durationMs = Math.max(longest, figures.last - figures.first);
  const trendStats = parts[0]!.summary.options?.summaryTrendStats ?? ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];
  const declared: Record<string, Pick<SummaryMetric, 'type' | 'contains'>> = {};
  for (const part of parts) Object.assign(declared, part.summary.metrics);
  const data = figures.summary(durationMs, trendStats, percentilesAsked(thresholds), declared);
  const verdicts = judge(data, thresholds);
  // A whole run was judged by k6 itself on its exact samples: its report says what k6 said, with
  // k6's figures, never a verdict of its own a histogram's 0.1% away from a bound.
  if (parts.length === 1) adoptK6Verdicts(verdicts, data, parts[0]!.summary);
  const ok = verdicts.every((v) => v.ok);
  data.investor_graph = {
    plan: planId,
    parts: parts.map((p) => p.segment),
    fingerprint: parts[0]!.fingerprint,
    inputs,
  };

  // A whole run given --mock-metrics: the mock's counts for its window, with k6's own beside them.
  const mockFile = join(dirname(parts[0]!.summaryFile), `${planId}.mock.json`);
  const mock =
    parts.length === 1
      ? mockWindowOf(existsSync(mockFile) ? readFileSync(mockFile, 'utf8') : undefined, figures.first, figures.last)
      : undefined;
  if (mock) mock.client = client.result();

  mkdirSync(out, { recursive: true });
  const files = {
    junit: join(out, `${planId}.verdict.junit.xml`),
    figures: join(out, `${planId}.verdict.json`),
    html: join(out, `${planId}.report.html`),
  };
  const suite = parts.length > 1 ? `k6 ${planId} (${parts.length} parts merged)` : `k6 ${planId}`;
  if (!reportOnly) {
    writeFileSync(files.junit, junit(data, suite));
    writeFileSync(files.figures, JSON.stringify(data, null, 2));
  }
  if (mock) writeFileSync(join(out, `${planId}.mock.json`), JSON.stringify(mock, null, 2));
  writeFileSync(
    files.html,
    renderReport({
      planId,
      planName: plan.name,
      rate: plan.rate_per_second,
      servedBound: servedBound(plan.rate_per_second, inputs.DURATION) / seconds(inputs.DURATION),
      p95Ms: Number(inputs.P95_MS),
      parts: parts.map((p, i) => ({
        segment: p.segment,
        samplesFile: p.samplesFile,
        summaryFile: p.summaryFile,
        requests: perPart[i]!,
      })),
      data,
      verdicts,
      seconds: figures.seconds,
      first: figures.first,
      last: figures.last,
      ...(mock ? { mock } : {}),
    }),
  );
  const lines = [
    `${suite}: ${data.metrics.http_reqs?.values.count ?? 0} requests ${fromParts(parts)}`,
    ...thresholdLines(data),
    ...(mock ? [mockLine(mock)!] : []),
  ];
  const text = `${k6Summary(data)}\n${lines.join('\n')}\n`;
  return { ok, plan: planId, parts, verdicts, data, files, text, ...(mock ? { mock } : {}) };
}

/** Where the requests came from, as a sentence: the whole run in one part, or the parts by segment. */
function fromParts(parts: Part[]): string {
  if (parts.length === 1 && parts[0]!.segment === '0:1') return 'of the whole run, in one part';
  const segments = parts.map((p) => p.segment);
  const listed = segments.length > 1 ? `${segments.slice(0, -1).join(', ')} and ${segments.at(-1)}` : segments[0];
  const plural = parts.length === 1 ? '' : 's';
  return `from ${parts.length} part${plural} (segment${plural} ${listed})`;
}

/** k6's own verdict and figure for each threshold of a whole run, where its summary has them. */
function adoptK6Verdicts(verdicts: Verdict[], data: SummaryData, k6: SummaryData): void {
  for (const v of verdicts) {
    const theirs = k6.metrics[v.metric];
    const ok = theirs?.thresholds?.[v.expression]?.ok;
    if (ok === undefined) continue;
    v.ok = ok;
    v.figure = theirs!.values[parseThreshold(v.expression).aggregation] ?? v.figure;
    data.metrics[v.metric]!.thresholds![v.expression] = { ok };
  }
}
