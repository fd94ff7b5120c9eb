/** The control client, and what a test catches from `api.verify` and `api.control`: both entries export it. */
export {
  createControlClient,
  ControlError,
  VerificationError,
  type ControlClient,
  type ControlClientOptions,
  type ControlFetch,
  type CallCount,
  type JournalEntry,
  type JournalFilter,
  type JournalPattern,
  type Verification,
} from '@investor-graph/engine/control';
