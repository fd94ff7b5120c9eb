/**
 * The parts of one load run, as each k6 process left them in a results folder: a summary
 * (`<plan>[.<segment>].summary.json`, written by the script's handleSummary at the part's end) and a
 * samples file (`*.samples.json[.gz]`, k6's --out json), put together by the part marker each samples
 * file carries. A run's parts must be of one plan and one script, and their execution segments must
 * tile 0:1 with no gap and no overlap; anything else is refused, naming the files.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fingerprint, planOptions, type PlanTable, type RunInputs } from '../lib/plan-options.js';
import type { SummaryData } from '../lib/summary.js';
import { readSamples, SamplesError } from './samples.ts';

/** The metric each VU of a kit script adds once, tagged with plan, segment and fingerprint. */
export const partMetric = 'investor_graph_part';

export interface Part {
  plan: string;
  /** k6's execution segment, e.g. "1/2:1"; "0:1" for a run not split. */
  segment: string;
  fingerprint: string;
  inputs: RunInputs;
  summaryFile: string;
  samplesFile: string;
  summary: SummaryData;
}

/** Something about the parts that makes them no one run; the message says what and names the files. */
export class PartsError extends Error {}

/** A part whose run did not start (its set-up failed): its summary says why, and so does the message. */
export class PartNotStarted extends Error {}

interface SummaryMeta {
  plan: string;
  segment: string;
  fingerprint: string;
  inputs: RunInputs;
}

/**
 * The parts in `paths` (folders, or summary and samples files), checked to make one run of one
 * script and plan, in segment order.
 */
export async function findParts(paths: string[], table: PlanTable): Promise<Part[]> {
  const summaries: string[] = [];
  const samples: string[] = [];
  for (const path of paths) {
    let files: string[];
    try {
      files = statSync(path).isDirectory()
        ? readdirSync(path)
            .sort()
            .map((f) => join(path, f))
        : [path];
    } catch {
      throw new PartsError(`${path}: no such folder or file`);
    }
    for (const file of files) {
      if (file.endsWith('.summary.json')) summaries.push(file);
      else if (/\.samples\.json(\.gz)?$/.test(file)) samples.push(file);
    }
  }
  if (!summaries.length && !samples.length)
    throw new PartsError(
      `no *.summary.json or *.samples.json.gz in ${paths.join(', ')}: run the plan's script with ` +
        `investor-graph-load run (or k6 run --out json=DIR/PLAN.samples.json.gz -e RESULTS_DIR=DIR)`,
    );

  const bySummary = new Map<string, { file: string; meta: SummaryMeta; summary: SummaryData }>();
  for (const file of summaries) {
    let summary: SummaryData & { investor_graph?: SummaryMeta };
    try {
      summary = JSON.parse(readFileSync(file, 'utf8')) as typeof summary;
    } catch (error) {
      throw new PartsError(`${file}: not a k6 summary (${(error as Error).message})`);
    }
    const meta = summary.investor_graph;
    const setup = (meta as { setup?: { reason?: string } } | undefined)?.setup;
    if (setup) throw new PartNotStarted(`${file}: that part did not start (${setup.reason}): run it again`);
    if (!meta?.plan || !meta.segment || !meta.fingerprint)
      throw new PartsError(
        `${file}: a summary without the kit's part record (investor_graph): not written by an ` +
          `@investor-graph/load script`,
      );
    const key = partKey(meta);
    const twin = bySummary.get(key);
    if (twin)
      throw new PartsError(
        `${twin.file} and ${file} are the same part (${meta.plan} ${meta.segment}): give each run its own ` +
          `results folder`,
      );
    bySummary.set(key, { file, meta, summary });
  }

  const parts: Part[] = [];
  const matched = new Set<string>();
  for (const file of samples) {
    const marker = await firstMarker(file);
    const key = partKey(marker);
    const summary = bySummary.get(key);
    if (!summary)
      throw new PartsError(
        `${file} (${marker.plan}, segment ${marker.segment}) has no summary beside it: that part did not ` +
          `finish (k6 writes the summary at a part's end), or its summary is in another folder`,
      );
    if (matched.has(key))
      throw new PartsError(
        `${file} and ${parts.find((p) => partKey(p) === key)!.samplesFile} hold the same part ` +
          `(${marker.plan} ${marker.segment})`,
      );
    matched.add(key);
    parts.push({ ...summary.meta, summaryFile: summary.file, samplesFile: file, summary: summary.summary });
  }
  for (const [key, { file, meta }] of bySummary) {
    if (!matched.has(key))
      throw new PartsError(
        `${file} (${meta.plan}, segment ${meta.segment}) has no samples file: run each part with --out ` +
          `json=DIR/${basename(file).replace(/\.summary\.json$/, '')}.samples.json.gz (investor-graph-load ` +
          `run does)`,
      );
  }

  const first = parts[0]!;
  for (const part of parts) {
    if (part.plan !== first.plan)
      throw new PartsError(
        `${part.summaryFile} is a ${part.plan} run and ${first.summaryFile} a ${first.plan} run: merge ` +
          `one plan's parts at a time`,
      );
    if (part.fingerprint !== first.fingerprint)
      throw new PartsError(
        `${part.summaryFile} and ${first.summaryFile} come from different scripts or settings (DURATION, ` +
          `SCENARIOS, P95_MS, keys): every part of a run must run the same script the same way`,
      );
  }
  // The fingerprint is of what the script built; rebuilt here from the same inputs, it must match,
  // or the part ran a script other than this kit's (an edited copy, another version).
  let rebuilt: ReturnType<typeof planOptions>;
  try {
    rebuilt = planOptions(table, first.plan, first.inputs);
  } catch (error) {
    throw new PartsError(
      `${first.summaryFile}: ${(error as Error).message.replace(/^\[investor-graph k6\] /, '')} (a part ` +
        `of another @investor-graph/load version?)`,
    );
  }
  const expected = fingerprint(first.plan, rebuilt.scenarios, rebuilt.thresholds, (text) =>
    createHash('sha256').update(text).digest('hex'),
  );
  if (expected !== first.fingerprint)
    throw new PartsError(
      `${first.summaryFile} was written by a script other than this kit's ${first.plan}.js (its options ` +
        `differ): merge it with the @investor-graph/load version that ran it`,
    );

  return inSegmentOrder(parts);
}

const partKey = (p: { plan: string; segment: string; fingerprint: string }) =>
  `${p.plan} ${p.segment} ${p.fingerprint}`;

/** The marker of a samples file: read until the first one (VUs add it on their first iteration). */
async function firstMarker(file: string): Promise<SummaryMeta> {
  let found: SummaryMeta | undefined;
  try {
    await readSamples(file, {
      sample(s) {
        if (s.metric !== partMetric) return true;
        found = { plan: s.tags.plan!, segment: s.tags.segment!, fingerprint: s.tags.fingerprint! } as SummaryMeta;
        return false;
      },
    });
  } catch (error) {
    if (error instanceof SamplesError) throw new PartsError(error.message);
    throw error;
  }
  if (!found?.plan || !found.segment || !found.fingerprint)
    throw new PartsError(
      `${file} has no ${partMetric} sample: not written by an @investor-graph/load script, ` +
        'or the part ran no iteration',
    );
  return found;
}

/** A fraction of k6's segment syntax ("1/3", "0.5", "50%") as an exact ratio. */
interface Ratio {
  n: bigint;
  d: bigint;
}

function ratio(text: string, where: string): Ratio {
  const t = text.trim();
  let m = /^(\d+)\/(\d+)$/.exec(t);
  if (m && BigInt(m[2]!) > 0n) return { n: BigInt(m[1]!), d: BigInt(m[2]!) };
  m = /^(\d+)(?:\.(\d+))?(%?)$/.exec(t);
  if (m) {
    const decimals = m[2] ?? '';
    let d = 10n ** BigInt(decimals.length);
    if (m[3]) d *= 100n;
    return { n: BigInt(m[1]! + decimals), d };
  }
  throw new PartsError(`${where}: segment bound ${text} is not a fraction such as 1/2, 0.5 or 50%`);
}

const compare = (a: Ratio, b: Ratio) => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
const show = (r: Ratio) => (r.n === 0n ? '0' : r.n === r.d ? '1' : `${r.n}/${r.d}`);

/** The parts in segment order, if they cover 0:1 exactly; otherwise what is missing or overlaps. */
export function inSegmentOrder<P extends Pick<Part, 'plan' | 'segment' | 'summaryFile' | 'samplesFile'>>(
  parts: P[],
): P[] {
  const spans = parts.map((part) => {
    const [from, to, extra] = part.segment.split(':');
    if (to === undefined || extra !== undefined)
      throw new PartsError(`${part.summaryFile}: segment ${part.segment} is not FROM:TO`);
    return { part, from: ratio(from!, part.summaryFile), to: ratio(to, part.summaryFile) };
  });
  spans.sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
  const missing: string[] = [];
  let at: Ratio = { n: 0n, d: 1n };
  let last: (typeof spans)[number] | undefined;
  for (const span of spans) {
    const gap = compare(span.from, at);
    if (gap > 0) missing.push(`${show(at)}:${show(span.from)}`);
    if (gap < 0)
      throw new PartsError(
        `parts overlap: ${last!.part.samplesFile} (segment ${last!.part.segment}) and ` +
          `${span.part.samplesFile} (segment ${span.part.segment}) both ran ` +
          `${show(span.from)}:${show(compare(span.to, at) < 0 ? span.to : at)}`,
      );
    at = span.to;
    last = span;
  }
  if (compare(at, { n: 1n, d: 1n }) < 0) missing.push(`${show(at)}:1`);
  if (missing.length)
    throw new PartsError(
      `part${missing.length > 1 ? 's' : ''} missing: segment ${missing.join(' and ')} of the ` +
        `${parts[0]!.plan} run (found ${spans.map((s) => s.part.segment).join(', ')}); a run's verdict needs ` +
        `every part`,
    );
  return spans.map((s) => s.part);
}
