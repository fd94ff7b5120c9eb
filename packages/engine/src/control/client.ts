/**
 * One typed client for the mock's control API (`/__control`, described by openapi.yaml beside
 * this file and served at /__control/openapi.json): keys, clock, rebuilds, journal, verification,
 * incidents, state. The same interface over HTTP (a mock on loopback, or elsewhere with its admin token) and
 * in-process (`inProcessFetch`, as the MSW API's `api.control` is made), so a test writes the same
 * lines against either. Its types are the document's (generated/api.ts, by `pnpm generate`).
 *
 * @example
 * const control = createControlClient({ baseUrl: 'http://127.0.0.1:4010' });
 * const { key, key_id } = await control.createKey({ plan: 'trial' });
 * await control.advanceClock('P8D'); // the trial has expired
 */
import type { RequestContext } from '../context.ts';
import type { JournalEntry, JournalPage } from '../journal/journal.ts';
import type { JournalFilter, JournalPattern } from '../journal/match.ts';
import { VerificationError, type CallCount, type Verification } from '../journal/verify.ts';
import { ControlError } from './control-error.ts';
import type { ControlDocument } from './document.ts';
import type { components } from './generated/api.ts';

export { ControlError, type ControlInputError } from './control-error.ts';
export { controlDocument, type ControlDocument } from './document.ts';
export { VerificationError, type CallCount, type JournalEntry, type JournalFilter, type JournalPattern };
export type { Verification };

type Schemas = components['schemas'];
export type ControlState = Schemas['State'];
export type CreateKeyRequest = Schemas['CreateKeyRequest'];
export type IssuedKey = Schemas['IssuedKey'];
export type KeySummary = Schemas['KeySummary'];
export type KeyWithBalance = Schemas['KeyWithBalance'];
export type KeyWithUsage = Schemas['KeyWithUsage'];
export type ClockState = Schemas['ClockState'];
export type ClockChange = Schemas['ClockChange'];
export type SetClockRequest = Schemas['SetClockRequest'];
export type AdvanceClockRequest = Schemas['AdvanceClockRequest'];
export type Rebuild = Schemas['Rebuild'];
export type JournalCleared = Schemas['JournalCleared'];
export type CreateIncidentRequest = Schemas['CreateIncidentRequest'];
export type Incident = Schemas['Incident'];
export type IncidentsCleared = Schemas['IncidentsCleared'];

/** How the client sends a call: `fetch` itself, or anything shaped like it (an in-process engine). */
export type ControlFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface ControlClientOptions {
  /** Where the mock is: `http://127.0.0.1:4010`, or the origin the MSW handlers intercept. */
  baseUrl: string;
  /** The mock's `--admin-token`, for a mock that is not reached over loopback. */
  adminToken?: string;
  /** The transport; the global `fetch` when left out. */
  fetch?: ControlFetch;
}

/** Every call of the control API, typed by its OpenAPI document. A refused call throws a `ControlError`. */
export interface ControlClient {
  /** The control API's OpenAPI document. */
  openapi(): Promise<ControlDocument>;
  /** The clock, the data's as-of, pending rebuilds, the state store and every key with its usage. */
  state(): Promise<ControlState>;
  /** A key of any plan; its text is in this answer only. */
  createKey(request: CreateKeyRequest): Promise<IssuedKey>;
  /** Revokes the key with this key_id (`key_...`, never the key): its calls get 401 `revoked_key`. */
  revokeKey(keyId: string): Promise<KeySummary>;
  /** Adds prepaid rows to a pay-as-you-go key. */
  topUp(keyId: string, rows: number): Promise<KeyWithBalance>;
  /** Sets the calls counted in the key's period ("999 of 1,000" without 999 calls). */
  setUsage(keyId: string, callsUsed: number): Promise<KeyWithUsage>;
  /** The simulated clock. */
  clock(): Promise<ClockState>;
  /** Sets the simulated time (forward only) and freezes or releases it. */
  setClock(request: SetClockRequest): Promise<ClockChange>;
  /** Moves the clock forward by an ISO 8601 duration (`'P7D'`), or `{ seconds }` / `{ duration }`. */
  advanceClock(by: string | AdvanceClockRequest): Promise<ClockChange>;
  /** Runs the rebuilds due at the simulated time now. */
  rebuild(): Promise<Rebuild>;
  /** Every journaled call of the data API matching `filter`, oldest first: every page of it. */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Forgets every journaled call. */
  clearJournal(): Promise<JournalCleared>;
  /** Throws a `VerificationError` (its message lists the near misses) unless `count` calls match `pattern`. */
  verify(pattern: JournalPattern, count?: CallCount): Promise<Verification>;
  /**
   * Starts an incident: the matching calls of the data API answered 503, 502, 504 or 429, slowly,
   * or cut off, until it ends (after `calls`, `duration` or `until`, or when ended).
   * @example await control.createIncident({ kind: 'outage', match: { operation: 'listFirms' }, calls: 2 });
   */
  createIncident(request: CreateIncidentRequest): Promise<Incident>;
  /** The incidents in force, oldest first. */
  incidents(): Promise<Incident[]>;
  /** Ends every incident in force. */
  clearIncidents(): Promise<IncidentsCleared>;
  /** Ends one incident; answers it as it ended. */
  endIncident(id: string): Promise<Incident>;
}

const keyId = /^key_[0-9a-f]{1,64}$/;
const incidentId = /^inc_[0-9a-f]{12}$/;

/**
 * A key_id as a path segment. Anything else (a key's text passed by mistake, say) is refused here,
 * never sent: the mock would echo the path it found no route at, and this error names no value.
 */
function keyPath(method: string, id: string): string {
  if (typeof id !== 'string' || !keyId.test(id))
    throw new TypeError(
      `[investor-graph mock] ${method} takes a key_id (key_ and hex, as createKey shows it), not a key`,
    );
  return `/keys/${id}`;
}

/** The error of a call that got no answer: the control API's address, why (the system's code), what to check. */
function unreachable(base: string, error: unknown): Error {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const why = String(cause?.code ?? cause?.message ?? (error as Error | null)?.message ?? error);
  return new Error(
    `[investor-graph mock] cannot reach the mock's control API at ${base} (${why}): is the mock running there ` +
      '(startMock, or npx --no -- investor-graph-mock), and is the base URL its origin (http://127.0.0.1:4010, ' +
      'no path)?',
    { cause: error },
  );
}

/**
 * A client of the control API at `baseUrl`.
 * @example await createControlClient({ baseUrl: mock.url }).setUsage(key_id, 999);
 */
export function createControlClient(options: ControlClientOptions): ControlClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/__control`;
  const send: ControlFetch = options.fetch ?? ((url, init) => fetch(url, init));
  // What this client has held that no error may show: the admin token, and keys sent or made.
  const secrets: string[] = options.adminToken ? [options.adminToken] : [];
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await send(`${base}${path}`, {
        method,
        headers: {
          ...(options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      // No answer at all (fetch's bare "fetch failed"): which address, and what to check.
      throw unreachable(base, error);
    }
    const text = await response.text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    const shown = `/__control${path.split('?')[0]}`;
    if (!response.ok || answer === undefined) throw new ControlError(method, shown, response.status, answer, secrets);
    return answer as T;
  };
  const keep = (key: unknown): void => void (typeof key === 'string' && secrets.push(key));

  return {
    openapi: () => call('GET', '/openapi.json'),
    state: () => call('GET', '/state'),
    async createKey(request) {
      keep(request.key);
      const issued = await call<IssuedKey>('POST', '/keys', request);
      keep(issued.key);
      return issued;
    },
    // async: a refused key_id is a rejection, as every other refusal of the client is.
    revokeKey: async (id) => call('POST', `${keyPath('revokeKey', id)}/revoke`),
    topUp: async (id, rows) => call('POST', `${keyPath('topUp', id)}/top-up`, { rows }),
    setUsage: async (id, callsUsed) => call('PUT', `${keyPath('setUsage', id)}/usage`, { calls_used: callsUsed }),
    clock: () => call('GET', '/clock'),
    setClock: (request) => call('PUT', '/clock', request),
    advanceClock: (by) => call('POST', '/clock/advance', typeof by === 'string' ? { duration: by } : by),
    rebuild: () => call('POST', '/rebuild'),
    async journal(filter = {}) {
      const { query, since, ...members } = filter;
      const params = new URLSearchParams({ limit: '1000' });
      for (const [name, value] of Object.entries(members)) if (value !== undefined) params.set(name, String(value));
      if (since !== undefined) params.set('since', new Date(since).toISOString());
      const entries: JournalEntry[] = [];
      let cursor: string | null = null;
      do {
        if (cursor !== null) params.set('cursor', cursor);
        const page: JournalPage = await call<JournalPage>('GET', `/journal?${params}`);
        entries.push(...page.entries);
        // A cursor that names no later entry would page for ever: the mock broke its own paging.
        if (page.next_cursor !== null && page.next_cursor === cursor)
          throw new Error(`[investor-graph mock] the journal's paging did not move past ${cursor}`);
        cursor = page.next_cursor;
      } while (cursor !== null);
      // A page's query string names no parameters of the calls: those are matched here.
      return entries.filter((e) => Object.entries(query ?? {}).every(([name, value]) => e.query[name] === value));
    },
    clearJournal: () => call('DELETE', '/journal'),
    async verify(pattern, count) {
      const verification = await call<Verification>('POST', '/journal/verify', { pattern, count });
      if (!verification.ok) throw new VerificationError(verification);
      return verification;
    },
    createIncident: (request) => call('POST', '/incidents', request),
    incidents: async () => (await call<Schemas['IncidentList']>('GET', '/incidents')).incidents,
    clearIncidents: () => call('DELETE', '/incidents'),
    async endIncident(id) {
      if (typeof id !== 'string' || !incidentId.test(id))
        throw new TypeError('[investor-graph mock] endIncident takes an incident id (inc_ and 12 hex digits)');
      return call('DELETE', `/incidents/${id}`);
    },
  };
}

/** What `inProcessFetch` calls: the engine's `fetch` (engine.ts), named here so the client stays below it. */
export interface InProcessEngine {
  fetch(request: Request, context?: RequestContext): Promise<Response>;
}

/**
 * A transport that hands each call to `engine` in this process, as the MSW handlers do (no network,
 * so the control plane has nothing to guard): `createControlClient({ baseUrl, fetch: inProcessFetch(engine) })`.
 * Given a function, each call goes to the engine it returns then (the MSW API's `reset` swaps engines).
 */
export function inProcessFetch(engine: InProcessEngine | (() => InProcessEngine)): ControlFetch {
  const current = typeof engine === 'function' ? engine : () => engine;
  return (url, init) =>
    current().fetch(new Request(url, init), { clientAddress: 'msw', loopback: true, inProcess: true });
}
