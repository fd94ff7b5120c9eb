/** The engine: framework-free, no Node-only API. */
export { createEngine, type Engine, type EngineOptions, type PresetKey, type RequestContext } from './engine.ts';
export { ProblemError, problemTypes, action, type ProblemCode, type Action } from './problems.ts';
export { Clock, parseDuration } from './clock.ts';
export { faults, faultNames, isFaultName, withFaults, type FaultName } from './faults/index.ts';
export { newKeyText, presetPrepaidRows } from './accounts/accounts.ts';
export { MemoryKeyStore } from './stores/memory/key-store.ts';
export type { KeyStore, KeyRecord, MetaName } from './stores/key-store.ts';
export { statisticNames } from './data/rollups.ts';
export { mintCursor } from './data/mint-cursor.ts';
export { Journal, defaultJournalSize, type JournalEntry, type JournalPage } from './journal/journal.ts';
export type { JournalStore, JournalView } from './journal/journal-store.ts';
export { verify, VerificationError, type CallCount, type NearMiss, type Verification } from './journal/verify.ts';
export type { Difference, JournalFilter, JournalPattern } from './journal/match.ts';
export { parseExpectation, type Expectation } from './journal/parse.ts';
export { Incidents, type Incident, type IncidentInput, type IncidentMatch } from './incidents/incidents.ts';
export { incidentKinds, type IncidentKind, type IncidentParameter } from './incidents/kinds.ts';
export { parseIncident } from './incidents/parse.ts';
export {
  createControlClient,
  inProcessFetch,
  ControlError,
  controlDocument,
  type ControlClient,
  type ControlClientOptions,
  type ControlFetch,
  type ControlInputError,
  type ControlDocument,
} from './control/client.ts';
