/**
 * `@investor-graph/mock/control`: the typed client of the mock's control API, for a test that
 * drives a mock over HTTP (`createControlClient({ baseUrl, adminToken? })`). The client is the
 * engine's, so the MSW handlers' `api.control` is the same interface in-process.
 */
export * from '@investor-graph/engine/control';
