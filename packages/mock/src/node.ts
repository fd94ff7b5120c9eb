/** The Node adapter and its helpers, and the validation proxy for a live service. */
export { createNodeServer, listen, isLoopback } from './node/server.ts';
export { startMock, loadInput, parseKeyFlag, type StartOptions, type RunningMock } from './node/start.ts';
export { SqliteKeyStore, StateFileError, schemaVersion } from './node/sqlite-key-store.ts';
// Types only from the Redis store: startMock({ stateFile: 'redis://...' }) loads its client when asked.
export { RedisStateError, parseRedisUrl, type RedisTarget } from './node/redis/url.ts';
export { createValidationProxy, type ProxyOptions, type ExchangeRecord } from './proxy/proxy.ts';
// The process the CLI checks large answers in (ProxyOptions.checker), for a proxy built in code.
export { checkProcess, type CheckProcess, type CheckProcessOptions } from './node/proxy-checks.ts';
export { ProxyReport } from './proxy/report.ts';
