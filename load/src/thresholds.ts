/**
 * k6's threshold expressions (`p(95)<500`, `count==0`, `rate<=7.5`), judged on a metric's figures as
 * k6 judges them: an aggregation of the metric, an operator, a number.
 */
import type { SummaryData } from '../lib/summary.js';

export interface Threshold {
  expression: string;
  aggregation: string;
  operator: string;
  bound: number;
}

const aggregationPattern = String.raw`(count|rate|value|avg|min|max|med|p\(\d+(?:\.\d+)?\))`;
const operatorPattern = '(<=|>=|===|==|!=|<|>)';
const numberPattern = String.raw`(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)`;
const pattern = new RegExp(String.raw`^\s*${aggregationPattern}\s*${operatorPattern}\s*${numberPattern}\s*$`, 'i');

export function parseThreshold(expression: string): Threshold {
  const m = pattern.exec(expression);
  if (!m) throw new Error(`threshold ${expression} is not AGGREGATION OPERATOR NUMBER`);
  return { expression, aggregation: m[1]!, operator: m[2]!, bound: Number(m[3]) };
}

/** The percentiles the thresholds ask for, so that the figures hold them even when not shown. */
export function percentilesAsked(thresholds: Record<string, string[]>): string[] {
  return [
    ...new Set(
      Object.values(thresholds)
        .flat()
        .map((e) => parseThreshold(e).aggregation)
        .filter((a) => a.startsWith('p(')),
    ),
  ];
}

function holds(value: number, operator: string, bound: number): boolean {
  switch (operator) {
    case '<':
      return value < bound;
    case '<=':
      return value <= bound;
    case '>':
      return value > bound;
    case '>=':
      return value >= bound;
    case '==':
    case '===':
      return value === bound;
    default:
      return value !== bound;
  }
}

export interface Verdict {
  metric: string;
  expression: string;
  ok: boolean;
  /** The figure judged; undefined when the run has no sample of the metric. */
  figure: number | undefined;
}

/**
 * Judges `thresholds` on `data`'s figures and writes each verdict into the data, as k6 does
 * (`metrics[name].thresholds[expression].ok`). A metric the data lacks fails its thresholds.
 */
export function judge(data: SummaryData, thresholds: Record<string, string[]>): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const [metric, expressions] of Object.entries(thresholds)) {
    for (const expression of expressions) {
      const t = parseThreshold(expression);
      const entry = data.metrics[metric];
      const figure = entry?.values[t.aggregation];
      // k6 v2 passes a threshold of a rate no sample reached (a scenario that never ran a check);
      // a counter's, a trend's and a gauge's it judges on zeros. The same here.
      const empty = entry?.type === 'rate' && !entry.values.passes && !entry.values.fails;
      const ok = empty || (figure !== undefined && holds(figure, t.operator, t.bound));
      if (entry) (entry.thresholds ??= {})[expression] = { ok };
      verdicts.push({ metric, expression, ok, figure });
    }
  }
  return verdicts;
}
