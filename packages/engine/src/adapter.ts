/**
 * The engine as the kit's adapters reach it (the mock's Node server, CLI and stores; the MSW
 * handlers): the engine and its wrappers, the answer record, the problems, the store interfaces with
 * the rules every store runs, and what an adapter reads of a call before the engine does. Users of
 * the kit import `@investor-graph/engine` (index.ts); tests' shared cases are `./testing`.
 */
export { createEngine, type Engine, type EngineOptions, type PresetKey } from './engine.ts';
export { compose, type Handler, type Wrapper } from './wrapper.ts';
export type { RequestContext } from './context.ts';
export { isPieces, piecesLength, toResponse, type Answer } from './answer.ts';
export { ProblemError, problemBody, problemResponse, type ProblemType } from './problems.ts';
export { concatBytes, fnv64 } from './hash.ts';
// What an adapter reads of a call before the engine does.
export { codedBody } from './http/json-body.ts';
export { pathUnder } from './http/query.ts';
export { refusedRoute } from './http/router.ts';
// Keys and accounts.
export { Accounts, newKeyText, presetPrepaidRows } from './accounts/accounts.ts';
export { DAY, newRecord } from './accounts/key-records.ts';
// The store interfaces, and what every store runs: the metering table and the token bucket.
export {
  keyPrefix,
  type ChargeOutcome,
  type ChargeStep,
  type KeyRecord,
  type KeyStore,
  type MetaName,
  type Refusal,
  type StoreInfo,
  type TrialCap,
  type TrialInsert,
} from './stores/key-store.ts';
export { decide, meteringTable, monthBounds, readCall, type MeterRow } from './stores/metering-table.ts';
export type { BucketKind, RateLimiter, Taken } from './stores/rate-limiter.ts';
export { bucketLua, bucketStep, type BucketMove } from './stores/token-bucket.ts';
export { TransactionalKeyStore } from './stores/transactional-key-store.ts';
export { MemoryStore, SortedKeys } from './stores/memory/dataset-store.ts';
export { MemoryKeyStore } from './stores/memory/key-store.ts';
export { MemoryRateLimiter } from './stores/memory/rate-limiter.ts';
// The dataset behind one interface, and what a store of it shares.
export {
  nested,
  type Change,
  type DateRange,
  type IndexName,
  type Page,
  type RowScan,
  type Store,
  type StoreInput,
} from './data/store.ts';
export { cutPage, RebuildingStore } from './data/rebuilding-store.ts';
export { statisticNames, type RollupSource, type StatisticName } from './data/rollups.ts';
export { roundVisible } from './data/round-lag.ts';
export { Statistics } from './data/statistics.ts';
export { Dumps, type Dump, type DumpFiles, type DumpWriter } from './dumps/dumps.ts';
export { seenBy, type Corrections } from './dumps/day-view.ts';
// The journal, for a store that keeps it elsewhere.
export {
  defaultJournalSize,
  entryOf,
  Journal,
  kept,
  type AnsweredCall,
  type JournalEntry,
  type JournalPage,
} from './journal/journal.ts';
export type { JournalStore, JournalView } from './journal/journal-store.ts';
export { matches, type JournalFilter } from './journal/match.ts';
export { verify } from './journal/verify.ts';
// The incidents, for a store that keeps them elsewhere.
export {
  Incidents,
  MAX_INCIDENTS,
  matchesCall,
  newIncidentId,
  shownIncident,
  tooManyIncidents,
  type CallFacts,
  type HeldIncident,
  type Incident,
  type IncidentInput,
  type IncidentStore,
} from './incidents/incidents.ts';
export { controlDocument } from './control/document.ts';
// The control plane's guard, for another server of the kit's on loopback (the MCP server's HTTP).
export { hostName, isLoopbackName } from './control/guard.ts';
