/**
 * pnpm bench: the mock beside `prism mock` and beside a bare node:http server, on the same requests
 * with the same client (autocannon), connections and duration; deep pages at ~10k and ~1M rows;
 * start-up time and memory; the contract suite's run time; counted calls with --state against the
 * state in memory. Prints the figures, writes them to bench-results/bench.json and refreshes the
 * figures part of BENCHMARKS.md.
 *   node src/bench.ts [--smoke] [--only state] [--duration S] [--connections N] [--out FILE]
 * --smoke: short runs and small datasets, to check in CI that the benchmark still works (its figures
 * mean nothing and BENCHMARKS.md is left alone).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess, startProcess } from './processes.ts';
import { spread } from './state.ts';
import { dumpLine, dumpsSection } from './dumps-section.ts';
import { dataSection, dataTargets, refreshData } from './data-section.ts';
import { hostileAlone } from './hostile-section.ts';
import { refreshDumps, refreshMarkdown, refreshMerge, refreshScale, refreshThroughput } from './markdown.ts';
import { mergeLine, mergeSection, mergeTargets } from './merge-section.ts';
import { scaleSection } from './scale-section.ts';
import { missLines, scaleTargets } from './scale-targets.ts';
import {
  cleanUp,
  connections,
  contractCli,
  duration,
  key,
  log,
  measuredOn,
  mockCli,
  out,
  rounds,
  scales,
  smoke,
  startMock,
  stateLine,
  stateSection,
  temp,
  writeResults,
  values,
} from './setup.ts';
import { metricsAlone } from './metrics-section.ts';
import { pathAlone } from './path-section.ts';
import { logTargets, throughputLines, throughputSection, throughputTargets } from './throughput-section.ts';

/** The sections `--only` runs alone: each measures and writes its figures (most refresh their BENCHMARKS.md block). */
const alone: Record<string, () => Promise<void>> = {
  async throughput() {
    const { bytes, throughput } = await throughputSection(await startMock([]));
    const speed = throughputTargets(throughput);
    const results = {
      ...measuredOn(),
      settings: { client: 'autocannon 9.0.0', connections, duration_s: duration, rounds },
      bytes,
      throughput,
      ratios: speed.ratios,
      throughputTargets: speed.targets,
    };
    writeResults(results);
    for (const line of throughputLines(throughput, speed.ratios)) log(line);
    logTargets(speed.targets);
    if (!smoke) refreshThroughput(results);
  },
  async scale() {
    const scale = await scaleSection();
    const { ratios, targets, over } = scaleTargets(scale);
    const results = {
      ...measuredOn(),
      settings: { client: 'autocannon 9.0.0', connections, duration_s: duration },
      scale,
      scale_ratios: ratios,
      scale_over: over,
      targets,
    };
    writeResults(results);
    logTargets(targets);
    for (const line of missLines(over)) log(`  ${line}`);
    if (!smoke) refreshScale(results);
  },
  async dumps() {
    const dumps = await dumpsSection();
    const targets = { 'p99 of ordinary requests while a dump is built within 2x of p99 without': dumps.p99_ratio <= 2 };
    const results = { ...measuredOn(), settings: { client: 'autocannon 9.0.0', connections }, dumps, targets };
    writeResults(results);
    log(dumpLine(dumps));
    logTargets(targets);
    if (!smoke) refreshDumps(results);
  },
  async merge() {
    const merge = await mergeSection();
    const targets = mergeTargets(merge);
    const results = { ...measuredOn(), merge, targets };
    writeResults(results);
    log(mergeLine(merge));
    logTargets(targets);
    if (!smoke) refreshMerge(results);
  },
  // Not in the full run: at ten million rows it takes a quarter of an hour of its own.
  async data() {
    const figures = await dataSection();
    const targets = dataTargets(figures);
    const results = { ...measuredOn(), figures, targets };
    writeResults(results);
    logTargets(targets);
    if (!smoke) refreshData(results);
  },
  // Not in the full run: a probe of the control plane's bounds, not of the mock's speed.
  hostile: hostileAlone,
  // Not in the full run: the mock against itself with --no-metrics (#69).
  metrics: metricsAlone,
  // Not in the full run: what code one keyed GET runs, not how fast (#67).
  path: pathAlone,
  async state() {
    const state = await stateSection();
    writeResults({ ...measuredOn(), state });
    log(stateLine(state));
  },
};

if (values.only !== undefined) {
  try {
    await alone[values.only]!();
    log(`figures in ${out}`);
  } finally {
    await cleanUp();
  }
  process.exit(0);
}

try {
  // ------------------------------------------------------------ start-up on the default dataset
  // From spawn to the banner, five times each: with V8's code cache on disk (the CLI's default; the
  // first start may fill it) and, as the peer, with it off.
  const starts = async (env: Record<string, string>): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < (smoke ? 2 : 5); i++) {
      const s = await startProcess(process.execPath, [mockCli, '--port', '0'], /mock on (http:\/\/127\.0\.0\.1:\d+)/, {
        env,
      });
      times.push(s.startMs);
      await s.stop();
    }
    return times;
  };
  const cached = await starts({});
  const uncached = await starts({ NODE_DISABLE_COMPILE_CACHE: '1' });
  const mock = await startMock([]);
  const startup = {
    default_ms: spread(cached).median,
    first_ms: cached[0]!,
    no_code_cache_ms: spread(uncached).median,
    default_rss_mb: mock.rssMb(),
  };
  log(
    `mock on the default dataset: up in ${startup.default_ms} ms (median of ${cached.join(', ')}; ` +
      `${startup.no_code_cache_ms} ms without the code cache), ${startup.default_rss_mb} MB resident`,
  );

  // ------------------------------------------------------------ the same requests, three servers
  const { bytes, throughput } = await throughputSection(mock);

  // ------------------------------------------------------------ the contract suite's run time
  const suiteStarted = performance.now();
  const suite = await runProcess(
    process.execPath,
    [
      contractCli,
      '--base-url',
      mock.url,
      '--key',
      key,
      '--plan',
      'enterprise',
      '--budget-calls',
      smoke ? '40' : '400',
      '--seed',
      '1',
      '--junit',
      join(temp, 'suite.xml'),
      '--report',
      join(temp, 'suite.json'),
    ],
    { CI: '1' },
  );
  const suiteReport = JSON.parse(readFileSync(join(temp, 'suite.json'), 'utf8')) as { spent: { calls: number } };
  const contractSuite = {
    seconds: Math.round((performance.now() - suiteStarted) / 100) / 10,
    calls: suiteReport.spent.calls,
    exit_code: suite,
  };
  log(`contract suite against the mock: ${contractSuite.seconds} s for ${contractSuite.calls} calls (exit ${suite})`);
  await mock.stop();

  // ------------------------------------------------------------ start-up, memory and pages at each scale
  const scale = await scaleSection();
  const scaleFigures = scaleTargets(scale);

  // ------------------------------------------------------------ ordinary requests while a dump is built
  const dumps = await dumpsSection();
  log(dumpLine(dumps));

  // ------------------------------------------------------------ --state: memory against the database
  const state = await stateSection();
  log(stateLine(state));

  // ------------------------------------------------------------ merging a split load run
  const merge = await mergeSection();
  log(mergeLine(merge));

  const speed = throughputTargets(throughput);
  const ratios = { ...speed.ratios, scale: scaleFigures.ratios };
  const targets = {
    ...speed.targets,
    ...scaleFigures.targets,
    'start-up under 1 s on the default dataset': startup.default_ms < 1000,
    'p99 of ordinary requests while a dump is built within 2x of p99 without': dumps.p99_ratio <= 2,
    'the state database costs at most 25% of in-memory counted calls': state.ratios.database_vs_memory >= 0.75,
    '100,000 keys in the state database within 1.2x of a handful': state.ratios.large_vs_small <= 1.2,
    // Not measured where redis-server or haproxy is missing: said in the figures, not counted as met.
    'state on Redis, one replica, at least half of in-memory counted calls':
      state.ratios.redis_vs_memory !== null && state.ratios.redis_vs_memory >= 0.5,
    ...mergeTargets(merge),
  };
  const results = {
    ...measuredOn(),
    settings: { client: 'autocannon 9.0.0', connections, duration_s: duration, rounds, scales },
    bytes,
    throughput,
    ratios,
    startup,
    scale,
    scale_over: scaleFigures.over,
    dumps,
    contract_suite: contractSuite,
    state,
    merge,
    targets,
    throughputTargets: speed.targets,
  };
  writeResults(results);
  log('');
  for (const line of throughputLines(throughput, speed.ratios)) log(line);
  logTargets(targets);
  for (const line of missLines(scaleFigures.over)) log(`  ${line}`);
  log(`figures in ${out}`);
  if (!smoke) refreshMarkdown(results);
} finally {
  await cleanUp();
}
