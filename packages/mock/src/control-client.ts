/**
 * The HTTP mock's request journal from a test: the MSW API's three calls (`journal`,
 * `clearJournal`, `verify`) over fetch to /__control/journal, so a test whose app calls the mock
 * through its port asks it what the app did as an MSW test does, and a failed verification throws
 * the same `VerificationError` with the same message. Three calls of the control client
 * (`@investor-graph/mock/control`), which does the rest of the control API too.
 */
import {
  createControlClient,
  type CallCount,
  type ControlFetch,
  type JournalEntry,
  type JournalFilter,
  type JournalPattern,
  type Verification,
} from '@investor-graph/engine/control';

export interface MockJournal {
  /** Every call journaled so far, oldest first, those matching `filter` only (every page of it). */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Forgets every call journaled so far. */
  clearJournal(): Promise<void>;
  /** Throws a `VerificationError` (its message lists the near misses) unless `count` calls match `pattern`. */
  verify(pattern: JournalPattern, count?: CallCount): Promise<Verification>;
}

export interface MockJournalOptions {
  /** The mock's --admin-token, for a mock reached from another address. */
  adminToken?: string;
  fetch?: ControlFetch;
}

/**
 * The journal of the mock at `baseUrl` (`http://127.0.0.1:4010`).
 * @example await mockJournal(mock.url).verify({ operation: 'listFirms', plan: 'team' }, 2);
 */
export function mockJournal(baseUrl: string, options: MockJournalOptions = {}): MockJournal {
  const control = createControlClient({ baseUrl, ...options });
  return {
    journal: (filter) => control.journal(filter),
    clearJournal: async () => void (await control.clearJournal()),
    verify: (pattern, count) => control.verify(pattern, count),
  };
}
