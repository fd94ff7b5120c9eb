/** The figures written into BENCHMARKS.md between its markers; the notes around them stay. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dumpLine } from './dumps-section.ts';
import { mergeLine } from './merge-section.ts';
import type { ScaleFigures } from './scale-section.ts';
import { missLines, scaleMisses } from './scale-targets.ts';
import type { StateFigures } from './state.ts';
import { root } from './setup.ts';
import { cpuText, ratioText, requestNames } from './throughput-section.ts';

/** Rewrites the figures between the markers of BENCHMARKS.md; the notes around them stay. */
export function refreshMarkdown(r: any): void {
  const others = Object.entries(r.targets).filter(
    ([name]) => !(name in r.throughputTargets) && !/at every scale/.test(name) && !/^merging /.test(name),
  );
  replaceBlock(
    'bench',
    `${measuredLine(r)}

Default dataset: up in ${r.startup.default_ms} ms from spawn to banner (median of five; the first, \
${r.startup.first_ms} ms, may fill the code cache; ${r.startup.no_code_cache_ms} ms with it off), \
${r.startup.default_rss_mb} MB resident. Contract suite against the mock: ${r.contract_suite.seconds} s for \
${r.contract_suite.calls} calls (the suite paces itself under the Enterprise rate of 50 req/s).

Counted calls (\`GET /firms?limit=1\`, ${r.state.rounds} alternating rounds, median req/s with lowest-highest): state \
in memory ${r.state.rps.memory.median} (${r.state.rps.memory.low}-${r.state.rps.memory.high}); \`--state\` with \
${r.state.keys.small} keys ${r.state.rps.database.median} (${r.state.rps.database.low}-${r.state.rps.database.high}), \
${r.state.ratios.database_vs_memory}x of in memory; with ${r.state.keys.large.toLocaleString('en')} keys \
${r.state.rps.database_large.median} (${r.state.rps.database_large.low}-${r.state.rps.database_large.high}), so \
${r.state.keys.small} keys do ${r.state.ratios.large_vs_small}x its req/s; \`--state-sync full\` \
${r.state.rps.database_full_sync.median} \
(${r.state.rps.database_full_sync.low}-${r.state.rps.database_full_sync.high}), ${r.state.ratios.full_sync_vs_memory}x \
of in memory. ${redisFigures(r.state)}

${targetLines(Object.fromEntries(others))}`,
  );
  refreshThroughput(r);
  refreshScale({ ...r, scale_ratios: r.ratios.scale });
  refreshDumps(r);
  refreshMerge(r);
}

/** The merge figures and their targets, refreshed by a full run and by \`--only merge\`. */
export function refreshMerge(r: any): void {
  const targets = Object.fromEntries(Object.entries(r.targets).filter(([name]) => /^merging /.test(name)));
  replaceBlock(
    'merge',
    `Last run ${r.when.slice(0, 16).replace('T', ' ')} UTC on ${r.machine.cpus} x ${r.machine.cpu}, Node \
${r.machine.node}. ${r.merge.rounds} alternating rounds, each command its own process, wall time from spawn to exit; \
medians (lowest-highest). Each part ${(r.merge.bytes_per_part / 1e6).toFixed(0)} MB of gzip.

${mergeLine(r.merge)}.

${targetLines(targets)}`,
  );
}

/** The scale tables and their targets, refreshed by a full run and by \`--only scale\`. */
export function refreshScale(r: any): void {
  replaceBlock('scale', scaleBlock(r));
}

/** The text of the scale block from a run's results (\`scale\`, \`scale_ratios\`, \`targets\`). */
export function scaleBlock(r: any): string {
  const figures = r.scale as ScaleFigures[];
  const rows = figures.map((f) => {
    const vs = r.scale_ratios[f.scale];
    const x = (n: number | undefined) => (n === undefined ? '' : ` (${n}x)`);
    return (
      `| ${f.scale.toLocaleString('en')} | ${f.rows.toLocaleString('en')} | ${f.database_mb} MB | ` +
      `${f.start_ms.median} ms (${f.start_ms.low}-${f.start_ms.high}) | ${f.rss_start_mb} / ` +
      `${f.rss_after_first_calls_mb} / ${f.rss_after_mixed_mb} / ${f.rss_peak_mb} MB | ${f.first_p50_ms} ` +
      `ms${x(vs?.first_p50)} / ${f.first.p50} ms, ${f.first.rps}${x(vs?.first_rps)} | ${f.deep_p50_ms} ` +
      `ms${x(vs?.deep_p50)} / ${f.deep.p50} ms, ${f.deep.rps}${x(vs?.deep_rps)} | ${f.mixed.rps} ` +
      `(${f.mixed.non2xx} not 2xx) |`
    );
  });
  const builds = figures
    .filter((f) => f.build_s !== null)
    .map((f) => `${f.scale.toLocaleString('en')} rows in ${f.build_s} s (${f.database_mb} MB)`);
  const dumps = figures.map((f) => `${f.scale.toLocaleString('en')} rows ${f.dump_s} s`);
  const targets = Object.fromEntries(Object.entries(r.targets).filter(([name]) => /at every scale/.test(name)));
  const over = scaleMisses(figures, r.scale_ratios);
  return `${measuredLine(r)} Each start-up is the median of three from spawn to banner with the dataset already \
generated; pages are \`/investments?limit=100\`, first and nine tenths deep, three alternating runs of each under load \
(the run of median req/s shown), each p50 one request at a time (to the microsecond; the target is judged on it) / \
under autocannon's load (whole milliseconds), and req/s under load; in brackets, each figure against the 10,000-row \
one (p50: this over that; req/s: that over this). Resident memory after start, after every operation's first call, \
after the mixed load, and the most at any moment (the kernel's high-water mark).

| scale | rows | database | start-up | resident: start / first calls / mixed load / peak | first page p50 alone / \
loaded, req/s | deep page p50 alone / loaded, req/s | mixed req/s |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

${operationsTable(figures, r.scale_ratios)}

${sameBytesLines(figures)}

${
  builds.length
    ? `Generated by this run (once per seed and scale, into the kit's cache): \
${builds.join('; ')}.\n\n`
    : ''
}\
The day's dump, which a mock on a database writes ahead from its start and keeps in the kit's cache for later starts: \
its manifest answered on the first start (untimed above) after ${dumps.join('; ')} (near 0 where an earlier run had \
kept it).\n\n${targetLines(targets)}${
    missLines(over).length
      ? `\n\nWhat missed an operation's target:\n${missLines(over)
          .map((line) => `- ${line}`)
          .join('\n')}`
      : ''
  }`;
}

/**
 * Every reading operation, one row each, its figures at each scale side by side: the first call on
 * the fresh mock, then p50 and p99 of its calls in the mixed load; in brackets, over the 10,000-row figure.
 */
function operationsTable(figures: ScaleFigures[], ratios: any): string {
  // Kept to the microsecond in the results; shown to three significant figures or so.
  const ms = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en') : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const scales = figures.map((f) => f.scale.toLocaleString('en')).join(' / ');
  const calls = Object.values(figures[0]!.operations)[0]?.loaded.requests ?? 0;
  const cell = (
    name: string,
    value: (o: ScaleFigures['operations'][string]) => number,
    which: 'first' | 'p50' | 'p99',
  ) =>
    figures
      .map((f, i) => `${ms(value(f.operations[name]!))}${i ? ` (${ratios[f.scale].operations[name][which]}x)` : ''}`)
      .join(' / ');
  const rows = Object.keys(figures[0]!.operations).map(
    (name) =>
      `| \`${name}\` | ${cell(name, (o) => o.first.ms, 'first')} | ` +
      `${cell(name, (o) => o.loaded.p50, 'p50')} | ${cell(name, (o) => o.loaded.p99, 'p99')} |`,
  );
  return `Every operation of the contract that reads data (\`/api/v1\` left out; lists and nested lists \
\`limit=100\`): its first call on the freshly started mock, each alone and one after another in the order below, from \
sending to the last byte (the account first: it reads none of the dataset and takes the first keyed call's set-up; \
then the statistics, on the Enterprise key and on a trial key, whose round lag is a rollup of its own; the export \
manifest last: the timed start finds the day's dump kept by the first one); then p50 and p99 of its \
${calls.toLocaleString('en')} calls in a mixed load cycling through all of them (autocannon, each answer's own \
latency). Milliseconds at ${scales} rows; in brackets, over the 10,000-row figure.

| operation | first call, ms | p50 under load, ms | p99 under load, ms |
|---|---|---|---|
${rows.join('\n')}`;
}

/** Per scale: every statistic the same bytes as the rollup from the rows, or which were not. */
function sameBytesLines(figures: ScaleFigures[]): string {
  return `Same bytes (each statistic as served on its first call against the rollup the reference implementation \
computes from the database file's rows): ${figures
    .map((f) => {
      const lines = Object.entries(f.same_bytes).flatMap(([name, keys]) =>
        Object.entries(keys).map(([key, line]) => ({ what: `${name} (${key})`, line })),
      );
      const differ = lines.filter((l) => l.line !== 'same bytes');
      const found = differ.length
        ? differ.map((l) => `${l.what}: ${l.line}`).join('; ')
        : `all ${lines.length} the same bytes`;
      return `at ${f.scale.toLocaleString('en')} rows, ${found}`;
    })
    .join('; ')}.`;
}

/** The line on dumps, refreshed by a full run and by \`--only dumps\`. */
export function refreshDumps(r: any): void {
  // The quiet runs last the full run's duration; the loaded ones as long as the build.
  replaceBlock(
    'dumps',
    `${measuredLine({ ...r, settings: { ...r.settings, duration_s: undefined } })} ${r.dumps.rounds} rounds, each on a \
fresh mock; medians.

${dumpLine(r.dumps)}.`,
  );
}

/** The throughput table and its targets, refreshed by a full run and by \`--only throughput\`. */
export function refreshThroughput(r: any): void {
  const t = r.throughput;
  const range = (x: { median: number; low: number; high: number }) => `${x.median} (${x.low}-${x.high})`;
  const row = (name: string) =>
    `| ${name} | ${t.mock[name].bytes} / ${t.prism[name].bytes} / ${t.bare[name].bytes} B | ` +
    `${range(t.mock[name].rps)} | ${t.mock[name].p50} / ${t.mock[name].p99} | ${range(t.prism[name].rps)} ` +
    `| ${range(t.bare[name].rps)} | ${ratioText(r.ratios.mock_vs_prism_rps[name])} | ` +
    `${ratioText(r.ratios.mock_vs_bare_rps[name])} | ${cpuText(t, name as (typeof requestNames)[number])} |`;
  replaceBlock(
    'throughput',
    `${measuredLine(r)} Each req/s is the median of ${r.settings.rounds} alternating runs (lowest-highest); each ratio \
is of the medians (in brackets, the lowest and highest of the rounds' own ratios). A server's CPU a call (user and \
system, from /proc, around each measured run; the median) says how much work a call is to the server alone, without \
the client's share of the two CPUs; the targets stay the req/s ratios.

| request | bytes read per answer (mock / prism / bare) | mock req/s | mock p50 / p99 ms | prism req/s | bare node \
req/s | mock / prism | mock / bare | server CPU a call, mock / bare (bare's over the mock's) |
|---|---|---|---|---|---|---|---|---|
${requestNames.map(row).join('\n')}

${targetLines(r.throughputTargets)}`,
  );
}

export function measuredLine(r: any): string {
  const length = r.settings.duration_s ? `, ${r.settings.duration_s} s a run` : '';
  return (
    `Last run ${r.when.slice(0, 16).replace('T', ' ')} UTC on ${r.machine.cpus} x ${r.machine.cpu}, Node ` +
    `${r.machine.node}. Client: ${r.settings.client}, ${r.settings.connections} connections${length}, client ` +
    `and servers on one machine.`
  );
}

export function targetLines(targets: Record<string, unknown>): string {
  return Object.entries(targets)
    .map(([name, met]) => `- ${met ? 'met' : '**not met**'}: ${name}`)
    .join('\n');
}

/** Rewrites the figures between a block's markers in BENCHMARKS.md; the notes around them stay. */
export function replaceBlock(name: string, figures: string): void {
  const file = join(root, 'BENCHMARKS.md');
  const marker = new RegExp(`<!-- ${name}:start -->[^]*<!-- ${name}:end -->`);
  const text = readFileSync(file, 'utf8');
  if (!marker.test(text)) throw new Error(`BENCHMARKS.md has no <!-- ${name}:start --> ... <!-- ${name}:end --> block`);
  writeFileSync(file, text.replace(marker, `<!-- ${name}:start -->\n${figures}\n<!-- ${name}:end -->`));
}

/** The Redis figures of the state section, or why there are none. */
function redisFigures(s: StateFigures): string {
  if (!s.rps.redis || !s.rps.redis_three_replicas) return `State on Redis: not measured (${s.redis_skipped}).`;
  const { redis, redis_three_replicas: three, memory_three_replicas: peer } = s.rps;
  return (
    `State on Redis (\`--state redis://\`), one replica: ${redis.median} (${redis.low}-${redis.high}), ` +
    `${s.ratios.redis_vs_memory}x of in memory; three replicas behind haproxy: ${three.median} ` +
    `(${three.low}-${three.high}), ${s.ratios.three_replicas_vs_one}x of one and ` +
    `${s.ratios.three_on_redis_vs_three_on_memory}x of three on their own memory behind it, ${peer!.median} ` +
    `(${peer!.low}-${peer!.high}) (every process on this machine's cores).`
  );
}
