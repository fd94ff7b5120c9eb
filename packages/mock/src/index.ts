/** The engine: framework-free, no Node-only API. */
export { createEngine, type Engine, type EngineOptions, type PresetKey, type RequestContext } from './engine/engine.ts';
export { ProblemError, problemTypes, action, type ProblemCode, type Action } from './engine/problems.ts';
export { Clock, parseDuration } from './engine/clock.ts';
export { faults, faultNames, isFaultName, withFaults, type FaultName } from './faults/index.ts';
export { newKeyText, presetPrepaidRows } from './engine/accounts/accounts.ts';
export { MemoryKeyStore, type KeyStore, type KeyRecord, type MetaName } from './engine/accounts/key-store.ts';
export { statisticNames } from './engine/data/rollups.ts';
export { rollupFromRows } from './engine/data/rollups-from-rows.ts';
export { mintCursor } from './engine/data/mint-cursor.ts';
