/** `investor-graph-mock [serve]`: the stateful mock of the API on a real HTTP port; serve-usage.ts says each flag. */
import { exitCode } from '@investor-graph/cli';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { constants as osConstants } from 'node:os';
import { planIds, plans } from '@investor-graph/contract';
import { newKeyText } from '@investor-graph/engine/adapter';
import { faults, isFaultName } from '@investor-graph/engine/faults';
import { logArgs, readFlags } from './flags.ts';
import { faultsUsage, serveUsage } from './serve-usage.ts';
import { nearest } from '@investor-graph/cli/near';
import { isLoopback } from '../adapters/node/server.ts';
import { StateFileError, type StateSync } from '../stores/sqlite/key-store.ts';
import { isRedisUrl, parseRedisUrl, RedisStateError } from '../stores/redis/url.ts';
import type { StoreInfo } from '@investor-graph/engine/adapter';
import { DatasetFileError, parseKeyFlag, presetKey, startMock, type StartOptions } from './start-mock.ts';
import { startTracing } from '../operate/tracing.ts';

const args = logArgs(process.argv.slice(process.argv[2] === 'serve' ? 3 : 2));
// `--help faults`: the faults by what each breaks, a page of their own.
if (args.join(' ') === '--help faults' || args.join(' ') === '-- --help faults') {
  console.log(faultsUsage);
  process.exit(0);
}
const flags = readFlags('investor-graph mock', serveUsage, args, {
  port: { type: 'string', short: 'p', default: '4010' },
  host: { type: 'string', short: 'h', default: '127.0.0.1' },
  data: { type: 'string' },
  seed: { type: 'string' },
  scale: { type: 'string' },
  key: { type: 'string', multiple: true },
  now: { type: 'string' },
  frozen: { type: 'boolean' },
  'admin-token': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'public-url': { type: 'string' },
  'cursor-secret': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  state: { type: 'string' },
  'state-sync': { type: 'string' },
  log: { type: 'string' },
  'metrics-port': { type: 'string' },
  'no-metrics': { type: 'boolean' },
  journal: { type: 'string' },
  fault: { type: 'string', multiple: true },
  'no-rate-limit': { type: 'boolean' },
  'max-connections-per-address': { type: 'string' },
  'no-dumps-ahead': { type: 'boolean' },
  'no-dump-cache': { type: 'boolean' },
  help: { type: 'boolean' },
});
const { values } = flags;
// Secrets may come from the environment (a Kubernetes Secret, a Compose env file) instead of the
// command line, which ps, docker inspect and /proc show to anyone on the host.
values.state ??= process.env.INVESTOR_GRAPH_MOCK_STATE || undefined;
values['admin-token'] ??= process.env.INVESTOR_GRAPH_MOCK_ADMIN_TOKEN || undefined;
// Annotated, so that TypeScript knows code after a call to either does not run.
const fail: (message: string) => never = flags.fail;
const listenFailed: (error: unknown, port: number, host: string) => never = flags.listenFailed;
const port = flags.port(values.port);
if (
  values.scale !== undefined &&
  (!/^\d+$/.test(values.scale) || Number(values.scale) < 100 || Number(values.scale) > 50_000_000)
)
  fail('--scale must be a whole number from 100 to 50,000,000');
if (values.now !== undefined && !Number.isFinite(Date.parse(values.now)))
  fail(`--now must be an ISO 8601 time, got ${values.now}`);
if (values['public-url'] !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(values['public-url']))
  fail(`--public-url must be an http or https base URL, got ${values['public-url']}`);
if (values.data !== undefined && values.seed !== undefined) fail('give --data or --seed, not both');
const badOrigin = (values['cors-origin'] ?? []).find((o) => !/^https?:\/\/[^/?#\s]+$/.test(o));
if (badOrigin !== undefined)
  fail(`--cors-origin takes an origin such as https://app.example (scheme and host, no path), got ${badOrigin}`);
const perAddress = values['max-connections-per-address'];
if (perAddress !== undefined && !(/^\d+$/.test(perAddress) && Number(perAddress) >= 1 && Number(perAddress) <= 2_048))
  fail(`--max-connections-per-address must be a whole number from 1 to 2,048, got ${perAddress}`);
if (values.journal !== undefined && !(/^\d+$/.test(values.journal) && Number(values.journal) <= 100_000))
  fail(`--journal must be a whole number from 0 (none) to 100,000, got ${values.journal}`);
if (values.log !== undefined && values.log !== 'text' && values.log !== 'json')
  fail(`--log takes text or json, got ${values.log}`);
if (values['state-sync'] !== undefined && !['normal', 'full'].includes(values['state-sync']))
  fail(`--state-sync takes normal or full, got ${values['state-sync']}`);
if (values['state-sync'] !== undefined && (values.state === undefined || isRedisUrl(values.state)))
  fail('--state-sync goes with --state FILE (a Redis server keeps to its own appendfsync)');
if (values.state !== undefined && isRedisUrl(values.state)) {
  try {
    parseRedisUrl(values.state);
  } catch (error) {
    // One line, not the usage: the flag is right, its URL is not.
    console.error(`[investor-graph mock] ${(error as Error).message}`);
    process.exit(exitCode.usage);
  }
}
if (
  values.data !== undefined &&
  !(existsSync(values.data) && statSync(values.data).isFile()) &&
  !existsSync(join(values.data, 'manifest.json'))
) {
  // One line, not the usage: the flag is right, the folder is not.
  const why = existsSync(values.data)
    ? 'no manifest.json there; it is neither a dataset folder ' +
      '(write one with npx --no -- investor-graph-dataset --out DIR) nor a nightly dump (GET /api/v1/exports)'
    : 'no such folder or file';
  console.error(`[investor-graph mock] --data ${values.data}: ${why}`);
  process.exit(exitCode.usage);
}
if (!isLoopback(values.host) && values.host !== 'localhost') {
  console.warn(
    values['admin-token']
      ? `[investor-graph mock] warning: listening on ${values.host} with --admin-token: anyone who can reach ` +
          `this address and has the token drives the control endpoints, over plain HTTP`
      : `[investor-graph mock] listening on ${values.host}: control endpoints stay loopback-only (start with ` +
          `--admin-token to open them)`,
  );
}

const badFault = (values.fault ?? []).find((f) => !isFaultName(f));
if (badFault !== undefined) {
  const near = nearest(badFault, Object.keys(faults));
  fail(
    `--fault ${badFault} is not a fault${near ? `: did you mean ${near}?` : ''} (investor-graph-mock --help faults ` +
      'lists them)',
  );
}

let keys;
try {
  keys = (values.key ?? []).map(parseKeyFlag);
} catch (error) {
  fail((error as Error).message);
}
// A ready-made key for every plan not preset, so the banner can print one of each.
for (const plan of planIds) {
  if (!keys.some((k) => k.plan === plan)) keys.push(presetKey(plan, newKeyText(plan)));
}

/**
 * The first start at a seed and scale builds its database, the first on a nightly dump reads it
 * into one: said on stderr, with progress on a terminal.
 */
function building({ file, rows, done, dump }: { file: string; rows: number; done: boolean; dump?: string }): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const what = dump === undefined ? 'building the dataset' : `reading the nightly dump of ${dump}`;
  if (rows === 0 && !done)
    console.error(`[investor-graph mock] ${what} once, into ${file} (later starts open it at once)`);
  else if (done)
    console.error(
      `${process.stderr.isTTY ? '\r' : ''}[investor-graph mock] ` +
        `${dump === undefined ? 'built' : 'read'} ${rows.toLocaleString('en')} rows in ${seconds} s`,
    );
  else if (process.stderr.isTTY)
    process.stderr.write(`\r[investor-graph mock] ${rows.toLocaleString('en')} rows in ${seconds} s`);
}

const started = performance.now();
const options: StartOptions = {
  port,
  host: values.host,
  keys,
  ...(values.data
    ? { data: values.data, onBuild: building, onReport: (lines: string[]) => console.warn(lines.join('\n')) }
    : {}),
  ...(values.seed ? { seed: values.seed, scale: Number(values.scale ?? 8000), onBuild: building } : {}),
  ...(values.now ? { now: values.now } : {}),
  ...(values.frozen ? { frozen: true } : {}),
  ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}),
  ...(values['allow-host']?.length ? { allowHosts: values['allow-host'] } : {}),
  ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
  ...(values['cursor-secret'] ? { cursorSecret: values['cursor-secret'] } : {}),
  ...(values['cors-origin']?.length ? { corsOrigins: values['cors-origin'] } : {}),
  ...(values.state ? { stateFile: values.state } : {}),
  ...(values['state-sync'] ? { stateSync: values['state-sync'] as StateSync } : {}),
  ...(values.log ? { log: (line: string) => console.log(line), logFormat: values.log } : {}),
  ...(values.journal !== undefined ? { journal: Number(values.journal) } : {}),
  ...(values['metrics-port'] !== undefined ? { metricsPort: flags.port(values['metrics-port']) } : {}),
  ...(values['no-metrics'] ? { metrics: false } : {}),
  ...(values.fault?.length ? { faults: values.fault.filter(isFaultName) } : {}),
  ...(values['no-rate-limit'] ? { rateLimit: false } : {}),
  ...(perAddress ? { limits: { maxConnectionsPerAddress: Number(perAddress) } } : {}),
  ...(values['no-dumps-ahead'] ? { dumpsAhead: false } : {}),
  ...(values['no-dump-cache'] ? { dumpCache: false as const } : {}),
  tracing: await startTracing(process.env, 'investor-graph-mock'),
  // This process is the mock's alone (server.ts, globalFetchClasses).
  globalFetchClasses: true,
};

let mock;
try {
  mock = await startMock(options);
} catch (error) {
  if (error instanceof StateFileError || error instanceof DatasetFileError || error instanceof RedisStateError) {
    // One line, not the usage: the flag is right, the file is not.
    console.error(error.message);
    process.exit(exitCode.usage);
  }
  listenFailed(error, port, values.host);
}
const { url, engine } = mock;

// In-flight requests are answered before the process ends (a client never sees a dropped call),
// then exit 0: a clean stop, which `pnpm start` does not call a failure. A terminal's Ctrl-C
// reaches every process of its group and a runner (pnpm, npm) passes it on again, so a repeat
// within a second is the same stop; a later one (a second Ctrl-C) stops at once, with 130.
// Set before the banner, which a script reads as the sign that the mock is up and may be stopped.
let stopping = 0;
const stop = (signal: NodeJS.Signals): void => {
  if (stopping && Date.now() - stopping > 1_000) process.exit(128 + osConstants.signals[signal]);
  if (stopping) return;
  stopping = Date.now();
  void mock.drain().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const counts = ['firm', 'company', 'round', 'investment']
  .map((r) => `${engine.store.count(r as never).toLocaleString('en')} ${r === 'company' ? 'companies' : `${r}s`}`)
  .join(', ');
const clock = `${engine.clock.state().now}${engine.clock.state().frozen ? ' (frozen)' : ''}`;
// The page (/__control/) is for a browser on loopback even with a token, which a browser cannot send.
const byToken = values['admin-token'] ? ', or admin token' : '';
const control = `${url}/__control/ (a page to watch it; loopback only${byToken})`;
const keyLines = keys.map(
  (k) =>
    `  ${k.plan.padEnd(10)} ${k.key}   ` +
    `${plans[k.plan].rate_per_second} req/s, ${plans[k.plan].rows_per_page} rows/page`,
);
console.log(`
Investor Graph API mock on ${url}  (started in ${Math.round(performance.now() - started)} ms)
  data:   ${counts}, as of ${new Date(engine.store.asOf).toISOString()}
  state:  ${stateLine(engine.accounts.store.describe())}
  clock:  ${clock}; control at ${control}
  docs:   ${url}/docs  (the contract: ${url}/api/v1/openapi.json)
${values.fault?.length ? `  FAULTS: ${values.fault.join(', ')} (this mock breaks the contract on purpose)\n` : ''}
Ready-made keys (shown once, like the real service):
${keyLines.join('\n')}

Try:
  curl -H 'Authorization: Bearer ${keys.find((k) => k.plan === 'team')!.key}' '${url}/api/v1/firms?limit=2'
  curl -X POST -H 'content-type: application/json' -d '{"email":"you@example.com"}' ${url}/api/v1/keys/trial
`);

/** Where keys and counters live, as the banner says it. */
function stateLine(info: StoreInfo): string {
  if (info.store === 'memory') return "in this process's memory (gone when it stops; --state keeps it)";
  if (info.store === 'sqlite') return `${info.location} (SQLite, shared by mocks on this machine)`;
  return (
    `${info.location} (Redis, shared by every mock on it; ` +
    `${info.reachable ? 'reachable' : 'NOT reachable: calls answer 503 until it is'})`
  );
}
