/** The Node adapter and its helpers. */
export { createNodeServer, listen, isLoopback } from './node/server.ts';
export { startMock, loadInput, parseKeyFlag, readState, writeState, type StartOptions, type RunningMock } from './node/start.ts';
