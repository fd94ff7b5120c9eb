/**
 * k6's four kinds of metric as sinks that take samples and give k6's figures: counters add,
 * gauges keep each process's latest, rates count passes, trends keep one HDR histogram
 * (hdr-histogram-js, the one autocannon uses) beside exact count, sum, minimum and maximum.
 */
import hdr from 'hdr-histogram-js';
import type { MetricDefinition } from './samples.ts';

export type Histogram = ReturnType<typeof hdr.build>;

/** Trend values are recorded in millionths of their unit (nanoseconds for durations in ms, as k6 measures them). */
export const SCALE = 1e6;

/** An HDR histogram of trend values (times SCALE); 2 digits for the report's per-interval ones. */
export function histogram(digits: 2 | 3): Histogram {
  // Packed buckets: small while sparse, which the per-interval histograms of the time series mostly are.
  return hdr.build({
    bitBucketSize: 'packed',
    numberOfSignificantValueDigits: digits,
    autoResize: true,
    useWebAssembly: false,
  });
}

export abstract class Sink {
  abstract add(value: number, time: number): void;
}

export class CounterSink extends Sink {
  count = 0;
  add(value: number): void {
    this.count += value;
  }
  values(durationS: number) {
    return { count: this.count, rate: durationS > 0 ? this.count / durationS : 0 };
  }
}

/**
 * A gauge (vus, vus_max) is each process's own: the run's is the parts' added, their latest values,
 * minimums and maximums each summed (a part's VUs are its own; peaks are taken to coincide).
 */
export class GaugeSink extends Sink {
  private readonly parts: PartGauge[] = [];
  part = -1;
  add(value: number, time: number): void {
    (this.parts[this.part] ??= new PartGauge()).add(value, time);
  }
  values() {
    const sum = (pick: (g: PartGauge) => number) => this.parts.reduce((total, g) => total + (g ? pick(g) : 0), 0);
    return this.parts.length
      ? { value: sum((g) => g.value), min: sum((g) => g.min), max: sum((g) => g.max) }
      : { value: 0, min: 0, max: 0 };
  }
}

class PartGauge {
  value = 0;
  min = Infinity;
  max = -Infinity;
  private at = -Infinity;
  add(value: number, time: number): void {
    if (time >= this.at) {
      this.value = value;
      this.at = time;
    }
    this.min = Math.min(this.min, value);
    this.max = Math.max(this.max, value);
  }
}

export class RateSink extends Sink {
  passes = 0;
  fails = 0;
  add(value: number): void {
    if (value !== 0) this.passes++;
    else this.fails++;
  }
  values() {
    const total = this.passes + this.fails;
    return { rate: total ? this.passes / total : 0, passes: this.passes, fails: this.fails };
  }
}

export class TrendSink extends Sink {
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  readonly histogram = histogram(3);
  add(value: number): void {
    this.count++;
    this.sum += value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    this.histogram.recordValue(Math.max(0, Math.round(value * SCALE)));
  }
  /**
   * The p-th percentile (0 to 100) as k6 computes it over its sorted samples: linear between the two
   * values nearest rank p/100 x (count - 1). Each of those two values comes from the histogram (to
   * its 0.1%), so a merged run's percentile is k6's own formula over every part's samples.
   */
  percentile(p: number): number {
    if (!this.count) return 0;
    if (p <= 0) return this.min;
    if (p >= 100) return this.max;
    const rank = (p / 100) * (this.count - 1);
    const lo = Math.floor(rank);
    const low = this.atRank(lo);
    return rank === lo ? low : low + (this.atRank(lo + 1) - low) * (rank - lo);
  }

  /** The value of 0-based rank `r` among the recorded values, in their unit, clamped to the exact ends. */
  private atRank(r: number): number {
    if (r <= 0) return this.min;
    if (r >= this.count - 1) return this.max;
    // getValueAtPercentile walks to the first value whose cumulative count reaches ceil(p x count);
    // half a rank below r + 1 keeps floating point from stepping past it.
    const value = this.histogram.getValueAtPercentile((100 * (r + 0.5)) / this.count) / SCALE;
    return Math.min(this.max, Math.max(this.min, value));
  }

  values(stats: string[]) {
    const out: Record<string, number> = {};
    for (const stat of stats) {
      const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
      if (p) out[stat] = this.percentile(Number(p[1]));
      else if (stat === 'avg') out.avg = this.count ? this.sum / this.count : 0;
      else if (stat === 'min') out.min = this.count ? this.min : 0;
      else if (stat === 'max') out.max = this.count ? this.max : 0;
      else if (stat === 'med') out.med = this.percentile(50);
      else if (stat === 'count') out.count = this.count;
    }
    return out;
  }
}

export const sinkOf = (type: MetricDefinition['type']): CounterSink | GaugeSink | RateSink | TrendSink =>
  type === 'counter'
    ? new CounterSink()
    : type === 'gauge'
      ? new GaugeSink()
      : type === 'rate'
        ? new RateSink()
        : new TrendSink();
