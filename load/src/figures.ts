/**
 * A run's figures over the samples of all its parts, as k6 computes them for one process: counts and
 * sums added, rates over the run's duration, trends (latencies) from one distribution of every
 * part's samples, never an average of the parts' percentiles. The result has the shape of k6's
 * end-of-test data, so the kit's text summary and JUnit writer serve merged runs as they serve k6's.
 *
 * Trends go into an HDR histogram (hdr-histogram-js, the one autocannon uses): memory bounded whatever
 * the run's length, each value kept to 3 significant digits (0.1%), percentiles by k6's formula over
 * it. Counts, sums, minimum and maximum are kept exactly beside it.
 */
import type { SummaryCheck, SummaryData, SummaryMetric } from '../lib/summary.js';
import type { MetricDefinition, Sample } from './samples.ts';
import {
  CounterSink,
  GaugeSink,
  histogram,
  RateSink,
  SCALE,
  sinkOf,
  TrendSink,
  type Histogram,
  type Sink,
} from './sinks.ts';

/** A metric, or a submetric such as `http_req_duration{scenario:at_rate}`: the metric and tags to match. */
export function parseSelector(name: string): { metric: string; tags: [string, string][] } {
  const m = /^([^{]+)(?:\{(.*)\})?$/.exec(name);
  if (!m) return { metric: name, tags: [] };
  const tags = (m[2] ?? '')
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf(':');
      return [
        pair.slice(0, at).trim(),
        pair
          .slice(at + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      ] as [string, string];
    });
  return { metric: m[1]!.trim(), tags };
}

/** Per second of the run: requests by scenario and by status, the over-rate key's answers, latency. */
export interface Second {
  byScenario: Map<string, number>;
  byStatus: Map<string, number>;
  burstServed: number;
  burstLimited: number;
  latency: Histogram;
}

export class RunFigures {
  private readonly definitions = new Map<string, MetricDefinition>();
  private readonly sinks = new Map<string, Sink>();
  /** Submetrics by their metric: the thresholds' and those k6 always shows. */
  private readonly selectors = new Map<string, { name: string; tags: [string, string][] }[]>();
  private readonly checks = new Map<string, { passes: number; fails: number }>();
  readonly seconds = new Map<number, Second>();
  first = Infinity;
  last = -Infinity;
  /** Which part the samples now come from (gauges are kept per part). */
  private part = -1;

  constructor(submetrics: string[]) {
    for (const name of new Set([...submetrics, 'http_req_duration{expected_response:true}'])) {
      const { metric, tags } = parseSelector(name);
      if (!tags.length) continue;
      if (!this.selectors.has(metric)) this.selectors.set(metric, []);
      this.selectors.get(metric)!.push({ name, tags });
    }
  }

  /** The samples that follow are the next part's. */
  nextPart(): void {
    this.part++;
  }

  metric(definition: MetricDefinition): void {
    const known = this.definitions.get(definition.name);
    if (known && known.type !== definition.type)
      throw new Error(`metric ${definition.name} is a ${known.type} in one part and a ${definition.type} in another`);
    this.definitions.set(definition.name, definition);
  }

  sample(s: Sample): void {
    const definition = this.definitions.get(s.metric);
    if (!definition) throw new Error(`a sample of ${s.metric} before its metric's definition`);
    this.sink(s.metric, definition.type).add(s.value, s.time);
    for (const selector of this.selectors.get(s.metric) ?? []) {
      if (selector.tags.every(([k, v]) => s.tags[k] === v))
        this.sink(selector.name, definition.type).add(s.value, s.time);
    }
    if (s.metric === 'checks' && s.tags.check !== undefined) {
      const check = this.checks.get(s.tags.check) ?? { passes: 0, fails: 0 };
      if (s.value) check.passes++;
      else check.fails++;
      this.checks.set(s.tags.check, check);
    }
    if (s.time < this.first) this.first = s.time;
    if (s.time > this.last) this.last = s.time;
    if (s.metric === 'http_reqs' || s.metric === 'http_req_duration') this.perSecond(s);
  }

  private sink(name: string, type: MetricDefinition['type']): Sink {
    let sink = this.sinks.get(name);
    if (!sink) this.sinks.set(name, (sink = sinkOf(type)));
    if (sink instanceof GaugeSink) sink.part = this.part;
    return sink;
  }

  private perSecond(s: Sample): void {
    const at = Math.floor(s.time / 1000);
    let second = this.seconds.get(at);
    if (!second)
      this.seconds.set(
        at,
        (second = {
          byScenario: new Map(),
          byStatus: new Map(),
          burstServed: 0,
          burstLimited: 0,
          latency: histogram(2),
        }),
      );
    if (s.metric === 'http_req_duration') {
      second.latency.recordValue(Math.max(0, Math.round(s.value * SCALE)));
      return;
    }
    const scenario = s.tags.scenario ?? '(setup)';
    const status = s.tags.status ?? '?';
    second.byScenario.set(scenario, (second.byScenario.get(scenario) ?? 0) + s.value);
    second.byStatus.set(status, (second.byStatus.get(status) ?? 0) + s.value);
    if (scenario === 'above_rate') {
      if (status === '429') second.burstLimited += s.value;
      else if (status === '200') second.burstServed += s.value;
    }
  }

  /** How many samples of `name` (a metric or submetric) were counted: for checking parts whole. */
  count(name: string): number | undefined {
    const sink = this.sinks.get(name);
    if (sink instanceof CounterSink) return sink.count;
    if (sink instanceof TrendSink) return sink.count;
    if (sink instanceof RateSink) return sink.passes + sink.fails;
    return undefined;
  }

  trend(name: string): TrendSink | undefined {
    const sink = this.sinks.get(name);
    return sink instanceof TrendSink ? sink : undefined;
  }

  /**
   * k6's end-of-test data for these figures; `durationMs` is the run's, for counters' rates.
   * `declared` are metrics the parts' summaries list (a threshold's submetric no sample reached, a
   * counter that never counted): shown as k6 shows them, with a fresh sink's zero figures.
   */
  summary(
    durationMs: number,
    trendStats: string[],
    extraStats: string[],
    declared: Record<string, Pick<SummaryMetric, 'type' | 'contains'>> = {},
  ): SummaryData {
    const metrics: Record<string, SummaryMetric> = {};
    const entries: [string, Sink, Pick<SummaryMetric, 'type' | 'contains'>][] = [...this.sinks].map(([name, sink]) => [
      name,
      sink,
      this.definitions.get(parseSelector(name).metric)!,
    ]);
    for (const [name, d] of Object.entries(declared))
      if (!this.sinks.has(name)) entries.push([name, sinkOf(d.type), d]);
    for (const [name, sink, definition] of entries) {
      const values =
        sink instanceof CounterSink
          ? sink.values(durationMs / 1000)
          : sink instanceof GaugeSink
            ? sink.values()
            : sink instanceof RateSink
              ? sink.values()
              : (sink as TrendSink).values([...trendStats, ...extraStats]);
      metrics[name] = { type: definition.type, contains: definition.contains, values };
    }
    const checks: SummaryCheck[] = [...this.checks].map(([name, c]) => ({
      name,
      path: `::${name}`,
      id: '',
      passes: c.passes,
      fails: c.fails,
    }));
    return {
      metrics,
      root_group: { name: '', path: '', id: '', groups: [], checks },
      options: { summaryTrendStats: trendStats },
      state: { testRunDurationMs: durationMs },
    };
  }
}
