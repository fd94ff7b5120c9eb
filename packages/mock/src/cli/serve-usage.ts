/**
 * What `investor-graph-mock serve --help` prints: every flag of the mock; and what `--help faults`
 * prints, every fault by what it breaks (a hundred lines, too many for the flags' page).
 */
import { exitCodesHelp } from '@investor-graph/cli';
import { planIds } from '@investor-graph/contract';
import { faults } from '@investor-graph/engine/faults';

const synopsis =
  'usage: investor-graph-mock [serve] [options]      ' + '(or: investor-graph-mock proxy URL, see proxy --help)';

const faultCount = Object.keys(faults).length;

/** OpenTelemetry's variables, as the mock and the proxy read them (operate/tracing.ts). */
export const tracesUsage = (program: string): string =>
  `Traces (OpenTelemetry): off unless an endpoint is set (nothing of the SDK is loaded then)
  OTEL_EXPORTER_OTLP_ENDPOINT=URL    a span per call, its steps as child spans, sent over OTLP/HTTP
                      (JSON) to URL/v1/traces; a W3C traceparent sent is continued
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=URL   the same, URL as it is
  OTEL_SERVICE_NAME   the service's name (${program}); OTEL_RESOURCE_ATTRIBUTES, more of it
  OTEL_SDK_DISABLED=true, OTEL_TRACES_EXPORTER=none   off, whatever else is set
  OTEL_BSP_SCHEDULE_DELAY and the other OTEL_BSP_* numbers: the batches' timing and sizes
  OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG   which calls are traced (parentbased_always_on)`;

export const serveUsage = `${synopsis}
  -p, --port N        port (4010; 0 picks a free one)
  -h, --host H        address to listen on (127.0.0.1)
  --data DIR|FILE     a dataset folder, or a database written by investor-graph-dataset --out
                      FILE.sqlite (the embedded @investor-graph/dataset); or a nightly dump: DIR
                      holding the answer of GET /api/v1/exports as manifest.json and the files it
                      lists (under DATE/NAME or beside it), each checked against its sha256 and
                      rows, read once into a database in the kit's cache and opened from there
                      afterwards; what the contract does not describe is served as the dump holds
                      it and said at start (the service's terms: internal use, no republishing)
  --seed S --scale N  a generated dataset instead, up to 50,000,000 rows: built once into an
                      SQLite database in the kit's cache ($KIT_CACHE or ~/.cache/investor-graph-kit),
                      opened from there in well under two seconds afterwards
  --key PLAN=KEY      preset a key (repeatable); PLAN is ${planIds.join(', ')}
  --now ISO           start the simulated clock here (the dataset's as-of)
  --frozen            the clock moves only through /__control/clock
  --admin-token T     also admit control calls bearing Authorization: Bearer T, from any address
                      (or $INVESTOR_GRAPH_MOCK_ADMIN_TOKEN, kept off the command line)
  --public-url URL    the base URL clients use (behind a proxy, say), for links the mock writes
                      (the listen address)
  --allow-host NAME   a host name besides localhost and 127.0.0.1 under which loopback clients
                      may reach /__control (repeatable), e.g. behind a local reverse proxy
  --cursor-secret S   sign cursors with S (keeps cursors valid across restarts)
  --cors-origin O     let browser apps call the data API from origin O only (repeatable; any
                      origin by default, as prism mock; never the control endpoints)
  --state FILE        keep keys, usage, balances and the clock in the SQLite database FILE,
                      across restarts and shared by every mock started on it (made 0600)
  --state redis://[user:password@]HOST:PORT[/DB][?timeout=MS&prefix=P]
                      keep them, and every rate limit, on a Redis server (rediss:// for TLS),
                      shared by every mock on it, on any machine (replicas behind a balancer);
                      a command slower than the timeout (1000 ms) answers 503 state_unavailable;
                      prefix (igk:) lets independent mocks share one server; Redis 7 or later,
                      standalone, maxmemory-policy noeviction ($INVESTOR_GRAPH_MOCK_STATE, kept off
                      the command line, gives the URL with its password too)
  --state-sync full   fsync every counted call before answering it, so not even a power loss
                      loses one (normal: a killed mock loses nothing; about twice as fast)
  --no-dumps-ahead    write the nightly dump of a generated dataset, a --data FILE or a dump given
                      as --data when a manifest first asks, not at start and each simulated 04:00
                      (as the real service does)
  --no-dump-cache     keep no finished dump files in the kit's cache for later starts
  --log [json]        log one line per request: text (GET /path 200 0.4ms), or with json one JSON
                      object a line (time, level, request_id, trace_id of a W3C traceparent or,
                      with traces on, of the call's trace, operation, method, path, status,
                      duration_ms, key_id, plan); keys blanked
  --metrics-port N    also serve the Prometheus metrics of /__control/metrics at GET /metrics on
                      port N of every interface, for a scrape from another host without opening
                      the control API (the counts carry no key, path or request id)
  --no-metrics        count nothing, serve no metrics (the bench measures the mock with and without)
  --journal N         the request journal holds the last N calls of the data API (1,000; 0: none),
                      read, cleared and verified at /__control/journal (keys blanked); with
                      --state redis://, one journal on the server for every mock on it, each
                      showing its newest N (give every replica the same N)
  --no-rate-limit     never answer 429: no key's rate, trial cap or failed-key budget (to benchmark
                      the mock itself or fuzz it; clients should meet the limits)
  --max-connections-per-address N
                      connections one client address may hold open (512 of the 2,048 in all; past
                      it, 503): raise it behind a balancer, whose address every client shares
  --fault NAME        break one rule on purpose, to see a checker catch it (repeatable), one of
                      ${faultCount} faults: investor-graph-mock --help faults lists each by what it breaks
  --help              this text (-h is the host, as in prism mock); --help faults, the faults
  --version           the package and its version

${tracesUsage('investor-graph-mock')}

${exitCodesHelp('investor-graph-mock')}`;

/** `investor-graph-mock --help faults`: each fault of --fault, by what it breaks. */
export const faultsUsage = `usage: investor-graph-mock --fault NAME [--fault NAME ...] [options]
Each fault breaks one rule of the contract on purpose, to see a checker catch it (the contract
tests' rule matrix names the sentences each breaks):
${Object.entries(faults)
  .map(([name, breaks]) => `  ${name.padEnd(34)} ${breaks}`)
  .join('\n')}`;
