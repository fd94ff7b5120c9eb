/** The Node adapter and its helpers, and the validation proxy for a live service. */
export { createNodeServer, listen, isLoopback } from './adapters/node/server.ts';
import { hideSqliteWarning } from '@investor-graph/cli/node-version';
import type * as StartModule from './cli/start-mock.ts';
import type { RunningMock, StartOptions } from './cli/start-mock.ts';

export type { StartOptions, RunningMock } from './cli/start-mock.ts';
export { parseKeyFlag } from './cli/key-flags.ts';

/**
 * The mock's start, loaded when first asked for: what it opens (node:sqlite) would otherwise load
 * with this entry, and on Node 22 print its experimental warning into the user's test output
 * before hideSqliteWarning could run. mockJournal and the rest of this entry never load it.
 */
async function started(): Promise<typeof StartModule> {
  hideSqliteWarning();
  return import('./cli/start-mock.ts');
}

/** The mock on a port (0 for a free one), as `investor-graph-mock` starts it; `close()` stops it. */
export async function startMock(options: StartOptions = {}): Promise<RunningMock> {
  return (await started()).startMock(options);
}

/** The dataset `startMock` would serve for these options (the embedded one by default). */
export async function loadInput(
  options: Parameters<typeof StartModule.loadInput>[0],
): ReturnType<typeof StartModule.loadInput> {
  return (await started()).loadInput(options);
}
export { SqliteKeyStore, StateFileError, schemaVersion } from './stores/sqlite/key-store.ts';
// Types only from the Redis store: startMock({ stateFile: 'redis://...' }) loads its client when asked.
export { RedisStateError, parseRedisUrl, type RedisTarget } from './stores/redis/url.ts';
export { createValidationProxy, type ProxyOptions, type ExchangeRecord } from './proxy/proxy.ts';
// The process the CLI checks large answers in (ProxyOptions.checker), for a proxy built in code.
export { checkProcess, type CheckProcess, type CheckProcessOptions } from './proxy/checker/process.ts';
export { ProxyReport } from './proxy/report.ts';
// A test's way to the HTTP mock's request journal, as the MSW API has it.
export { mockJournal, type MockJournal, type MockJournalOptions } from './control-client.ts';
