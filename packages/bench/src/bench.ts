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
import { mkdirSync, readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DatabaseSync } from 'node:sqlite';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openapiDocument } from '@investor-graph/contract/document';
import { mintCursor, newKeyText } from '@investor-graph/mock';
import { freePort, readFlags } from '@investor-graph/cli';
import { cachedDatabaseFile, defaultDataset, readManifest } from '@investor-graph/fixtures/node';
import { runProcess, startProcess, type Started } from './processes.ts';
import { benchState, spread, type Spread, type StateFigures } from './state.ts';

const usage = `usage: pnpm bench [-- options]
  --smoke             a short run that checks the benchmark works (its figures mean nothing)
  --duration S        seconds a measured run lasts (5; 1 with --smoke)
  --rounds N          alternating rounds of the three servers (5; 1 with --smoke)
  --only SECTION      only one section, figures to --out: state (memory against the database),
                      throughput (the mock beside prism and bare node), scale (start-up, memory
                      and pages at 10,000 and 1,000,000 rows) or dumps (ordinary requests while
                      a nightly dump of the largest dataset is built)
  --large             the scale and dumps sections at 10,000,000 rows too (the first run builds
                      that dataset into the kit's cache: about three minutes and 7.5 GB)
  --connections N     autocannon connections (10)
  --out FILE          the figures as JSON (bench-results/bench.json)
  -h, --help          this text
  --version           the package and its version`;
const { values, fail } = readFlags('bench', usage, process.argv.slice(2), {
  smoke: { type: 'boolean' },
  only: { type: 'string' },
  large: { type: 'boolean' },
  duration: { type: 'string' },
  rounds: { type: 'string' },
  connections: { type: 'string', default: '10' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
});
const smoke = values.smoke ?? false;
const duration = Number(values.duration ?? (smoke ? 1 : 5));
const rounds = Number(values.rounds ?? (smoke ? 1 : 5));
const connections = Number(values.connections);
if (!(duration > 0)) fail(`--duration must be a number of seconds above 0, got ${values.duration}`);
if (!Number.isInteger(connections) || connections < 1) fail(`--connections must be a whole number of at least 1, got ${values.connections}`);
if (!Number.isInteger(rounds) || rounds < 1) fail(`--rounds must be a whole number of at least 1, got ${values.rounds}`);
if (values.only !== undefined && !['state', 'throughput', 'scale', 'dumps'].includes(values.only)) fail(`--only takes state, throughput, scale or dumps, got ${values.only}`);
/** The dataset scales measured: the first is the one the others are held to. */
const scales = smoke ? [2_000, 20_000] : [10_000, 1_000_000, ...(values.large ? [10_000_000] : [])];

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
/** A package's command, found through its package.json as installed (never another package's files by path). */
function binOf(name: string): string {
  const manifest = createRequire(import.meta.url).resolve(`${name}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : Object.values(bin)[0]!);
}
const mockCli = binOf('@investor-graph/mock');
const contractCli = binOf('@investor-graph/contract-tests');
const prismCli = binOf('@stoplight/prism-cli');
const out = resolve(values.out ?? join(root, 'bench-results/bench.json'));
const temp = mkdtempSync(join(tmpdir(), 'ig-bench-'));
const key = newKeyText('enterprise');
const auth = { authorization: `Bearer ${key}` };
const running: Started[] = [];

function log(line: string): void {
  console.log(line);
}

function startMock(args: string[]): Promise<Started> {
  return startProcess(process.execPath, [mockCli, '--port', '0', '--key', `enterprise=${key}`, '--no-rate-limit', ...args], /mock on (http:\/\/127\.0\.0\.1:\d+)/, { timeoutMs: 600_000 }).then((s) => (running.push(s), s));
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** The slowest answer, ms: a stall of the whole server shows here when too few calls wait in it to move p99. */
  max: number;
  non2xx: number;
  errors: number;
  /** Bytes read per response, head and body: shows the servers sent like answers. */
  bytes: number;
}

/** One measured run, after a discarded warm-up unless `warm` says the server had one on this URL. */
async function load(url: string, headers: Record<string, string>, warm = false): Promise<Load> {
  // A discarded warm-up first, the same for every server: the first seconds of a fresh process are
  // its JIT compiling, and without it the first request type measured pays for that.
  if (!warm) await autocannon({ url, connections, duration: smoke ? 0.5 : 2, headers });
  const result = await autocannon({ url, connections, duration, headers });
  return loadOf(result, result.requests.average);
}

/** A run's figures from autocannon's result, at `rps` requests a second. */
function loadOf(result: autocannon.Result, rps: number): Load {
  return { rps: Math.round(rps), p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, non2xx: result.non2xx, errors: result.errors, bytes: Math.round(result.throughput.total / Math.max(1, result.requests.total)) };
}

const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/** When and where the figures were measured. */
const measuredOn = () => ({ when: new Date().toISOString(), smoke, machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version } });

/** The figures as JSON in --out. */
function writeResults(results: object): void {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
}

const stateLine = (s: StateFigures): string =>
  `counted calls with --state: ${s.ratios.database_vs_memory}x of in memory (${s.keys.small} keys), ${s.keys.small} keys do ${s.ratios.large_vs_small}x the req/s of ${s.keys.large.toLocaleString('en')}; --state-sync full: ${s.ratios.full_sync_vs_memory}x of in memory`;

/** The --state section: in memory against the database, a handful of keys against 100,000. */
function stateSection(): Promise<StateFigures> {
  return benchState({
    temp, rounds: smoke ? 1 : 3, largeKeys: smoke ? 2_000 : 100_000, startMock, log,
    path: '/api/v1/firms?limit=1',
    rps: async (url) => (await load(url, auth)).rps,
  });
}

const cursorSecret = 'bench-cursor-secret-0123456789';

interface ScaleFigures {
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
async function probeP50(url: string, n: number): Promise<number> {
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
function mixedRequests(slugs: { firm: string; company: string }, deepCursor: string): string[] {
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
async function scaleSection(): Promise<ScaleFigures[]> {
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

const scaleLine = (f: ScaleFigures): string =>
  `scale ${f.scale.toLocaleString('en')} (${f.rows.toLocaleString('en')} rows, ${f.database_mb} MB${f.build_s === null ? '' : `, built in ${f.build_s} s`}): up in ${f.start_ms.median} ms, ${f.rss_start_mb} MB, ${f.rss_after_mixed_mb} MB after ${f.mixed.requests.toLocaleString('en')} mixed requests (${f.mixed.rps} req/s, ${f.mixed.non2xx} not 2xx); first page p50 ${f.first_p50_ms} ms one at a time (${f.first.p50} ms under load), ${f.first.rps} req/s; page nine tenths deep p50 ${f.deep_p50_ms} ms (${f.deep.p50} ms), ${f.deep.rps} req/s`;

/** The scale targets (issue #24), each scale against the first (10,000 rows). */
function scaleTargets(figures: ScaleFigures[]) {
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

interface DumpFigures {
  scale: number;
  rounds: number;
  /** The ordinary request measured, the same in both runs of a round. */
  request: string;
  quiet: { p50: Spread; p99: Spread; max: Spread; rps: Spread };
  during: { p50: Spread; p99: Spread; max: Spread; rps: Spread };
  /** How long the builds took, of those that ended within the window (null: none did). */
  build_ms: Spread | null;
  window_s: number;
  /** p99 while a dump is built over p99 without: the ratio of the medians, with the rounds' own lowest and highest. */
  p99_ratio: number;
  p99_ratio_rounds: { low: number; high: number };
}

/**
 * Ordinary requests while the day's dump of the largest dataset is built, beside the same requests
 * with none: each round starts a mock (a dump is built once a day), loads it quietly, then asks for
 * the manifest, which builds the dump, and loads it again until that answer comes or the window
 * ends (a dump of ten million rows takes minutes; its first half minute is as loaded as any).
 */
async function dumpsSection(): Promise<DumpFigures> {
  const scale = scales.at(-1)!;
  const dumpRounds = smoke ? 1 : 3;
  const windowMs = smoke ? 20_000 : 30_000;
  const request = '/api/v1/companies?limit=10';
  const quiet: Load[] = [];
  const during: Load[] = [];
  const builds: number[] = [];
  for (let round = 0; round < dumpRounds; round++) {
    const server = await startMock(['--seed', 'bench', '--scale', String(scale)]);
    try {
      quiet.push(await load(`${server.url}${request}`, auth));
      const started = performance.now();
      const manifest = fetch(`${server.url}/api/v1/exports`, { headers: auth }).then(async (r) => {
        if (r.status !== 200) throw new Error(`the manifest answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
        return Math.round(performance.now() - started);
      });
      manifest.catch(() => undefined);
      // Load until the manifest is there or the window ends, then stop: autocannon stops at its
      // next sample, every 100 ms here (a second by default), so the load ends with the build.
      const loaded = new Promise<Load>((resolve, reject) => {
        const instance = autocannon({ url: `${server.url}${request}`, connections, duration: windowMs / 1000, headers: auth, sampleInt: 100 }, (error, result) =>
          // requests.average is per sample (100 ms here), so the rate is the total over the time.
          error ? reject(error) : resolve(loadOf(result, result.requests.total / Math.max(0.001, result.duration))),
        );
        manifest.then(() => instance.stop(), () => instance.stop());
      });
      during.push(await loaded);
      const built = await Promise.race([manifest, new Promise<null>((resolve) => setTimeout(resolve, 50, null))]);
      if (built !== null) builds.push(built);
      log(`dump round ${round + 1}/${dumpRounds}: ${built === null ? `still building after ${windowMs / 1000} s` : `built in ${built} ms`}; ${request} p99 ${quiet.at(-1)!.p99} ms quiet, ${during.at(-1)!.p99} ms while building (p50 ${quiet.at(-1)!.p50} / ${during.at(-1)!.p50} ms, slowest ${quiet.at(-1)!.max} / ${during.at(-1)!.max} ms)`);
    } finally {
      await server.stop();
    }
  }
  const of = (list: Load[]) => ({ p50: spread(list.map((l) => l.p50)), p99: spread(list.map((l) => l.p99)), max: spread(list.map((l) => l.max)), rps: spread(list.map((l) => l.rps)) });
  // autocannon reports whole milliseconds: a quiet p99 of 0 is counted as 1 so the ratio stays finite.
  const perRound = during.map((d, i) => ratio(d.p99, Math.max(1, quiet[i]!.p99)));
  const figures = { quiet: of(quiet), during: of(during) };
  return {
    scale, rounds: dumpRounds, request, ...figures, build_ms: builds.length ? spread(builds) : null, window_s: windowMs / 1000,
    p99_ratio: ratio(figures.during.p99.median, Math.max(1, figures.quiet.p99.median)),
    p99_ratio_rounds: { low: Math.min(...perRound), high: Math.max(...perRound) },
  };
}

const dumpLine = (d: DumpFigures): string =>
  `while a dump of scale ${d.scale.toLocaleString('en')} is built (${d.build_ms ? `${d.build_ms.median} ms` : `longer than the ${d.window_s} s window measured`}): ${d.request} p99 ${d.during.p99.median} ms against ${d.quiet.p99.median} ms with none, ${d.p99_ratio}x (rounds ${d.p99_ratio_rounds.low}-${d.p99_ratio_rounds.high}x; p50 ${d.during.p50.median} / ${d.quiet.p50.median} ms, slowest ${d.during.max.median} / ${d.quiet.max.median} ms; req/s ${d.during.rps.median} / ${d.quiet.rps.median})`;

/** Per server and request: the runs' req/s as a spread, and the medians of the rest. */
interface Throughput {
  rps: Spread;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  bytes: number;
}

const servers = ['mock', 'prism', 'bare'] as const;
const requestNames = ['record', 'page', 'error'] as const;
type Figures = Record<(typeof servers)[number], Record<(typeof requestNames)[number], Throughput>>;

/**
 * The mock beside prism and a bare node:http server on the same three requests, sending the same
 * bytes: `rounds` rounds, each running every request on every server in turn, so a slow spell of
 * the machine falls on all three alike; each figure is the median of its runs with the spread.
 */
async function throughputSection(mock: Started): Promise<{ bytes: Record<string, number>; throughput: Figures }> {
  const slug = ((await (await fetch(`${mock.url}/api/v1/firms?limit=1`, { headers: auth })).json()) as { data: { slug: string }[] }).data[0]!.slug;
  const requests = {
    record: { path: `/api/v1/firms/${slug}`, headers: auth, template: '/api/v1/firms/{slug}' },
    page: { path: '/api/v1/companies?limit=100', headers: auth, template: '/api/v1/companies' },
    error: { path: '/api/v1/companies?limit=100', headers: {} as Record<string, string>, template: '/api/v1/companies' },
  };
  // The bare server answers with the mock's own bytes, status and content type.
  const answers: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
  const bytes: Record<string, number> = {};
  for (const [name, r] of Object.entries(requests)) {
    // As autocannon asks, with no Accept-Encoding of fetch's own: the bytes as they go uncompressed.
    const response = await fetch(`${mock.url}${r.path}`, { headers: { ...r.headers, 'accept-encoding': 'identity' } });
    const body = Buffer.from(await response.arrayBuffer());
    bytes[name] = body.length;
    // The error path has no key, so it is told apart by path in the bare server.
    // Every header the mock sent but those Node's own server writes (Date, Connection, Keep-Alive, the length).
    const sent = Object.fromEntries([...response.headers].filter(([h]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(h)));
    answers[name === 'error' ? `${r.path}&bare-error` : r.path] = { status: response.status, headers: sent, body: body.toString('base64') };
  }
  writeFileSync(join(temp, 'answers.json'), JSON.stringify(answers));
  // Prism answers from the contract's examples, one row where the mock sends a hundred. Given the
  // mock's own bodies as those examples, every server sends the same bytes, and the comparison is
  // of servers, not of answer sizes.
  const contract = structuredClone(openapiDocument) as any;
  const deref = (node: any): any => (node?.$ref ? deref(node.$ref.slice(2).split('/').reduce((o: any, k: string) => o[k], contract)) : node);
  for (const [name, r] of Object.entries(requests)) {
    const response = await fetch(`${mock.url}${r.path}`, { headers: r.headers });
    const documented = deref(contract.paths[r.template].get.responses[String(response.status)]);
    const media = documented.content[response.headers.get('content-type')!.split(';')[0]!];
    media.examples = { default: { value: JSON.parse(Buffer.from(answers[name === 'error' ? `${r.path}&bare-error` : r.path]!.body, 'base64').toString('utf8')) } };
  }
  writeFileSync(join(temp, 'openapi-bench.json'), JSON.stringify(contract));
  const bare = await startProcess(process.execPath, [join(here, 'bare-server.ts'), join(temp, 'answers.json')], /bare server on (http:\/\/127\.0\.0\.1:\d+)/);
  running.push(bare);
  const prismPort = await freePort();
  const prism = await startProcess(process.execPath, [prismCli, 'mock', join(temp, 'openapi-bench.json'), '-h', '127.0.0.1', '-p', String(prismPort)], /Prism is listening/, { url: `http://127.0.0.1:${prismPort}` });
  running.push(prism);

  const urls = { mock: mock.url, prism: prism.url, bare: bare.url };
  const runs = Object.fromEntries(servers.map((t) => [t, Object.fromEntries(requestNames.map((n) => [n, [] as Load[]]))])) as Record<(typeof servers)[number], Record<(typeof requestNames)[number], Load[]>>;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const name of requestNames) {
        const r = requests[name];
        for (const target of servers) {
          const path = target === 'bare' && name === 'error' ? `${r.path}&bare-error` : r.path;
          const t = await load(`${urls[target]}${path}`, r.headers, round > 0);
          runs[target][name].push(t);
          log(`round ${round + 1}/${rounds} ${name.padEnd(7)} ${target.padEnd(6)} ${String(t.rps).padStart(6)} req/s  p50 ${t.p50} ms  p99 ${t.p99} ms${t.errors ? `  ${t.errors} errors` : ''}`);
        }
      }
    }
  } finally {
    await Promise.all([prism.stop(), bare.stop()]);
  }
  const median = (values: number[]) => spread(values).median;
  const figure = (list: Load[]): Throughput => ({
    rps: spread(list.map((l) => l.rps)), p50: median(list.map((l) => l.p50)), p99: median(list.map((l) => l.p99)),
    non2xx: list.reduce((n, l) => n + l.non2xx, 0), errors: list.reduce((n, l) => n + l.errors, 0), bytes: median(list.map((l) => l.bytes)),
  });
  const throughput = Object.fromEntries(servers.map((t) => [t, Object.fromEntries(requestNames.map((n) => [n, figure(runs[t][n])]))])) as Figures;
  return { bytes, throughput };
}

/** How many times a's median req/s is b's, with the lowest and highest of the rounds' own ratios. */
function compare(a: Throughput, b: Throughput): { median: number; low: number; high: number } {
  const perRound = a.rps.runs.map((rps, i) => ratio(rps, b.rps.runs[i]!));
  return { median: ratio(a.rps.median, b.rps.median), low: Math.min(...perRound), high: Math.max(...perRound) };
}

/** The throughput targets (issue #21): at least 10x prism on the record, 8x on the page, a third of bare on the record. */
function throughputTargets(t: Figures) {
  const ratios = {
    mock_vs_prism_rps: Object.fromEntries(requestNames.map((n) => [n, compare(t.mock[n], t.prism[n])])) as Record<(typeof requestNames)[number], ReturnType<typeof compare>>,
    mock_vs_bare_rps: Object.fromEntries(requestNames.map((n) => [n, compare(t.mock[n], t.bare[n])])) as Record<(typeof requestNames)[number], ReturnType<typeof compare>>,
  };
  const targets = {
    'mock >= 10x prism req/s on the record': ratios.mock_vs_prism_rps.record.median >= 10,
    'mock >= 8x prism req/s on the 100-row page': ratios.mock_vs_prism_rps.page.median >= 8,
    'mock >= 1/3 of bare node req/s on the record': ratios.mock_vs_bare_rps.record.median >= 1 / 3,
  };
  return { ratios, targets };
}

const ratioText = (r: { median: number; low: number; high: number }): string => `${r.median}x (${r.low}-${r.high})`;

function throughputLines(t: Figures, r: ReturnType<typeof throughputTargets>['ratios']): string[] {
  return [
    `mock vs prism (median req/s, rounds' range): ${requestNames.map((n) => `${n} ${ratioText(r.mock_vs_prism_rps[n])}`).join(', ')}`,
    `mock vs bare node: ${requestNames.map((n) => `${n} ${ratioText(r.mock_vs_bare_rps[n])}`).join(', ')}`,
    ...requestNames.map((n) => `${n.padEnd(7)} ${servers.map((s) => `${s} ${t[s][n].rps.median} (${t[s][n].rps.low}-${t[s][n].rps.high})`).join('  ')}`),
  ];
}

function logTargets(targets: Record<string, boolean>): void {
  for (const [name, met] of Object.entries(targets)) log(`  ${met ? 'met    ' : 'NOT MET'} ${name}`);
}

/** Stops every server the bench started and removes its temporary folder: after any run, whatever happened in it. */
async function cleanUp(): Promise<void> {
  await Promise.all(running.map((s) => s.stop()));
  rmSync(temp, { recursive: true, force: true });
}

/** The sections `--only` runs alone: each measures, writes its figures and refreshes its block of BENCHMARKS.md. */
const alone: Record<string, () => Promise<void>> = {
  async throughput() {
    const { bytes, throughput } = await throughputSection(await startMock([]));
    const speed = throughputTargets(throughput);
    const results = { ...measuredOn(), settings: { client: 'autocannon 9.0.0', connections, duration_s: duration, rounds }, bytes, throughput, ratios: speed.ratios, throughputTargets: speed.targets };
    writeResults(results);
    for (const line of throughputLines(throughput, speed.ratios)) log(line);
    logTargets(speed.targets);
    if (!smoke) refreshThroughput(results);
  },
  async scale() {
    const scale = await scaleSection();
    const { ratios, targets } = scaleTargets(scale);
    const results = { ...measuredOn(), settings: { client: 'autocannon 9.0.0', connections, duration_s: duration }, scale, scale_ratios: ratios, targets };
    writeResults(results);
    logTargets(targets);
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
      const s = await startProcess(process.execPath, [mockCli, '--port', '0'], /mock on (http:\/\/127\.0\.0\.1:\d+)/, { env });
      times.push(s.startMs);
      await s.stop();
    }
    return times;
  };
  const cached = await starts({});
  const uncached = await starts({ NODE_DISABLE_COMPILE_CACHE: '1' });
  const mock = await startMock([]);
  const startup = { default_ms: spread(cached).median, first_ms: cached[0]!, no_code_cache_ms: spread(uncached).median, default_rss_mb: mock.rssMb() };
  log(`mock on the default dataset: up in ${startup.default_ms} ms (median of ${cached.join(', ')}; ${startup.no_code_cache_ms} ms without the code cache), ${startup.default_rss_mb} MB resident`);

  // ------------------------------------------------------------ the same requests, three servers
  const { bytes, throughput } = await throughputSection(mock);

  // ------------------------------------------------------------ the contract suite's run time
  const suiteStarted = performance.now();
  const suite = await runProcess(process.execPath, [contractCli, '--base-url', mock.url, '--key', key, '--plan', 'enterprise', '--budget-calls', smoke ? '40' : '400', '--seed', '1', '--junit', join(temp, 'suite.xml'), '--report', join(temp, 'suite.json')], { CI: '1' });
  const suiteReport = JSON.parse(readFileSync(join(temp, 'suite.json'), 'utf8')) as { spent: { calls: number } };
  const contractSuite = { seconds: Math.round((performance.now() - suiteStarted) / 100) / 10, calls: suiteReport.spent.calls, exit_code: suite };
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

  const speed = throughputTargets(throughput);
  const ratios = { ...speed.ratios, scale: scaleFigures.ratios };
  const targets = {
    ...speed.targets,
    ...scaleFigures.targets,
    'start-up under 1 s on the default dataset': startup.default_ms < 1000,
    'p99 of ordinary requests while a dump is built within 2x of p99 without': dumps.p99_ratio <= 2,
    'the state database costs at most 25% of in-memory counted calls': state.ratios.database_vs_memory >= 0.75,
    '100,000 keys in the state database within 1.2x of a handful': state.ratios.large_vs_small <= 1.2,
  };
  const results = {
    ...measuredOn(),
    settings: { client: 'autocannon 9.0.0', connections, duration_s: duration, rounds, scales },
    bytes,
    throughput,
    ratios,
    startup,
    scale,
    dumps,
    contract_suite: contractSuite,
    state,
    targets,
    throughputTargets: speed.targets,
  };
  writeResults(results);
  log('');
  for (const line of throughputLines(throughput, speed.ratios)) log(line);
  logTargets(targets);
  log(`figures in ${out}`);
  if (!smoke) refreshMarkdown(results);
} finally {
  await cleanUp();
}

/** Rewrites the figures between the markers of BENCHMARKS.md; the notes around them stay. */
function refreshMarkdown(r: any): void {
  const others = Object.entries(r.targets).filter(([name]) => !(name in r.throughputTargets) && !/at every scale/.test(name));
  replaceBlock('bench', `${measuredLine(r)}

Default dataset: up in ${r.startup.default_ms} ms from spawn to banner (median of five; the first, ${r.startup.first_ms} ms, may fill the code cache; ${r.startup.no_code_cache_ms} ms with it off), ${r.startup.default_rss_mb} MB resident. Contract suite against the mock: ${r.contract_suite.seconds} s for ${r.contract_suite.calls} calls (the suite paces itself under the Enterprise rate of 50 req/s).

Counted calls (\`GET /firms?limit=1\`, ${r.state.rounds} alternating rounds, median req/s with lowest-highest): state in memory ${r.state.rps.memory.median} (${r.state.rps.memory.low}-${r.state.rps.memory.high}); \`--state\` with ${r.state.keys.small} keys ${r.state.rps.database.median} (${r.state.rps.database.low}-${r.state.rps.database.high}), ${r.state.ratios.database_vs_memory}x of in memory; with ${r.state.keys.large.toLocaleString('en')} keys ${r.state.rps.database_large.median} (${r.state.rps.database_large.low}-${r.state.rps.database_large.high}), so ${r.state.keys.small} keys do ${r.state.ratios.large_vs_small}x its req/s; \`--state-sync full\` ${r.state.rps.database_full_sync.median} (${r.state.rps.database_full_sync.low}-${r.state.rps.database_full_sync.high}), ${r.state.ratios.full_sync_vs_memory}x of in memory.

${targetLines(Object.fromEntries(others))}`);
  refreshThroughput(r);
  refreshScale({ ...r, scale_ratios: r.ratios.scale });
  refreshDumps(r);
}

/** The scale table and its targets, refreshed by a full run and by \`--only scale\`. */
function refreshScale(r: any): void {
  const rows = (r.scale as ScaleFigures[]).map((f) => {
    const vs = r.scale_ratios[f.scale];
    const x = (n: number | undefined) => (n === undefined ? '' : ` (${n}x)`);
    return `| ${f.scale.toLocaleString('en')} | ${f.rows.toLocaleString('en')} | ${f.database_mb} MB | ${f.start_ms.median} ms (${f.start_ms.low}-${f.start_ms.high}) | ${f.rss_start_mb} / ${f.rss_after_mixed_mb} MB | ${f.first_p50_ms} ms${x(vs?.first_p50)} / ${f.first.p50} ms, ${f.first.rps}${x(vs?.first_rps)} | ${f.deep_p50_ms} ms${x(vs?.deep_p50)} / ${f.deep.p50} ms, ${f.deep.rps}${x(vs?.deep_rps)} | ${f.mixed.rps} (${f.mixed.non2xx} not 2xx) |`;
  });
  const builds = (r.scale as ScaleFigures[]).filter((f) => f.build_s !== null).map((f) => `${f.scale.toLocaleString('en')} rows in ${f.build_s} s (${f.database_mb} MB)`);
  const targets = Object.fromEntries(Object.entries(r.targets).filter(([name]) => /at every scale/.test(name)));
  replaceBlock('scale', `${measuredLine(r)} Each start-up is the median of three from spawn to banner with the dataset already generated; pages are \`/investments?limit=100\`, first and nine tenths deep, three alternating runs of each under load (the run of median req/s shown), each p50 one request at a time (to the microsecond; the target is judged on it) / under autocannon's load (whole milliseconds), and req/s under load; in brackets, each figure against the 10,000-row one (p50: this over that; req/s: that over this).

| scale | rows | database | start-up | resident after start / after 20,000 mixed requests | first page p50 alone / loaded, req/s | deep page p50 alone / loaded, req/s | mixed req/s |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

${builds.length ? `Generated by this run (once per seed and scale, into the kit's cache): ${builds.join('; ')}.\n\n` : ''}${targetLines(targets)}`);
}

/** The line on dumps, refreshed by a full run and by \`--only dumps\`. */
function refreshDumps(r: any): void {
  // The quiet runs last the full run's duration; the loaded ones as long as the build.
  replaceBlock('dumps', `${measuredLine({ ...r, settings: { ...r.settings, duration_s: undefined } })} ${r.dumps.rounds} rounds, each on a fresh mock; medians.

${dumpLine(r.dumps)}.`);
}

/** The throughput table and its targets, refreshed by a full run and by \`--only throughput\`. */
function refreshThroughput(r: any): void {
  const t = r.throughput;
  const range = (x: { median: number; low: number; high: number }) => `${x.median} (${x.low}-${x.high})`;
  const row = (name: string) => `| ${name} | ${t.mock[name].bytes} / ${t.prism[name].bytes} / ${t.bare[name].bytes} B | ${range(t.mock[name].rps)} | ${t.mock[name].p50} / ${t.mock[name].p99} | ${range(t.prism[name].rps)} | ${range(t.bare[name].rps)} | ${ratioText(r.ratios.mock_vs_prism_rps[name])} | ${ratioText(r.ratios.mock_vs_bare_rps[name])} |`;
  replaceBlock('throughput', `${measuredLine(r)} Each req/s is the median of ${r.settings.rounds} alternating runs (lowest-highest); each ratio is of the medians (in brackets, the lowest and highest of the rounds' own ratios).

| request | bytes read per answer (mock / prism / bare) | mock req/s | mock p50 / p99 ms | prism req/s | bare node req/s | mock / prism | mock / bare |
|---|---|---|---|---|---|---|---|
${requestNames.map(row).join('\n')}

${targetLines(r.throughputTargets)}`);
}

function measuredLine(r: any): string {
  const length = r.settings.duration_s ? `, ${r.settings.duration_s} s a run` : '';
  return `Last run ${r.when.slice(0, 16).replace('T', ' ')} UTC on ${r.machine.cpus} x ${r.machine.cpu}, Node ${r.machine.node}. Client: ${r.settings.client}, ${r.settings.connections} connections${length}, client and servers on one machine.`;
}

function targetLines(targets: Record<string, unknown>): string {
  return Object.entries(targets).map(([name, met]) => `- ${met ? 'met' : '**not met**'}: ${name}`).join('\n');
}

/** Rewrites the figures between a block's markers in BENCHMARKS.md; the notes around them stay. */
function replaceBlock(name: string, figures: string): void {
  const file = join(root, 'BENCHMARKS.md');
  const marker = new RegExp(`<!-- ${name}:start -->[^]*<!-- ${name}:end -->`);
  const text = readFileSync(file, 'utf8');
  if (!marker.test(text)) throw new Error(`BENCHMARKS.md has no <!-- ${name}:start --> ... <!-- ${name}:end --> block`);
  writeFileSync(file, text.replace(marker, `<!-- ${name}:start -->\n${figures}\n<!-- ${name}:end -->`));
}
