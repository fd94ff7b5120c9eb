/**
 * The bench's flags, where it writes, and what every section shares: starting the mock, a load run, ratios, results.
 */
import { mkdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { newKeyText } from '@investor-graph/mock';
import { readFlags } from '@investor-graph/cli';
import { startProcess, type Started } from './processes.ts';
import { benchState, type StateFigures } from './state.ts';

export const usage = `usage: pnpm bench [-- options]
  --smoke             a short run that checks the benchmark works, its load paced at 200 req/s
                      (its figures mean nothing)
  --duration S        seconds a measured run lasts (5; 1 with --smoke)
  --rounds N          alternating rounds of the three servers (5; 1 with --smoke)
  --only SECTION      only one section, figures to --out: state (memory against the database),
                      throughput (the mock beside prism and bare node), scale (start-up, memory,
                      pages, and every reading operation's first call and p99 under a mixed load,
                      at 10,000 and 1,000,000 rows) or dumps (ordinary requests while
                      a nightly dump of the largest dataset is built) or merge (investor-graph-load
                      merge on two parts of a million samples each, beside reading them alone)
                      or data (a nightly dump given as --data: its first start, which reads it,
                      and later ones, beside the generated dataset it was written from)
                      or hostile (patterns of sixteen stars over a journal of 12,000 long paths)
                      or metrics (the mock with its metrics against --no-metrics, record and page)
                      or path (the kit's files and functions one keyed GET runs, after warm-up)
  --large             the scale, dumps and data sections at 10,000,000 rows too (the first run builds
                      that dataset into the kit's cache: about three minutes and 7.5 GB)
  --connections N     autocannon connections (10)
  --out FILE          the figures as JSON (bench-results/bench.json)
  -h, --help          this text
  --version           the package and its version`;
export const { values, fail } = readFlags('bench', usage, process.argv.slice(2), {
  smoke: { type: 'boolean' },
  only: { type: 'string' },
  large: { type: 'boolean' },
  duration: { type: 'string' },
  rounds: { type: 'string' },
  connections: { type: 'string', default: '10' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
});
export const smoke = values.smoke ?? false;
export const duration = Number(values.duration ?? (smoke ? 1 : 5));
export const rounds = Number(values.rounds ?? (smoke ? 1 : 5));
export const connections = Number(values.connections);
if (!(duration > 0)) fail(`--duration must be a number of seconds above 0, got ${values.duration}`);
if (!Number.isInteger(connections) || connections < 1)
  fail(`--connections must be a whole number of at least 1, got ${values.connections}`);
if (!Number.isInteger(rounds) || rounds < 1)
  fail(`--rounds must be a whole number of at least 1, got ${values.rounds}`);
const sections = ['state', 'throughput', 'scale', 'dumps', 'merge', 'data', 'hostile', 'metrics', 'path'];
if (values.only !== undefined && !sections.includes(values.only))
  fail(`--only takes ${sections.slice(0, -1).join(', ')} or ${sections.at(-1)}, got ${values.only}`);
/** The dataset scales measured: the first is the one the others are held to. */
export const scales = smoke ? [2_000, 20_000] : [10_000, 1_000_000, ...(values.large ? [10_000_000] : [])];

export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '../../..');
/** A package's command, found through its package.json as installed (never another package's files by path). */
export function binOf(name: string): string {
  const manifest = createRequire(import.meta.url).resolve(`${name}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : Object.values(bin)[0]!);
}
export const mockCli = binOf('@investor-graph/mock');
export const contractCli = binOf('@investor-graph/contract-tests');
export const prismCli = binOf('@stoplight/prism-cli');
export const out = resolve(values.out ?? join(root, 'bench-results/bench.json'));
export const temp = mkdtempSync(join(tmpdir(), 'ig-bench-'));
export const key = newKeyText('enterprise');
export const auth = { authorization: `Bearer ${key}` };
export const running: Started[] = [];

export function log(line: string): void {
  console.log(line);
}

/** The mock with the bench's Enterprise key and no rate limit; `env` added to its environment (KIT_CACHE, say). */
export function startMock(args: string[], env: Record<string, string> = {}, timeoutMs = 600_000): Promise<Started> {
  return startProcess(
    process.execPath,
    [mockCli, '--port', '0', '--key', `enterprise=${key}`, '--no-rate-limit', ...args],
    /mock on (http:\/\/127\.0\.0\.1:\d+)/,
    { timeoutMs, env },
  ).then((s) => (running.push(s), s));
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** The slowest answer, ms: a stall of the whole server shows here when too few calls wait in it to move p99. */
  max: number;
  non2xx: number;
  errors: number;
  /** Bytes read per response, head and body: shows the servers sent like answers. */
  bytes: number;
  /** The server's CPU a call, µs (user and system, read around the measured run), when its process was given. */
  cpuUs?: number;
}

/**
 * The smoke's load at a steady 200 requests a second rather than as fast as the servers answer: it
 * checks that every section runs, drives its servers and writes its figures (which mean nothing at
 * its durations), and flat out it was about a hundred CPU-seconds of the suite's warm run, taken
 * from the test files beside it. The measured runs are unchanged.
 */
export const pace: { overallRate?: number } = smoke ? { overallRate: 200 } : {};

/**
 * One measured run, after a discarded warm-up unless `warm` says the server had one on this URL;
 * with the server's `cpuMs`, also its CPU a call over the measured run (the server's own work,
 * which req/s mixes with the client's share of the CPUs they share).
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  warm = false,
  cpuMs?: () => number,
): Promise<Load> {
  // A discarded warm-up first, the same for every server: the first seconds of a fresh process are
  // its JIT compiling, and without it the first request type measured pays for that. Not in the
  // smoke, whose figures mean nothing: autocannon ends a run only at its next one-second sample,
  // so even a short warm-up cost a second in each of the smoke's sixteen runs.
  if (!warm && !smoke) await autocannon({ url, connections, duration: 2, headers, ...pace });
  const before = cpuMs?.();
  const result = await autocannon({ url, connections, duration, headers, ...pace });
  const figures = loadOf(result, result.requests.average);
  if (before === undefined) return figures;
  return { ...figures, cpuUs: Math.round(((cpuMs!() - before) * 1000 * 10) / Math.max(1, result.requests.total)) / 10 };
}

/** A run's figures from autocannon's result, at `rps` requests a second. */
export function loadOf(result: autocannon.Result, rps: number): Load {
  return {
    rps: Math.round(rps),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    bytes: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
  };
}

export const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/** When and where the figures were measured. */
export const measuredOn = () => ({
  when: new Date().toISOString(),
  smoke,
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
});

/** The figures as JSON in --out. */
export function writeResults(results: object): void {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
}

export const stateLine = (s: StateFigures): string =>
  `counted calls with --state: ${s.ratios.database_vs_memory}x of in memory (${s.keys.small} keys), ` +
  `${s.keys.small} keys do ${s.ratios.large_vs_small}x the req/s of ${s.keys.large.toLocaleString('en')}; ` +
  `--state-sync full: ${s.ratios.full_sync_vs_memory}x of in memory; ` +
  (s.redis_skipped
    ? `on Redis: not measured (${s.redis_skipped})`
    : `on Redis, one replica: ${s.ratios.redis_vs_memory}x of in memory, three behind haproxy ` +
      `${s.ratios.three_replicas_vs_one}x of one and ${s.ratios.three_on_redis_vs_three_on_memory}x of three ` +
      'on their own memory behind it');

/** The --state section: in memory against the database, a handful of keys against 100,000. */
export function stateSection(): Promise<StateFigures> {
  return benchState({
    temp,
    rounds: smoke ? 1 : 3,
    largeKeys: smoke ? 2_000 : 100_000,
    startMock,
    log,
    path: '/api/v1/firms?limit=1',
    rps: async (url) => (await load(url, auth)).rps,
  });
}

export const cursorSecret = 'bench-cursor-secret-0123456789';

/** Stops every server the bench started and removes its temporary folder: after any run, whatever happened in it. */
export async function cleanUp(): Promise<void> {
  await Promise.all(running.map((s) => s.stop()));
  rmSync(temp, { recursive: true, force: true });
}
