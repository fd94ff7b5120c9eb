/**
 * The engine, as `@investor-graph/engine` exports it: the mock's own import name for what it
 * always offered here (the Node server and CLI are `@investor-graph/mock/node` and the bin).
 */
export * from '@investor-graph/engine';
