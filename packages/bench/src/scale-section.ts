/** Start-up, memory and pages at each scale, deep pages by a minted cursor, a mixed load. */
import { statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import { mintCursor } from '@investor-graph/mock';
import { cachedDatabaseFile, defaultDataset, readManifest } from '@investor-graph/fixtures/node';
import { spread, type Spread } from './state.ts';
import { type Load, auth, connections, cursorSecret, load, loadOf, log, ratio, scales, smoke, startMock } from './setup.ts';

export interface ScaleFigures {
  scale: number;
  rows: number;
  investments: number;
  /** Building the dataset's database, when this run built it (null: it was in the cache). */
  build_s: number | null;
  database_mb: number;
  /** Spawn to banner with the dataset already generated: the median of three, with the spread. */
  start_ms: Spread;
  rss_start_mb: number;
  rss_after_mixed_mb: number;
  mixed: Load & { requests: number };
  first: Load;
  deep: Load;
  /** p50 of one request at a time, to the microsecond (autocannon's latencies are whole milliseconds). */
  first_p50_ms: number;
  deep_p50_ms: number;
}

/** The p50 latency of `url`, asked `n` times one after another on one kept-alive connection, in ms to the microsecond. */
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

/** The mixed requests: records, top-level and nested pages, a deep page, the feed and a rollup. */
export function mixedRequests(slugs: { firm: string; company: string }, deepCursor: string): string[] {
  return [
    `/api/v1/firms/${slugs.firm}`, `/api/v1/companies/${slugs.company}`, '/api/v1/investments?limit=100',
    `/api/v1/investments?limit=100&cursor=${encodeURIComponent(deepCursor)}`, `/api/v1/firms/${slugs.firm}/portfolio?limit=100`,
    `/api/v1/companies/${slugs.company}/investors`, '/api/v1/rounds?limit=50&announced_since=2024-01-01', '/api/v1/changes?since=2026-11-01T00:00:00Z&limit=100',
    '/api/v1/funds?limit=100', '/api/v1/statistics/rounds-by-year',
  ];
}

/**
 * Start-up, memory and pages at each scale, from the dataset's database already generated: the
 * first start at a scale builds it (timed, once); three more are timed from spawn to banner; then
 * the first page and a page nine tenths deep of the longest list, and 20,000 mixed requests.
 */
export async function scaleSection(): Promise<ScaleFigures[]> {
  const figures: ScaleFigures[] = [];
  for (const scale of scales) {
    const dataset = { seed: 'bench', scale, asOf: defaultDataset.asOf };
    const file = cachedDatabaseFile(dataset);
    let build_s: number | null = null;
    const args = ['--seed', 'bench', '--scale', String(scale), '--cursor-secret', cursorSecret];
    let server = await startMock(args);
    const built = /built [\d,]+ rows in ([\d.]+) s/.exec(server.output());
    if (built) build_s = Number(built[1]);
    await server.stop();
    const starts: number[] = [];
    for (let i = 0; i < (smoke ? 1 : 3); i++) {
      server = await startMock(args);
      starts.push(server.startMs);
      if (i < (smoke ? 0 : 2)) await server.stop();
    }
    try {
      const rssStart = server.rssMb();
      // The key nine tenths of the way down the investments, read from the database the mock opened.
      const db = new DatabaseSync(file, { readOnly: true });
      const manifest = readManifest(db)!;
      const investments = manifest.rows.investment!;
      const deepKey = (db.prepare('SELECT key FROM investment ORDER BY key LIMIT 1 OFFSET ?').get(Math.floor(investments * 0.9)) as { key: string }).key;
      db.close();
      // A cursor deep into the list (walking there would take minutes at ten million rows), under the secret the mock was started with.
      const deepCursor = await mintCursor(cursorSecret, 'listInvestments', deepKey);
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
      const [first, deep] = [middle(firstRuns), middle(deepRuns)];
      const probes = smoke ? 100 : 1_000;
      const [first_p50_ms, deep_p50_ms] = [await probeP50(firstUrl, probes), await probeP50(deepUrl, probes)];
      const firm = ((await (await fetch(`${server.url}/api/v1/firms?limit=1`, { headers: auth })).json()) as { data: { slug: string }[] }).data[0]!.slug;
      const company = ((await (await fetch(`${server.url}/api/v1/companies?limit=1`, { headers: auth })).json()) as { data: { slug: string }[] }).data[0]!.slug;
      const paths = mixedRequests({ firm, company }, deepCursor);
      const amount = smoke ? 2_000 : 20_000;
      // A rollup reads every round: at ten million rows the first call waits seconds for it (others do not).
      const mixedStarted = performance.now();
      const result = await autocannon({ url: server.url, connections, amount, headers: auth, timeout: 600, requests: paths.map((path) => ({ method: 'GET', path })) });
      const mixed = { ...loadOf(result, result.requests.total / ((performance.now() - mixedStarted) / 1000)), requests: result.requests.total };
      const f: ScaleFigures = {
        scale, rows: manifest.total_rows, investments, build_s, database_mb: Math.round(statSync(file).size / 1e6),
        start_ms: spread(starts), rss_start_mb: rssStart, rss_after_mixed_mb: server.rssMb(), mixed, first, deep, first_p50_ms, deep_p50_ms,
      };
      figures.push(f);
      log(scaleLine(f));
    } finally {
      await server.stop();
    }
  }
  return figures;
}

export const scaleLine = (f: ScaleFigures): string =>
  `scale ${f.scale.toLocaleString('en')} (${f.rows.toLocaleString('en')} rows, ${f.database_mb} MB${f.build_s === null ? '' : `, built in ${f.build_s} s`}): up in ${f.start_ms.median} ms, ${f.rss_start_mb} MB, ${f.rss_after_mixed_mb} MB after ${f.mixed.requests.toLocaleString('en')} mixed requests (${f.mixed.rps} req/s, ${f.mixed.non2xx} not 2xx); first page p50 ${f.first_p50_ms} ms one at a time (${f.first.p50} ms under load), ${f.first.rps} req/s; page nine tenths deep p50 ${f.deep_p50_ms} ms (${f.deep.p50} ms), ${f.deep.rps} req/s`;

/** The scale targets (issue #24), each scale against the first (10,000 rows). */
export function scaleTargets(figures: ScaleFigures[]) {
  const base = figures[0]!;
  const ratios = Object.fromEntries(figures.slice(1).map((f) => [f.scale, {
    first_p50: ratio(f.first_p50_ms, base.first_p50_ms), deep_p50: ratio(f.deep_p50_ms, base.deep_p50_ms),
    first_rps: ratio(base.first.rps, f.first.rps), deep_rps: ratio(base.deep.rps, f.deep.rps),
  }]));
  const all = (test: (f: ScaleFigures) => boolean) => figures.every(test);
  const targets = {
    'start-up under 2 s at every scale (dataset generated)': all((f) => f.start_ms.median < 2_000),
    'resident memory under 400 MB after start and after 20,000 mixed requests at every scale': all((f) => f.rss_start_mb < 400 && f.rss_after_mixed_mb < 400),
    'first and deep page p50 within 1.3x of the 10,000-row figure at every scale': Object.values(ratios).every((r) => r.first_p50 <= 1.3 && r.deep_p50 <= 1.3),
    'first and deep page req/s within 1.3x of the 10,000-row figure at every scale': Object.values(ratios).every((r) => r.first_rps <= 1.3 && r.deep_rps <= 1.3),
  };
  return { ratios, targets };
}
