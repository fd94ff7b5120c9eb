/**
 * The HTTP mock's request journal from a test: the MSW API's three calls (`journal`,
 * `clearJournal`, `verify`) over fetch to /__control/journal, so a test whose app calls the mock
 * through its port asks it what the app did as an MSW test does, and a failed verification throws
 * the same `VerificationError` with the same message.
 */
import {
  VerificationError,
  type CallCount,
  type JournalEntry,
  type JournalFilter,
  type JournalPage,
  type JournalPattern,
  type Verification,
} from '@investor-graph/engine';

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
  fetch?: typeof fetch;
}

/**
 * The journal of the mock at `baseUrl` (`http://127.0.0.1:4010`).
 * @example await mockJournal(mock.url).verify({ operation: 'listFirms', plan: 'team' }, 2);
 */
export function mockJournal(baseUrl: string, options: MockJournalOptions = {}): MockJournal {
  const base = `${baseUrl.replace(/\/+$/, '')}/__control/journal`;
  const send = options.fetch ?? fetch;
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await send(url, {
      method,
      headers: {
        ...(options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as T & { detail?: string };
    if (!response.ok)
      throw new Error(`[investor-graph mock] ${method} ${new URL(url).pathname}: ${response.status} ${answer.detail}`);
    return answer;
  };
  return {
    async journal(filter = {}) {
      const { query, since, ...members } = filter;
      const params = new URLSearchParams({ limit: '1000' });
      for (const [name, value] of Object.entries(members)) if (value !== undefined) params.set(name, String(value));
      if (since !== undefined) params.set('since', new Date(since).toISOString());
      const entries: JournalEntry[] = [];
      let cursor: string | null = null;
      do {
        if (cursor !== null) params.set('cursor', cursor);
        const page: JournalPage = await call<JournalPage>('GET', `${base}?${params}`);
        entries.push(...page.entries);
        // A cursor that names no later entry would page for ever: the mock broke its own paging.
        if (page.next_cursor !== null && page.next_cursor === cursor)
          throw new Error(`[investor-graph mock] the journal's paging did not move past ${cursor}`);
        cursor = page.next_cursor;
      } while (cursor !== null);
      // A page's query string names no parameters of the calls: those are matched here.
      return entries.filter((e) => Object.entries(query ?? {}).every(([name, value]) => e.query[name] === value));
    },
    async clearJournal() {
      await call('DELETE', base);
    },
    async verify(pattern, count) {
      const verification = await call<Verification>('POST', `${base}/verify`, { pattern, count });
      if (!verification.ok) throw new VerificationError(verification);
      return verification;
    },
  };
}
