/** The Node adapter and its helpers, and the validation proxy for a live service. */
export { createNodeServer, listen, isLoopback } from './adapters/node/server.ts';
export { startMock, loadInput, parseKeyFlag, type StartOptions, type RunningMock } from './cli/start-mock.ts';
export { SqliteKeyStore, StateFileError, schemaVersion } from './stores/sqlite/key-store.ts';
// Types only from the Redis store: startMock({ stateFile: 'redis://...' }) loads its client when asked.
export { RedisStateError, parseRedisUrl, type RedisTarget } from './stores/redis/url.ts';
export { createValidationProxy, type ProxyOptions, type ExchangeRecord } from './proxy/proxy.ts';
// The process the CLI checks large answers in (ProxyOptions.checker), for a proxy built in code.
export { checkProcess, type CheckProcess, type CheckProcessOptions } from './proxy/checker/process.ts';
export { ProxyReport } from './proxy/report.ts';
// A test's way to the HTTP mock's request journal, as the MSW API has it.
export { mockJournal, type MockJournal, type MockJournalOptions } from './control-client.ts';
