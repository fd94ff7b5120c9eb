/**
 * The engine's shared test cases, for the adapters' tests (workspace only: test support is not
 * built into the package): the control client's suite and the control API's validating transport.
 */
export { runControlClientCases, type ControlSetup, type ControlTarget } from './control/client-cases.test-support.ts';
export { validatingFetch } from './control/control-validator.test-support.ts';
export { runIncidentStoreContract, type IncidentStoreSetup } from './incidents/store-contract.test-support.ts';
