/**
 * `investor-graph-mock proxy URL` (or `--upstream URL`): the validation proxy on a loopback port. Violations
 * go out three ways: the `sl-violations` header, a log line, and JSON and JUnit reports (and with
 * --html a page) written on exit (SIGINT or SIGTERM), and on a failure of its own. It exits 1 when
 * the service broke a rule, so a CI step fails.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { exitCode, exitCodesHelp, whyUnwritable, writeSetupReports } from '@investor-graph/cli';
import { createContractValidator } from '@investor-graph/contract';
import { renderProxyHtml } from '../proxy/html.ts';
import { createValidationProxy } from '../proxy/proxy.ts';
import { ProxyReport } from '../proxy/report.ts';
import { escapeControl } from '@investor-graph/cli/redact';
import { readFlags } from './flags.ts';
import { checkProcess } from '../proxy/checker/process.ts';
import { createNodeServer, isLoopback, listen } from '../adapters/node/server.ts';
import { MockMetrics } from '../operate/metrics.ts';
import { serveMetrics } from '../operate/metrics-server.ts';
import { startTracing } from '../operate/tracing.ts';
import { tracesUsage } from './serve-usage.ts';

const usage = `usage: investor-graph-mock proxy URL [options]     (as prism proxy takes it; or --upstream URL)
  URL, --upstream URL the live service, e.g. https://api.example.com
  -p, --port N        port (4011; 0 picks a free one)
  -h, --host H        address to listen on (127.0.0.1)
  --errors            answer a response that breaks a rule with a 502 problem instead of passing it on
  --timeout MS        a slower upstream answer becomes a 504 problem (30000)
  --report FILE       JSON report written on exit (proxy-results/report.json)
  --junit FILE        JUnit XML written on exit (proxy-results/junit.xml)
  --html FILE         also a page to read in a browser, offline, written on exit: the violations
                      by rule with their exchanges and a curl line each (none by default)
  --quiet             log only exchanges with violations
  --metrics-port N    serve Prometheus metrics at GET /metrics on port N of every interface: the
                      exchanges by operation and status class, the violations by rule and operation
  --allow-unvalidated a check the proxy gave up (an answer over 32 MiB, no room to hold it, a
                      walk forgotten, ...) is noted, not a violation (by default it is one,
                      not_validated, and fails the run)
  --help              this text (-h is the host, as in prism proxy)
  --version           the package and its version

${tracesUsage('investor-graph-proxy')}: the exchange's span, the call upstream its child, whose
  traceparent the service gets

${exitCodesHelp('investor-graph-mock proxy')}`;

const flags = readFlags(
  'investor-graph proxy',
  usage,
  process.argv.slice(3),
  {
    upstream: { type: 'string' },
    port: { type: 'string', short: 'p', default: '4011' },
    host: { type: 'string', short: 'h', default: '127.0.0.1' },
    errors: { type: 'boolean' },
    timeout: { type: 'string', default: '30000' },
    report: { type: 'string', default: 'proxy-results/report.json' },
    junit: { type: 'string', default: 'proxy-results/junit.xml' },
    html: { type: 'string' },
    quiet: { type: 'boolean' },
    'metrics-port': { type: 'string' },
    'allow-unvalidated': { type: 'boolean' },
    help: { type: 'boolean' },
  },
  { positionals: 1 },
);
const { values } = flags;
// Annotated, so that TypeScript knows code after a call to either does not run.
const fail: (message: string) => never = flags.fail;
const listenFailed: (error: unknown, port: number, host: string) => never = flags.listenFailed;
const given = values.upstream ?? flags.positionals[0];
if (!given) fail('give the upstream: investor-graph-mock proxy URL (or --upstream URL)');
if (values.upstream && flags.positionals.length)
  fail('give the upstream once: as the argument or as --upstream, not both');
let upstream: URL;
try {
  upstream = new URL(given);
} catch {
  fail(`the upstream is not a URL: ${given}`);
}
if (!['http:', 'https:'].includes(upstream.protocol))
  fail(`--upstream must be http or https, got ${upstream.protocol}`);
const port = flags.port(values.port);
// Found out now, not on exit after hours of traffic whose findings would then go nowhere.
for (const flag of ['report', 'junit', 'html'] as const) {
  const file = values[flag];
  const problem = file === undefined ? null : whyUnwritable(file);
  if (problem) fail(`--${flag} ${file}: ${problem}`);
}
// Written last, the page would overwrite the report it shares a file with.
const sameAsHtml =
  values.html === undefined
    ? undefined
    : (['report', 'junit'] as const).find((flag) => resolve(values[flag]) === resolve(values.html!));
if (sameAsHtml) fail(`--html ${values.html} is the file of --${sameAsHtml}: give the page a name of its own`);
if (!/^\d+$/.test(values.timeout) || Number(values.timeout) < 1)
  fail(`--timeout must be a whole number of milliseconds, got ${values.timeout}`);
if (!isLoopback(values.host) && values.host !== 'localhost') {
  console.warn(
    `[investor-graph proxy] listening on ${values.host}: anyone who reaches it can spend the keys sent through it`,
  );
}

const metricsPort = values['metrics-port'] === undefined ? undefined : flags.port(values['metrics-port']);
const metrics = metricsPort === undefined ? undefined : new MockMetrics();
const report = new ProxyReport(upstream.origin + upstream.pathname.replace(/\/+$/, ''));
// Large answers are checked in a process of their own, so that checking one holds no other client.
const checks = checkProcess();
const tracing = await startTracing(process.env, 'investor-graph-proxy');
const proxy = createValidationProxy({
  checker: checks.check,
  ...(tracing ? { fetch: tracing.upstream(globalThis.fetch) } : {}),
  upstream: upstream.href,
  validator: await createContractValidator(),
  ...(values.errors ? { errors: true } : {}),
  timeoutMs: Number(values.timeout),
  ...(values['allow-unvalidated'] ? { allowUnvalidated: true } : {}),
  ...(metrics ? { counters: { exchanges: metrics.exchanges, violations: metrics.violations } } : {}),
  onExchange(record) {
    report.add(record);
    if (values.quiet && !record.violations.length) return;
    const more = Object.values(record.more ?? {}).reduce((sum, n) => sum + n, 0);
    const summary = record.violations.length
      ? `  VIOLATIONS ${record.violations
          .map((v) => `[${v.rule}] ${v.message}`)
          .join('; ')
          .slice(0, 1000)}${more ? ` (and ${more} more)` : ''}`
      : record.notValidated
        ? `  NOT VALIDATED: ${record.notValidated}`
        : '';
    // Never headers: the key travels in Authorization and must not reach a log. The service's text
    // is escaped: a newline in it must not forge a line of this log.
    console.log(escapeControl(`${record.method} ${record.path} ${record.status} ${record.ms}ms${summary}`));
  },
});
// A body in a content coding goes on as sent: the service, not the proxy, says whether it takes it.
const traced = tracing ? { fetch: tracing.exchange((request) => proxy.fetch(request)) } : proxy;
const server = createNodeServer(traced, { passCodedBodies: true });
let url: string;
try {
  url = await listen(server, port, values.host);
} catch (error) {
  // A proxy that could not start still writes its reports, saying why (a CI page shows them).
  const reason =
    (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${port} on ${values.host} is in use` : String(error);
  writeSetupReports(
    { command: 'investor-graph-mock proxy', step: 'port', reason, facts: { upstream: report.upstream } },
    { junit: resolve(values.junit), json: resolve(values.report), html: values.html && resolve(values.html) },
  );
  listenFailed(error, port, values.host);
}
// The proxy is ready once listening: its probes on the metrics port say so.
const metricsServer =
  metrics && metricsPort !== undefined
    ? await serveMetrics(metrics, metricsPort, '0.0.0.0', () => Promise.resolve(null)).catch((error: unknown) =>
        listenFailed(error, metricsPort, '0.0.0.0'),
      )
    : undefined;
console.log(
  `Investor Graph validation proxy on ${url} -> ` +
    `${report.upstream}${values.errors ? ' (violations answered as 502)' : ''}\n` +
    `  reports on exit: ${[values.report, values.junit, values.html].filter(Boolean).join(', ')}` +
    (metricsServer ? `\n  metrics: ${metricsServer.url.replace('0.0.0.0', '127.0.0.1')}/metrics` : ''),
);

function write(file: string, text: string): void {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, text);
}

let finishing = false;
/** Writes the reports and exits: exchanges still in flight are in them, given up, saying `why`. */
function finish(why: string, failed = false): void {
  // Once: a second signal or an error while the spans are sent must not write the reports again.
  if (finishing) return;
  finishing = true;
  server.closeAllConnections();
  server.close();
  metricsServer?.server.close();
  proxy.abandon(why);
  const json = report.toJSON();
  write(values.report, `${JSON.stringify(json, null, 2)}\n`);
  write(values.junit, report.toJUnit());
  if (values.html) write(values.html, renderProxyHtml(json));
  const broken = report.responseViolations;
  console.log(
    `[investor-graph proxy] ${report.exchanges} exchanges, ${report.withViolations} with ` +
      `violations${broken ? ` (${[...report.byRule].map(([r, n]) => `${r}: ${n}`).join(', ')})` : ''}`,
  );
  const code = failed ? exitCode.internal : broken ? exitCode.failed : exitCode.held;
  // The spans still held are sent first (the exporter's own timeout bounds the wait).
  if (tracing) void tracing.shutdown().finally(() => process.exit(code));
  else process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => finish(`the proxy was stopped (${signal}) before this exchange was through`));
// A failure of the proxy's own still leaves the reports of what it saw, and fails the step (70, EX_SOFTWARE).
const failedSelf = (error: unknown): void => {
  console.error('[investor-graph proxy] internal error, stopping:', error);
  return finish(
    `the proxy failed before this exchange was through: ${(error as Error)?.message ?? String(error)}`,
    true,
  );
};
process.once('uncaughtException', failedSelf);
process.once('unhandledRejection', failedSelf);
