/**
 * Merging a split load run: `investor-graph-load merge` on two parts of a million samples each (the
 * issue's size; --smoke: 20,000), beside a peer that only reads the same files, gunzipped and each
 * line parsed as JSON, which any merge of k6's samples has to do. Both run as their own processes,
 * in alternating rounds; each figure is the median with the rounds' lowest and highest, wall time
 * from spawn to exit and peak resident memory (the process's own maxRSS, reported at its exit).
 *
 * The samples are written here in k6's --out json format, line for line as k6 v2 writes them (the
 * same metrics, tags and order per request: http_reqs, the seven timings, http_req_failed, then
 * the iteration's data, checks and duration), so no k6 build is needed to measure the merge.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { once } from 'node:events';
import {
  fingerprint as fingerprintOf,
  planOptions,
  resultFiles,
  runInputs,
} from '@investor-graph/load/lib/plan-options.js';
import { spread, type Spread } from './state.ts';
import { binOf, log, ratio, smoke, temp } from './setup.ts';

export interface MergeFigures {
  samples_per_part: number;
  parts: number;
  bytes_per_part: number;
  rounds: number;
  merge: { ms: Spread; rss_mb: Spread };
  peer: { ms: Spread; rss_mb: Spread };
  /** Merge time over the peer's (medians), with the rounds' own lowest and highest. */
  time_ratio: number;
  time_ratio_rounds: { low: number; high: number };
}

const plan = 'business';
const table = JSON.parse(readFileSync(new URL(import.meta.resolve('@investor-graph/load/lib/plans.json')), 'utf8'));
const loadCli = binOf('@investor-graph/load');
const here = import.meta.dirname;

/** A small deterministic generator, so every run measures the same files. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes one part of `samples` samples (and its summary) into `dir`. */
async function writePart(dir: string, segment: string, samples: number, seed: number): Promise<number> {
  const inputs = runInputs({ DURATION: '10m', API_KEY: 'a', API_KEY_BURST: 'b', API_KEY_WALK: 'c' });
  const built = planOptions(table, plan, inputs);
  const fingerprint = fingerprintOf(plan, built.scenarios, built.thresholds, (text) =>
    createHash('sha256').update(text).digest('hex'),
  );
  const files = resultFiles(plan, segment);
  const gzip = createGzip();
  const file = createWriteStream(join(dir, files.samples));
  gzip.pipe(file);
  const rand = random(seed);
  const start = Date.parse('2026-11-24T12:00:00Z');
  const seen = new Set<string>();
  let lines = 0;
  let chunk = '';
  const write = async (line: string) => {
    chunk += `${line}\n`;
    lines++;
    if (chunk.length > 1 << 16) {
      if (!gzip.write(chunk)) await once(gzip, 'drain');
      chunk = '';
    }
  };
  const point = async (metric: string, type: string, contains: string, time: string, value: number, tags: string) => {
    if (!seen.has(metric)) {
      seen.add(metric);
      await write(
        `{"type":"Metric","data":{"name":"${metric}","type":"${type}","contains":"${contains}",` +
          `"thresholds":[],"submetrics":null},"metric":"${metric}"}`,
      );
    }
    await write(`{"metric":"${metric}","type":"Point","data":{"time":"${time}","value":${value},"tags":${tags}}}`);
  };
  let requests = 0;
  let iterations = 0;
  const url = 'http://127.0.0.1:4010/api/v1/firms?limit=10';
  const at = (ms: number) => new Date(start + ms).toISOString().replace('Z', '123456Z');
  await point(
    'investor_graph_part',
    'counter',
    'default',
    at(0),
    1,
    `{"fingerprint":"${fingerprint}","group":"","plan":"${plan}","scenario":"at_rate","segment":"${segment}"}`,
  );
  while (lines < samples) {
    const ms = (requests / 110) * 1000;
    const time = at(ms);
    const above = rand() < 0.7;
    // 90% of the over-rate key's answers are 429s: the run holds its thresholds, as a correct service's would.
    const limited = above && rand() < 0.9;
    const scenario = above ? 'above_rate' : 'at_rate';
    const status = limited ? '429' : '200';
    const tags =
      `{"expected_response":"true","group":"","method":"GET","name":"firms ` +
      `${above ? 'burst' : 'page'}","proto":"HTTP/1.1","scenario":"${scenario}","status":"${status}","url":"${url}"}`;
    const duration = Math.exp(rand() * 2.5) * 0.4;
    await point('http_reqs', 'counter', 'default', time, 1, tags);
    await point('http_req_duration', 'trend', 'time', time, duration, tags);
    for (const timing of [
      'http_req_blocked',
      'http_req_connecting',
      'http_req_tls_handshaking',
      'http_req_sending',
      'http_req_waiting',
      'http_req_receiving',
    ]) {
      await point(timing, 'trend', 'time', time, timing === 'http_req_waiting' ? duration * 0.9 : rand() * 0.05, tags);
    }
    await point('http_req_failed', 'rate', 'default', time, 0, tags);
    requests++;
    const iterationTags = `{"group":"","scenario":"${scenario}"}`;
    if (limited) {
      await point('rate_limited', 'counter', 'default', time, 1, iterationTags);
      for (const check of ['429 has Retry-After', '429 has actions', '429 has RateLimit-Policy'])
        await point('checks', 'rate', 'default', time, 1, `{"check":"${check}","group":"","scenario":"${scenario}"}`);
    } else {
      if (above) await point('burst_served', 'counter', 'default', time, 1, iterationTags);
      for (const check of above ? ['status 200 or 429'] : ['status 200', 'envelope', 'plan in the envelope'])
        await point('checks', 'rate', 'default', time, 1, `{"check":"${check}","group":"","scenario":"${scenario}"}`);
    }
    await point('data_sent', 'counter', 'data', time, 180, iterationTags);
    await point('data_received', 'counter', 'data', time, limited ? 600 : 4800, iterationTags);
    await point('iteration_duration', 'trend', 'time', time, duration + 0.2, iterationTags);
    await point('iterations', 'counter', 'default', time, 1, iterationTags);
    iterations++;
  }
  gzip.end(chunk);
  await once(file, 'finish');
  const metrics: Record<string, unknown> = {
    http_reqs: { type: 'counter', contains: 'default', values: { count: requests, rate: requests / 600 } },
    iterations: { type: 'counter', contains: 'default', values: { count: iterations, rate: iterations / 600 } },
  };
  for (const name of Object.keys(built.thresholds))
    metrics[name] ??= {
      type:
        name.startsWith('checks') || name.startsWith('http_req_failed')
          ? 'rate'
          : name.startsWith('http_req_duration')
            ? 'trend'
            : 'counter',
      contains: 'default',
      values: {},
    };
  writeFileSync(
    join(dir, files.summary),
    JSON.stringify({
      metrics,
      state: { testRunDurationMs: (requests / 110) * 1000 },
      options: { summaryTrendStats: ['avg', 'min', 'med', 'p(95)', 'p(99)', 'max', 'count'] },
      investor_graph: { plan, segment, sequence: '0,1/2,1', fingerprint, inputs },
    }),
  );
  return readFileSync(join(dir, files.samples)).length;
}

/** Runs a Node script as its own process; its wall time from spawn to exit and its peak memory. */
function measured(args: string[]): Promise<{ ms: number; rssMb: number }> {
  const rssFile = join(temp, `rss-${process.hrtime.bigint()}`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', join(here, 'report-rss.ts'), ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REPORT_RSS_TO: rssFile },
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const ms = Math.round(performance.now() - started);
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(0, 400)}`));
      resolve({ ms, rssMb: Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024) });
    });
  });
}

export async function mergeSection(): Promise<MergeFigures> {
  const samples = smoke ? 20_000 : 1_000_000;
  const rounds = smoke ? 1 : 3;
  const dir = join(temp, 'merge-parts');
  mkdirSync(dir, { recursive: true });
  const bytes = await Promise.all([writePart(dir, '0:1/2', samples, 1), writePart(dir, '1/2:1', samples, 2)]);
  log(
    `merge: two parts of ${samples.toLocaleString('en')} samples written (${Math.round(bytes[0] / 1e6)} ` +
      `MB of gzip each)`,
  );
  const merges: { ms: number; rssMb: number }[] = [];
  const peers: { ms: number; rssMb: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const merged = await measured([loadCli, 'merge', dir, '--out', join(temp, 'merge-out')]);
    merges.push(merged);
    peers.push(await measured([join(here, 'read-samples.ts'), dir]));
    log(
      `merge round ${round + 1}/${rounds}: merge ${merged.ms} ms, ${merged.rssMb} MB; reading alone ` +
        `${peers.at(-1)!.ms} ms, ${peers.at(-1)!.rssMb} MB`,
    );
  }
  const ratios = merges.map((m, i) => ratio(m.ms, peers[i]!.ms));
  const mergeMs = spread(merges.map((m) => m.ms));
  const peerMs = spread(peers.map((p) => p.ms));
  return {
    samples_per_part: samples,
    parts: 2,
    bytes_per_part: bytes[0],
    rounds,
    merge: { ms: mergeMs, rss_mb: spread(merges.map((m) => m.rssMb)) },
    peer: { ms: peerMs, rss_mb: spread(peers.map((p) => p.rssMb)) },
    time_ratio: ratio(mergeMs.median, peerMs.median),
    time_ratio_rounds: { low: Math.min(...ratios), high: Math.max(...ratios) },
  };
}

export const mergeLine = (m: MergeFigures): string =>
  `merging ${m.parts} parts of ${m.samples_per_part.toLocaleString('en')} samples each: ` +
  `${(m.merge.ms.median / 1000).toFixed(1)} s ` +
  `(${(m.merge.ms.low / 1000).toFixed(1)}-${(m.merge.ms.high / 1000).toFixed(1)}), peak ` +
  `${m.merge.rss_mb.median} MB resident (${m.merge.rss_mb.low}-${m.merge.rss_mb.high}); reading the same ` +
  `files alone (gunzip and JSON.parse of each line) ${(m.peer.ms.median / 1000).toFixed(1)} s, ` +
  `${m.peer.rss_mb.median} MB: the merge takes ${m.time_ratio}x of that (rounds ` +
  `${m.time_ratio_rounds.low}-${m.time_ratio_rounds.high})`;

export const mergeTargets = (m: MergeFigures) => ({
  'merging two parts of a million samples each under 30 s': m.merge.ms.high < 30_000,
  'merging two parts of a million samples each under 500 MB resident': m.merge.rss_mb.high < 500,
});
