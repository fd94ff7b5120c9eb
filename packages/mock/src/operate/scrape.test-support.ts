/**
 * A scrape read by a parser that is not ours: parse-prometheus-text-format (the most used parser of
 * the format on npm, its samples' reading ported from the Prometheus Python client, its output
 * prom2json's), so a line this kit writes wrongly fails here rather than passing our own reading.
 * It is lenient where it should not be (a value it cannot read comes back as text; a histogram's
 * labels are dropped), so `sampleValue` refuses any value that is not a number.
 */
import { createRequire } from 'node:module';

export interface Sample {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}
export interface Family {
  name: string;
  help: string;
  type: string;
  metrics: Sample[];
}

const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

/** The families of a scrape's text, by name. */
export function parseScrape(text: string): Map<string, Family> {
  return new Map(parse(text).map((family) => [family.name, family]));
}

/** The value of the sample of `name` whose labels include `labels` (0 when there is none), as the text gives it. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  if (!family) throw new Error(`no metric ${name} in the scrape`);
  const sample = family.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!sample) return 0;
  // The parser passes a value it cannot read on as text (`not_a_number`, or '' for a cut line): that is no count.
  const value = Number(sample.value === '' ? NaN : sample.value);
  if (!Number.isFinite(value)) throw new Error(`${name} has the value ${JSON.stringify(sample.value)}, not a number`);
  return value;
}
