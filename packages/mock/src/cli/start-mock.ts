/** Builds a running mock from options: the one place the CLI, tests and benchmarks start it. */
import type { Server } from 'node:http';
import { createContractValidator } from '@investor-graph/contract';
import { createEngine, type Engine, type EngineOptions, type PresetKey } from '@investor-graph/engine/adapter';
import { faultAdapterOptions, faultEngineOptions, faultWrapper, type FaultName } from '@investor-graph/engine/faults';
import { withDocs } from '../docs-page.ts';
import { dumpCacheOf, dumpsAhead } from './dumps-ahead.ts';
import { diskDumpFiles } from '../dumps/disk/files.ts';
import { createNodeServer, listen, type NodeServerOptions } from '../adapters/node/server.ts';
import { SqliteKeyStore, type StateSync } from '../stores/sqlite/key-store.ts';
import { isRedisUrl } from '../stores/redis/url.ts';
import type { RedisKeyStore } from '../stores/redis/open.ts';
import { openStore, type DatasetOptions } from './open-dataset.ts';
import { MockMetrics } from '../operate/metrics.ts';
import { serveMetrics } from '../operate/metrics-server.ts';
import { operateWrappers, readiness, type Tracing } from '../operate/wrapper.ts';
import { watchStore } from '../operate/store-health.ts';

// Where the CLI, the tests and @investor-graph/mock/node have always taken them from.
export { DatasetFileError, loadInput, openStore } from './open-dataset.ts';
export { parseKeyFlag, presetKey } from './key-flags.ts';

export interface StartOptions extends DatasetOptions {
  port?: number;
  host?: string;
  keys?: PresetKey[];
  now?: string;
  frozen?: boolean;
  adminToken?: string;
  /** The base URL clients use, for absolute URLs the mock writes (the listen address by default). */
  publicUrl?: string;
  /** Host names, besides loopback ones, under which loopback clients may reach /__control. */
  allowHosts?: string[];
  cursorSecret?: string;
  /** Origins browser apps may call the data API from (any by default). */
  corsOrigins?: readonly string[];
  /**
   * Keep keys, counters, balances, the clock and the cursor secret in this SQLite database, across
   * restarts and shared with other mocks started on it on this machine; or, given a
   * `redis://[user:password@]HOST:PORT[/DB]` (or `rediss://`) URL, on that Redis server, shared
   * with every mock on it, on any machine, with the token buckets too (in memory when not given).
   */
  stateFile?: string;
  /** With stateFile: 'full' fsyncs every commit before its answer (survives a power loss; slower). */
  stateSync?: StateSync;
  log?: (line: string) => void;
  /** The log line's form: text (`GET /path 200 0.4ms`, the default) or one JSON object (`--log json`). */
  logFormat?: NodeServerOptions['logFormat'];
  /** Deliberate faults to switch on (see @investor-graph/engine, src/faults/); none by default. */
  faults?: FaultName[];
  /** false: never answer 429; for benchmarking the mock itself. */
  rateLimit?: boolean;
  /** How many data-API calls the request journal holds (1,000; 0: none); on Redis, the one all mocks on it share. */
  journal?: number;
  /** The process is the mock's alone: its global Request/Response may be the adapter's fast ones (server.ts). */
  globalFetchClasses?: boolean;
  /**
   * A database-backed dataset's nightly dumps are written ahead, at start and as the clock passes
   * each 04:00, as the real service writes them (true); false: when a manifest first asks.
   */
  dumpsAhead?: boolean;
  /** Where a database's finished dump files are kept between starts (dumpCacheDir()); false: nowhere. */
  dumpCache?: string | false;
  /**
   * The server's bounds (server.ts, defaultLimits): say, more connections
   * from one address behind a balancer, whose address every client shares.
   */
  limits?: NodeServerOptions['limits'];
  /** Prometheus metrics at /__control/metrics (true); false: none counted. */
  metrics?: boolean;
  /** Also serve the metrics at `GET /metrics` on this port (of `metricsHost`, every interface unless given). */
  metricsPort?: number;
  metricsHost?: string;
  /** Traces of the data calls (operate/tracing.ts starts them from OTEL_*), sent on and stopped as the mock stops. */
  tracing?: Tracing;
}

/** How often (real ms) the server looks whether the clock has passed a dump's 04:00. */
const DUMP_TICK_MS = 1_000;

export interface RunningMock {
  url: string;
  engine: Engine;
  server: Server;
  /** The metrics (none with `metrics: false`), and their own port's URL with `metricsPort`. */
  metrics?: MockMetrics;
  metricsUrl?: string;
  /** Stops at once: every connection is closed, in flight or not (tests, benchmarks). */
  close(): Promise<void>;
  /**
   * Stops as a server should on SIGINT or SIGTERM: no new connection, idle ones closed, the
   * requests in flight answered; whatever is still open after `graceMs` is closed.
   */
  drain(graceMs?: number): Promise<void>;
}

export async function startMock(options: StartOptions = {}): Promise<RunningMock> {
  const [store, validator] = await Promise.all([openStore(options), createContractValidator()]);
  let keyStore: SqliteKeyStore | RedisKeyStore | undefined;
  // What a state store shares besides keys: buckets, and on Redis the journal and the incidents (else this process's).
  const shared: Pick<EngineOptions, 'limiter' | 'addressLimiter' | 'journalStore' | 'incidentStore'> = {};
  try {
    if (options.stateFile && isRedisUrl(options.stateFile)) {
      // The Redis client is loaded only for a Redis URL (73 ms of every start otherwise).
      const { openRedisState } = await import('../stores/redis/open.ts');
      ({
        keyStore,
        limiter: shared.limiter,
        journal: shared.journalStore,
        incidents: shared.incidentStore,
      } = await openRedisState(options.stateFile, {
        enforceLimits: options.rateLimit !== false,
        journal: options.journal,
      }));
    } else if (options.stateFile) {
      keyStore = SqliteKeyStore.open(options.stateFile, {
        log: (line) => console.warn(line),
        ...(options.stateSync ? { synchronous: options.stateSync } : {}),
      });
      shared.addressLimiter = keyStore.buckets(options.rateLimit !== false);
    }
  } catch (error) {
    store.close();
    throw error;
  }
  const faults = options.faults ?? [];
  const dumpFiles = diskDumpFiles(undefined, dumpCacheOf(options.dumpCache));
  // The listen address is known once listening; links are built per request, so they see it.
  let listening = '';
  let engine: Engine;
  let server: Server;
  let url: string;
  const metrics = options.metrics === false ? undefined : new MockMetrics();
  // The state store's errors, commands' time and reconnects, counted as they come (operate/store-health.ts).
  const unwatch = metrics ? await watchStore(keyStore, metrics) : undefined;
  let metricsServer: { server: Server; url: string } | undefined;
  let listeningServer: Server | undefined;
  // Whatever fails from here on, the database is closed (its lock and WAL released) before the error goes up.
  try {
    engine = createEngine({
      publicUrl: options.publicUrl ?? (() => listening),
      dataset: store,
      dumpFiles,
      dumpWriter: dumpFiles.writer(store),
      validator,
      ...(keyStore ? { keyStore } : {}),
      ...shared,
      ...(options.keys ? { keys: options.keys } : {}),
      ...(options.now ? { now: Date.parse(options.now) } : {}),
      ...(options.frozen ? { frozen: true } : {}),
      ...(options.adminToken ? { adminToken: options.adminToken } : {}),
      ...(options.cursorSecret ? { cursorSecret: options.cursorSecret } : {}),
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
      ...(options.rateLimit === false ? { rateLimit: false } : {}),
      ...(options.journal !== undefined ? { journal: options.journal } : {}),
      // A fault that acts inside the engine reads it at call time, once it (and its clock) exists.
      ...faultEngineOptions(faults, () => engine),
      // The adapter's wrappers, outermost first, around the engine's own (the control plane, the journal).
      wrappers: (built) => [...operateWrappers(built, metrics, options.tracing), withDocs, faultWrapper(faults, built)],
    });
    await engine.ready;
    metrics?.watch(engine);
    // One way in for every call, faulted or not: the engine's answer, which the Node server's fast
    // path writes as it is and its WHATWG path as a Response (server.ts).
    const served = { answer: engine.answer };
    const host = options.host ?? '127.0.0.1';
    // The listen address names this mock too, unless it is a wildcard that names every interface.
    const allowedHosts = [...(options.allowHosts ?? []), ...(['0.0.0.0', '::'].includes(host) ? [] : [host])].map((h) =>
      h.toLowerCase(),
    );
    server = createNodeServer(served, {
      allowedHosts,
      ...faultAdapterOptions(faults),
      known: engine.accounts.known,
      ...(options.log ? { log: options.log } : {}),
      ...(options.logFormat ? { logFormat: options.logFormat } : {}),
      ...(options.globalFetchClasses ? { globalFetchClasses: true } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    url = await listen(server, options.port ?? 4010, host);
    listeningServer = server;
    if (metrics && options.metricsPort !== undefined)
      metricsServer = await serveMetrics(
        metrics,
        options.metricsPort,
        options.metricsHost ?? '0.0.0.0',
        readiness(engine),
      );
  } catch (error) {
    unwatch?.();
    listeningServer?.close();
    await keyStore?.close();
    store.close();
    dumpFiles.close();
    throw error;
  }
  listening = url;
  // A dump of a database takes seconds to minutes: written ahead in a worker, a manifest finds it
  // done (or kept from an earlier start). The embedded dataset's, in memory, is written when asked.
  let stopped = false;
  // A mock stopping stops its dump too: that is no failure to report.
  const dumpFailed = (date: string, error: unknown): void =>
    void (
      stopped ||
      console.error(
        `[investor-graph mock] the dump of ${date}, written ahead, failed (a manifest asked for it writes it again):`,
        error,
      )
    );
  const dumpTick =
    store.file !== null && options.dumpsAhead !== false
      ? setInterval(() => dumpsAhead(engine, dumpFailed), DUMP_TICK_MS).unref()
      : undefined;
  if (dumpTick) dumpsAhead(engine, dumpFailed);
  // The database closes once the last answer is out.
  const closed = (resolve: () => void) => () => {
    stopped = true;
    clearInterval(dumpTick);
    unwatch?.();
    metricsServer?.server.close();
    void Promise.all([keyStore?.close(), options.tracing?.shutdown()]).finally(() => {
      store.close();
      dumpFiles.close();
      resolve();
    });
  };
  return {
    url,
    engine,
    server,
    ...(metrics ? { metrics } : {}),
    ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(closed(resolve));
      }),
    drain: (graceMs = 10_000) =>
      new Promise((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          closed(resolve)();
        });
        server.closeIdleConnections();
      }),
  };
}
