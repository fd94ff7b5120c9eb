/**
 * The types the client is written against. In the workspace they are the contract package's, made
 * by the same openapi-typescript from contracts/openapi.yaml, so `pnpm typecheck` holds client.ts to
 * them; ../generated-clients.test.ts puts in this file's place the types it generates from the
 * contract a running mock serves, and type-checks client.ts against those.
 */
export type { paths } from '@investor-graph/contract';
