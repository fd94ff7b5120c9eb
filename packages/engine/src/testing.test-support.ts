/**
 * The engine's shared test cases, for the adapters' tests (workspace only: test support is not
 * built into the package): the control client's suite, the control API's validating transport, the
 * incident stores' contract, and the rollups' reference, computed from every row as before #39.
 */
export { runControlClientCases, type ControlSetup, type ControlTarget } from './control/client-cases.test-support.ts';
export { validatingFetch } from './control/control-validator.test-support.ts';
export { runIncidentStoreContract, type IncidentStoreSetup } from './incidents/store-contract.test-support.ts';
export { rollupFromRows } from './data/rollups-reference.test-support.ts';
