/**
 * Start-up, memory, pages and every reading operation at each scale: first calls, a mixed load, the statistics' bytes.
 */
import { statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { mintCursor, newKeyText, statisticNames } from '@investor-graph/mock';
import { cachedDatabaseFile, defaultDataset, readManifest } from '@investor-graph/dataset-tools/database';
import {
  type FirstCall,
  type LoadedOperation,
  firstCalls,
  operationLoad,
  pickRows,
  scaleOperations,
} from './scale-operations.ts';
import { type SameBytes, sameBytes } from './same-bytes.ts';
import { spread, type Spread } from './state.ts';
import { type Load, auth, cursorSecret, key, load, log, scales, smoke, startMock } from './setup.ts';

export interface ScaleFigures {
  scale: number;
  rows: number;
  investments: number;
  /** Building the dataset's database, when this run built it (null: it was in the cache). */
  build_s: number | null;
  /**
   * From the first start's banner until its export manifest answered: the day's dump, which the
   * mock writes ahead from start and keeps in the kit's cache for later starts (near 0 when an
   * earlier run left it there).
   */
  dump_s: number;
  database_mb: number;
  /** Spawn to banner with the dataset already generated: the median of three, with the spread. */
  start_ms: Spread;
  rss_start_mb: number;
  rss_after_first_calls_mb: number;
  rss_after_mixed_mb: number;
  /** The most the mock was resident at any moment of the scale's run (Linux's high-water mark). */
  rss_peak_mb: number;
  /** Every operation's mixed load together. */
  mixed: Load & { requests: number };
  first: Load;
  deep: Load;
  /** p50 of one request at a time, to the microsecond (autocannon's latencies are whole milliseconds). */
  first_p50_ms: number;
  deep_p50_ms: number;
  /** Every reading operation, by name: its first call on the fresh mock and its latencies under the mixed load. */
  operations: Record<string, { first: FirstCall; loaded: LoadedOperation }>;
  same_bytes: SameBytes;
}

/**
 * The p50 latency of `url`, asked `n` times one after another on one kept-alive connection, in ms to the microsecond.
 */
export async function probeP50(url: string, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n + 50; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { ...auth, 'accept-encoding': 'identity' } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    // The first 50 warm up (the JIT, the connection) and are not counted.
    if (i >= 50) times.push(performance.now() - started);
  }
  return Math.round(spread(times).median * 1000) / 1000;
}

/**
 * Rounds of every operation in the mixed load: a thousand calls each, so its p99 is the 11th slowest (nearest rank);
 * twenty in the smoke, which only checks that every operation is driven and answered.
 */
const perOperation = smoke ? 20 : 1_000;
/** Trial keys preset for the load, each kept under half its quota of 1,000 calls. */
const trialKeys = Array.from({ length: Math.ceil(((perOperation + 1) * statisticNames.length) / 500) }, () =>
  newKeyText('trial'),
);

/**
 * Each scale, from the dataset's database already generated: the first start builds it (timed,
 * once); three more are timed from spawn to banner, the last kept. On it, fresh, every reading
 * operation's first call, one at a time; then the first page and a page nine tenths deep of the
 * longest list; then a mixed load of every operation. After it stops, the statistics it served are
 * compared with the rollups from the rows.
 */
export async function scaleSection(): Promise<ScaleFigures[]> {
  const figures: ScaleFigures[] = [];
  for (const scale of scales) {
    const dataset = { seed: 'bench', scale, asOf: defaultDataset.asOf };
    const file = cachedDatabaseFile(dataset);
    let build_s: number | null = null;
    const args = [
      '--seed',
      'bench',
      '--scale',
      String(scale),
      '--cursor-secret',
      cursorSecret,
      ...trialKeys.flatMap((k) => ['--key', `trial=${k}`]),
    ];
    let server = await startMock(args);
    const built = /built [\d,]+ rows in ([\d.]+) s/.exec(server.output());
    if (built) build_s = Number(built[1]);
    // The dump the start writes ahead (minutes at ten million rows, once): the timed starts find it kept.
    const dumpStarted = performance.now();
    const manifestAnswer = await fetch(`${server.url}/api/v1/exports`, { headers: auth });
    if (manifestAnswer.status !== 200)
      throw new Error(`the export manifest answered ${manifestAnswer.status}: ${await manifestAnswer.text()}`);
    await manifestAnswer.arrayBuffer();
    const dump_s = Math.round((performance.now() - dumpStarted) / 100) / 10;
    await server.stop();
    // The rows asked for, from the database the mock opens (a walk to the deep page would
    // take minutes at ten million rows).
    const db = new DatabaseSync(file, { readOnly: true });
    const manifest = readManifest(db)!;
    const picked = pickRows(db, manifest.rows, manifest.as_of);
    db.close();
    // A cursor deep into the list, under the secret the mock is started with.
    const deepCursor = await mintCursor(cursorSecret, 'listInvestments', picked.deepKey);
    const operations = scaleOperations(picked, deepCursor);
    const starts: number[] = [];
    for (let i = 0; i < (smoke ? 1 : 3); i++) {
      server = await startMock(args);
      starts.push(server.startMs);
      if (i < (smoke ? 0 : 2)) await server.stop();
    }
    let f: Omit<ScaleFigures, 'same_bytes'>;
    let bodies: Record<string, string>;
    try {
      const rssStart = server.rssMb();
      log(
        `scale ${scale.toLocaleString('en')}: the first call of each of ${operations.length} operations, one at a time`,
      );
      const first = await firstCalls(server.url, operations, { enterprise: key, trial: trialKeys[0]! });
      bodies = first.bodies;
      const rssFirst = server.rssMb();
      const firstUrl = `${server.url}/api/v1/investments?limit=100`;
      const deepUrl = `${firstUrl}&cursor=${encodeURIComponent(deepCursor)}`;
      // Three alternating runs of each (one with --smoke); each figure is the run of median req/s.
      const firstRuns: Load[] = [];
      const deepRuns: Load[] = [];
      for (let i = 0; i < (smoke ? 1 : 3); i++) {
        firstRuns.push(await load(firstUrl, auth, i > 0));
        deepRuns.push(await load(deepUrl, auth, i > 0));
      }
      const middle = (runs: Load[]): Load => [...runs].sort((a, b) => a.rps - b.rps)[runs.length >> 1]!;
      const probes = smoke ? 100 : 1_000;
      const [first_p50_ms, deep_p50_ms] = [await probeP50(firstUrl, probes), await probeP50(deepUrl, probes)];
      log(
        `scale ${scale.toLocaleString('en')}: a mixed load, ${perOperation.toLocaleString('en')} calls of ` +
          `each operation`,
      );
      const loaded = await operationLoad(server.url, operations, { enterprise: key, trials: trialKeys }, perOperation);
      f = {
        scale,
        rows: manifest.total_rows,
        investments: manifest.rows.investment!,
        build_s,
        dump_s,
        database_mb: Math.round(statSync(file).size / 1e6),
        start_ms: spread(starts),
        rss_start_mb: rssStart,
        rss_after_first_calls_mb: rssFirst,
        rss_after_mixed_mb: server.rssMb(),
        rss_peak_mb: server.peakRssMb(),
        mixed: loaded.mixed,
        first: middle(firstRuns),
        deep: middle(deepRuns),
        first_p50_ms,
        deep_p50_ms,
        operations: Object.fromEntries(
          operations.map((o) => [o.name, { first: first.calls[o.name]!, loaded: loaded.operations[o.name]! }]),
        ),
      };
    } finally {
      await server.stop();
    }
    log(
      `scale ${scale.toLocaleString('en')}: each statistic as served against the rollup from the rows of ` +
        `the database file, computed here (a few minutes at ten million rows)`,
    );
    const figure = { ...f, same_bytes: await sameBytes(file, statisticNames, bodies, log) };
    figures.push(figure);
    for (const line of scaleLines(figure)) log(line);
  }
  return figures;
}

export const scaleLines = (f: ScaleFigures): string[] => [
  `scale ${f.scale.toLocaleString('en')} (${f.rows.toLocaleString('en')} rows, ${f.database_mb} ` +
    `MB${f.build_s === null ? '' : `, built in ${f.build_s} s`}, its dump ready ${f.dump_s} s after the ` +
    `first start): up in ${f.start_ms.median} ms, ${f.rss_start_mb} MB, ${f.rss_after_first_calls_mb} MB ` +
    `after the first calls, ${f.rss_after_mixed_mb} MB after ${f.mixed.requests.toLocaleString('en')} mixed ` +
    `requests (${f.mixed.rps} req/s, ${f.mixed.non2xx} not 2xx), ${f.rss_peak_mb} MB at the most; first page ` +
    `p50 ${f.first_p50_ms} ms one at a time (${f.first.p50} ms under load), ${f.first.rps} req/s; page nine ` +
    `tenths deep p50 ${f.deep_p50_ms} ms (${f.deep.p50} ms), ${f.deep.rps} req/s`,
  ...Object.entries(f.operations).map(
    ([name, o]) =>
      `  ${name}: first call ${o.first.ms} ms (${o.first.status}); under load p50 ${o.loaded.p50} ms, p99 ` +
      `${o.loaded.p99} ms (${o.loaded.requests} ` +
      `calls${o.loaded.non2xx ? `, ${o.loaded.non2xx} not 2xx` : ''})`,
  ),
];
