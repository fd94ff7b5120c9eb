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
import { mkdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openapiDocument } from '@investor-graph/contract/document';
import { newKeyText } from '@investor-graph/mock';
import { freePort, readFlags } from '@investor-graph/cli';
import { runProcess, startProcess, type Started } from './processes.ts';
import { benchState, spread, type StateFigures } from './state.ts';

const usage = `usage: pnpm bench [-- options]
  --smoke             a short run that checks the benchmark works (its figures mean nothing)
  --duration S        seconds a measured run lasts (10; 1 with --smoke)
  --only state        only the --state section (memory against the database), figures to --out
  --connections N     autocannon connections (10)
  --out FILE          the figures as JSON (bench-results/bench.json)
  -h, --help          this text
  --version           the package and its version`;
const { values, fail } = readFlags('bench', usage, process.argv.slice(2), {
  smoke: { type: 'boolean' },
  only: { type: 'string' },
  duration: { type: 'string' },
  connections: { type: 'string', default: '10' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
});
const smoke = values.smoke ?? false;
const duration = Number(values.duration ?? (smoke ? 1 : 10));
const connections = Number(values.connections);
if (!(duration > 0)) fail(`--duration must be a number of seconds above 0, got ${values.duration}`);
if (!Number.isInteger(connections) || connections < 1) fail(`--connections must be a whole number of at least 1, got ${values.connections}`);
if (values.only !== undefined && values.only !== 'state') fail(`--only takes state, got ${values.only}`);
const scales = smoke ? { small: 2_000, large: 20_000 } : { small: 10_000, large: 1_100_000 };

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const mockCli = join(root, 'packages/mock/src/node/cli.ts');
const contractCli = join(root, 'packages/contract-tests/src/cli.ts');
const prismCli = join(root, 'packages/contract/node_modules/@stoplight/prism-cli/dist/index.js');
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
  non2xx: number;
  errors: number;
  /** Bytes read per response, head and body: shows the servers sent like answers. */
  bytes: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Load> {
  // A discarded warm-up first, the same for every server: the first seconds of a fresh process are
  // its JIT compiling, and without it the first request type measured pays for that.
  await autocannon({ url, connections, duration: smoke ? 0.5 : 2, headers });
  const result = await autocannon({ url, connections, duration, headers });
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, bytes: Math.round(result.throughput.total / Math.max(1, result.requests.total)) };
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

if (values.only === 'state') {
  try {
    const state = await stateSection();
    writeResults({ ...measuredOn(), state });
    log(stateLine(state));
    log(`figures in ${out}`);
  } finally {
    await Promise.all(running.map((s) => s.stop()));
    rmSync(temp, { recursive: true, force: true });
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
    const response = await fetch(`${mock.url}${r.path}`, { headers: r.headers });
    const body = Buffer.from(await response.arrayBuffer());
    bytes[name] = body.length;
    // The error path has no key, so it is told apart by path in the bare server.
    answers[name === 'error' ? `${r.path}&bare-error` : r.path] = { status: response.status, headers: { 'content-type': response.headers.get('content-type')! }, body: body.toString('base64') };
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

  const throughput: Record<string, Record<string, Load>> = { mock: {}, prism: {}, bare: {} };
  for (const [name, r] of Object.entries(requests)) {
    for (const [target, server] of [['mock', mock], ['prism', prism], ['bare', bare]] as const) {
      const path = target === 'bare' && name === 'error' ? `${r.path}&bare-error` : r.path;
      throughput[target]![name] = await load(`${server.url}${path}`, r.headers);
      const t = throughput[target]![name]!;
      log(`${name.padEnd(7)} ${target.padEnd(6)} ${String(t.rps).padStart(6)} req/s  p50 ${t.p50} ms  p99 ${t.p99} ms${t.errors ? `  ${t.errors} errors` : ''}`);
    }
  }
  await Promise.all([prism.stop(), bare.stop()]);

  // ------------------------------------------------------------ the contract suite's run time
  const suiteStarted = performance.now();
  const suite = await runProcess(process.execPath, [contractCli, '--base-url', mock.url, '--key', key, '--plan', 'enterprise', '--budget-calls', smoke ? '40' : '400', '--seed', '1', '--junit', join(temp, 'suite.xml'), '--report', join(temp, 'suite.json')], { CI: '1' });
  const suiteReport = JSON.parse(readFileSync(join(temp, 'suite.json'), 'utf8')) as { spent: { calls: number } };
  const contractSuite = { seconds: Math.round((performance.now() - suiteStarted) / 100) / 10, calls: suiteReport.spent.calls, exit_code: suite };
  log(`contract suite against the mock: ${contractSuite.seconds} s for ${contractSuite.calls} calls (exit ${suite})`);
  await mock.stop();

  // ------------------------------------------------------------ deep pages: small and large datasets
  const deep: Record<string, { rows: number; start_ms: number; rss_mb: number; first: Load; deep: Load }> = {};
  for (const [size, scale] of Object.entries(scales)) {
    const server = await startMock(['--seed', 'bench', '--scale', String(scale)]);
    const rss = server.rssMb();
    // Walk the longest list in pages of 1,000 to find a cursor nine tenths of the way down.
    const cursors: string[] = [];
    let cursor: string | null = null;
    let rows = 0;
    do {
      const page = (await (await fetch(`${server.url}/api/v1/investments?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth })).json()) as { data: unknown[]; next_cursor: string | null };
      rows += page.data.length;
      cursor = page.next_cursor;
      if (cursor) cursors.push(cursor);
    } while (cursor);
    const deepCursor = cursors[Math.floor(cursors.length * 0.9)] ?? cursors.at(-1)!;
    const first = await load(`${server.url}/api/v1/investments?limit=100`, auth);
    const deepLoad = await load(`${server.url}/api/v1/investments?limit=100&cursor=${encodeURIComponent(deepCursor)}`, auth);
    deep[size] = { rows, start_ms: server.startMs, rss_mb: rss, first, deep: deepLoad };
    log(`${rows.toLocaleString('en')} investments (scale ${scale.toLocaleString('en')}): up in ${server.startMs} ms, ${rss} MB; first page p50 ${first.p50} ms ${first.rps} req/s; deep page p50 ${deepLoad.p50} ms ${deepLoad.rps} req/s`);
    await server.stop();
  }

  // ------------------------------------------------------------ --state: memory against the database
  const state = await stateSection();
  log(stateLine(state));

  const ratios = {
    mock_vs_prism_rps: { record: ratio(throughput.mock!.record!.rps, throughput.prism!.record!.rps), page: ratio(throughput.mock!.page!.rps, throughput.prism!.page!.rps), error: ratio(throughput.mock!.error!.rps, throughput.prism!.error!.rps) },
    bare_vs_mock_rps: { record: ratio(throughput.bare!.record!.rps, throughput.mock!.record!.rps), page: ratio(throughput.bare!.page!.rps, throughput.mock!.page!.rps), error: ratio(throughput.bare!.error!.rps, throughput.mock!.error!.rps) },
    deep_page_large_vs_small_p50: ratio(Math.max(deep.large!.deep.p50, 0.1), Math.max(deep.small!.deep.p50, 0.1)),
    deep_page_small_vs_large_rps: ratio(deep.small!.deep.rps, deep.large!.deep.rps),
  };
  const targets = {
    'mock >= 5x prism req/s on the record': ratios.mock_vs_prism_rps.record >= 5,
    'mock >= 5x prism req/s on the 100-row page': ratios.mock_vs_prism_rps.page >= 5,
    'bare node within 2x of the mock (record)': ratios.bare_vs_mock_rps.record <= 2,
    'bare node within 2x of the mock (page)': ratios.bare_vs_mock_rps.page <= 2,
    'deep page at the large dataset within 1.3x of the small (req/s)': ratios.deep_page_small_vs_large_rps <= 1.3,
    'start-up under 1 s on the default dataset': startup.default_ms < 1000,
    'the state database costs at most 25% of in-memory counted calls': state.ratios.database_vs_memory >= 0.75,
    '100,000 keys in the state database within 1.2x of a handful': state.ratios.large_vs_small <= 1.2,
  };
  const results = {
    ...measuredOn(),
    settings: { client: 'autocannon 9.0.0', connections, duration_s: duration, scales },
    bytes,
    throughput,
    ratios,
    startup,
    deep_pages: deep,
    contract_suite: contractSuite,
    state,
    targets,
  };
  writeResults(results);
  log(`\nmock vs prism (req/s): record ${ratios.mock_vs_prism_rps.record}x, page ${ratios.mock_vs_prism_rps.page}x, error ${ratios.mock_vs_prism_rps.error}x`);
  log(`bare node vs mock (req/s): record ${ratios.bare_vs_mock_rps.record}x, page ${ratios.bare_vs_mock_rps.page}x, error ${ratios.bare_vs_mock_rps.error}x`);
  log(`deep page, large vs small dataset: p50 ${ratios.deep_page_large_vs_small_p50}x, req/s ${ratios.deep_page_small_vs_large_rps}x`);
  for (const [name, met] of Object.entries(targets)) log(`  ${met ? 'met    ' : 'NOT MET'} ${name}`);
  log(`figures in ${out}`);
  if (!smoke) refreshMarkdown(results);
} finally {
  await Promise.all(running.map((s) => s.stop()));
  rmSync(temp, { recursive: true, force: true });
}

/** Rewrites the figures between the markers of BENCHMARKS.md; the notes around them stay. */
function refreshMarkdown(r: any): void {
  const file = join(root, 'BENCHMARKS.md');
  const text = readFileSync(file, 'utf8');
  const t = r.throughput;
  const row = (name: string) => `| ${name} | ${t.mock[name].bytes} / ${t.prism[name].bytes} / ${t.bare[name].bytes} B | ${t.mock[name].rps} | ${t.mock[name].p50} / ${t.mock[name].p99} | ${t.prism[name].rps} | ${t.prism[name].p50} / ${t.prism[name].p99} | ${t.bare[name].rps} | ${r.ratios.mock_vs_prism_rps[name]}x | ${r.ratios.bare_vs_mock_rps[name]}x |`;
  const d = r.deep_pages;
  const figures = `<!-- bench:start -->
Last run ${r.when.slice(0, 16).replace('T', ' ')} UTC on ${r.machine.cpus} x ${r.machine.cpu}, Node ${r.machine.node}. Client: ${r.settings.client}, ${r.settings.connections} connections, ${r.settings.duration_s} s a run, client and servers on one machine.

| request | bytes read per answer (mock / prism / bare) | mock req/s | mock p50 / p99 ms | prism req/s | prism p50 / p99 ms | bare node req/s | mock / prism | bare / mock |
|---|---|---|---|---|---|---|---|---|
${['record', 'page', 'error'].map(row).join('\n')}

| dataset | investments | start-up | resident | first page p50 (req/s) | deep page p50 (req/s) |
|---|---|---|---|---|---|
| scale ${r.settings.scales.small.toLocaleString('en')} | ${d.small.rows.toLocaleString('en')} | ${d.small.start_ms} ms | ${d.small.rss_mb} MB | ${d.small.first.p50} ms (${d.small.first.rps}) | ${d.small.deep.p50} ms (${d.small.deep.rps}) |
| scale ${r.settings.scales.large.toLocaleString('en')} | ${d.large.rows.toLocaleString('en')} | ${d.large.start_ms} ms | ${d.large.rss_mb} MB | ${d.large.first.p50} ms (${d.large.first.rps}) | ${d.large.deep.p50} ms (${d.large.deep.rps}) |

Default dataset: up in ${r.startup.default_ms} ms from spawn to banner (median of five; the first, ${r.startup.first_ms} ms, may fill the code cache; ${r.startup.no_code_cache_ms} ms with it off), ${r.startup.default_rss_mb} MB resident. Contract suite against the mock: ${r.contract_suite.seconds} s for ${r.contract_suite.calls} calls (the suite paces itself under the Enterprise rate of 50 req/s).

Counted calls (\`GET /firms?limit=1\`, ${r.state.rounds} alternating rounds, median req/s with lowest-highest): state in memory ${r.state.rps.memory.median} (${r.state.rps.memory.low}-${r.state.rps.memory.high}); \`--state\` with ${r.state.keys.small} keys ${r.state.rps.database.median} (${r.state.rps.database.low}-${r.state.rps.database.high}), ${r.state.ratios.database_vs_memory}x of in memory; with ${r.state.keys.large.toLocaleString('en')} keys ${r.state.rps.database_large.median} (${r.state.rps.database_large.low}-${r.state.rps.database_large.high}), so ${r.state.keys.small} keys do ${r.state.ratios.large_vs_small}x its req/s; \`--state-sync full\` ${r.state.rps.database_full_sync.median} (${r.state.rps.database_full_sync.low}-${r.state.rps.database_full_sync.high}), ${r.state.ratios.full_sync_vs_memory}x of in memory.

${Object.entries(r.targets).map(([name, met]) => `- ${met ? 'met' : '**not met**'}: ${name}`).join('\n')}
<!-- bench:end -->`;
  writeFileSync(file, text.replace(/<!-- bench:start -->[^]*<!-- bench:end -->/, figures));
}
