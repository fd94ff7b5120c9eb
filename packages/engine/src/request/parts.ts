/** What the steps of a call work with (steps.ts), made once by createEngine. */
import type { KnownKeys } from '@investor-graph/cli/redact';
import type { Accounts } from '../accounts/accounts.ts';
import type { Clock, SharedClock } from '../clock.ts';
import type { CursorCodec } from '../data/cursor.ts';
import type { Store } from '../data/store.ts';
import type { Operation, OperationEnv } from '../operations/table.ts';
import type { EnvelopeDeps } from './envelope.ts';
import type { CorsOrigins } from './http-conventions.ts';
import type { BodySerialiser } from './serialise.ts';
import type { RequestValidation } from './validate.ts';

/** What the steps work with: made once by createEngine, or by a test. */
export interface EngineParts {
  store: Store;
  clock: Clock;
  /** The clock as the key store holds it, shared by every process on it. */
  shared: Pick<SharedClock, 'sync'>;
  accounts: Accounts;
  cursors: Pick<CursorCodec, 'decode' | 'encode'>;
  validation: Pick<RequestValidation, 'check'>;
  serialiser: Pick<BodySerialiser, 'serialise'>;
  /** What operations read. */
  env: OperationEnv;
  envelope: EnvelopeDeps;
  corsOrigins: CorsOrigins;
  /** Settled once preset keys are in and the dataset is caught up with the clock. */
  ready: Promise<void>;
  /** The operation table (operations.ts unless a test gives another). */
  operations?: Record<string, Operation>;
  /**
   * Keys of forms no pattern knows (presets, custom keys made
   * through control): never echoed, wherever a request sends them.
   */
  known: KnownKeys;
}
