/**
 * Control endpoints under /__control (a prefix the contract does not use): keys of any plan, top-ups,
 * revocation, the test clock, rebuilds and state, the request journal (journal-routes.ts) and
 * incidents (incident-routes.ts), and a page that shows them (page/). Who may call them is guard.ts's
 * to say. Documented in the package README.
 */
import { isPlanId, planIds } from '@investor-graph/contract/plans';
import type { Accounts } from '../accounts/accounts.ts';
import { json, type Answer } from '../answer.ts';
import { parseDuration, type Clock } from '../clock.ts';
import type { RequestContext } from '../context.ts';
import type { ControlGuard } from './guard.ts';
import type { JournalStore } from '../journal/journal-store.ts';
import type { IncidentStore } from '../incidents/store.ts';
import { incidentRoute } from './incident-routes.ts';
import { journalRoute } from './journal-routes.ts';
import { controlDocument } from './document.ts';
import { controlPage } from './page/page.ts';
import { metricsAnswer, probe } from './operate.ts';
import { codedBody, parseJsonBody } from '../http/json-body.ts';
import { ProblemError } from '../problems.ts';
import type { Store } from '../data/store.ts';

export interface ControlDeps {
  store: Store;
  clock: Clock;
  accounts: Accounts;
  context: RequestContext;
  guard: ControlGuard;
  requestId: string;
  /** The data API's calls, as a test asks about them (journal-routes.ts). */
  journal: JournalStore;
  /** What a test asked the mock to do wrong (incident-routes.ts). */
  incidents: IncidentStore;
  /** Changes the clock as the key store holds it, where restarts and other processes on it find it. */
  changeClock: (change: (clock: Clock) => void) => Promise<void>;
}

/** The latest simulated time: past it, ISO 8601 dates no longer have four-digit years. */
const latestTime = Date.parse('9999-12-31T23:59:59Z');

async function readJson(request: Request): Promise<Record<string, unknown>> {
  const coded = codedBody(request.headers.get('content-encoding'));
  if (coded) throw coded;
  const text = await request.text();
  if (text.length > 4096) throw new ProblemError('payload_too_large', 'Control bodies may be at most 4096 bytes.');
  if (!text) return {};
  const value = parseJsonBody(text, 'The body must be a JSON object.');
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ProblemError('invalid_body', 'The body must be a JSON object.', {
    extra: { errors: [{ pointer: '', detail: 'not a JSON object' }] },
  });
}

function bad(pointer: string, detail: string): ProblemError {
  return new ProblemError('invalid_body', `${pointer.slice(1) || 'body'}: ${detail}`, {
    extra: { errors: [{ pointer, detail }] },
  });
}

/** A control call, admitted by the guard, answered by its route; no answer of the control plane is kept by a cache. */
export async function handleControl(request: Request, url: URL, deps: ControlDeps): Promise<Answer> {
  // The probes tell nothing and change nothing: a kubelet reaches them without a key or a loopback Host (operate.ts).
  const probed = await probe(request.method, url.pathname.replace(/\/+$/, ''), deps.context);
  if (probed) {
    probed.headers['cache-control'] = 'no-store';
    return probed;
  }
  await deps.guard.admit(request, deps.context);
  const answer = await controlRoute(request, url, deps);
  answer.headers['cache-control'] = 'no-store';
  return answer;
}

async function controlRoute(request: Request, url: URL, deps: ControlDeps): Promise<Answer> {
  const { store, clock, accounts } = deps;
  const path = url.pathname.replace(/\/+$/, '');
  const method = request.method;
  const template = path.replace(/\/key_[0-9a-f]+/, '/{key_id}').replace(/\/inc_[0-9a-f]+$/, '/{incident_id}');
  const route = `${method} ${template}`;
  const now = clock.now();
  const known = accounts.known.with();
  const journaled = await journalRoute(route, url, deps.journal, () => readJson(request), known);
  if (journaled) return journaled;
  const incident = await incidentRoute(route, path, deps.incidents, now, () => readJson(request), known);
  if (incident) return incident;
  switch (route) {
    case 'GET /__control':
      // The page to watch the mock (page/), at /__control/ and /__control alike: it calls the API by absolute paths.
      return controlPage();
    case 'GET /__control/openapi.json':
      return json(200, controlDocument);
    case 'GET /__control/metrics':
      return metricsAnswer(deps.context);
    case 'GET /__control/state': {
      // A state store that does not answer is what this call is asked to tell: its keys are null then, not a 503.
      const keys = await accounts.list().catch((error: unknown) => {
        if (error instanceof ProblemError && error.code === 'state_unavailable') return null;
        throw error;
      });
      return json(200, {
        clock: clock.state(),
        as_of: new Date(store.asOf).toISOString(),
        pending_rebuilds: store.pendingCount(),
        changes: store.changeCount(),
        state: accounts.store.describe(),
        keys: keys && keys.map((r) => ({ ...accounts.summary(r, now), usage: accounts.usage(r) })),
      });
    }
    case 'POST /__control/keys': {
      const body = await readJson(request);
      if (!isPlanId(body.plan)) throw bad('/plan', `must be one of ${planIds.join(', ')}`);
      if (body.key !== undefined && (typeof body.key !== 'string' || !/^[\x21-\x7e]{8,200}$/.test(body.key)))
        throw bad('/key', 'must be 8 to 200 printable ASCII characters');
      const rows = body.prepaid_rows ?? 0;
      if (!Number.isSafeInteger(rows) || (rows as number) < 0)
        throw bad('/prepaid_rows', 'must be a non-negative integer');
      // A key made in the past (a trial already past its 7 days) without moving the clock, which
      // every other key and client of this mock shares.
      // Anything but a string is refused below, whatever it parses to.
      const createdAt =
        body.created_at === undefined ? now : typeof body.created_at === 'string' ? Date.parse(body.created_at) : NaN;
      if (
        body.created_at !== undefined &&
        (typeof body.created_at !== 'string' ||
          !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(body.created_at) ||
          Number.isNaN(createdAt) ||
          createdAt > now)
      ) {
        throw bad('/created_at', 'must be a UTC timestamp (YYYY-MM-DDTHH:MM:SSZ) no later than the clock');
      }
      const issued = await accounts.create(body.plan, createdAt, {
        ...(body.key ? { key: body.key } : {}),
        prepaidRows: rows as number,
      });
      return json(201, {
        key: issued.key,
        ...accounts.summary(issued.record, now),
        balance_rows: issued.record.balanceRows,
      });
    }
    case 'POST /__control/keys/{key_id}/revoke': {
      const record = await accounts.revoke(path.split('/')[3]!, now);
      if (!record) throw new ProblemError('not_found', 'No key has that key_id.');
      return json(200, accounts.summary(record, now));
    }
    case 'POST /__control/keys/{key_id}/top-up': {
      const body = await readJson(request);
      if (!Number.isSafeInteger(body.rows) || (body.rows as number) < 1)
        throw bad('/rows', 'must be a positive integer');
      const record = await accounts.byKeyId(path.split('/')[3]!);
      if (!record) throw new ProblemError('not_found', 'No key has that key_id.');
      if (record.plan !== 'payg') throw bad('/rows', 'only pay-as-you-go keys hold prepaid rows');
      const topped = await accounts.topUp(record, body.rows as number);
      if (!topped) throw new ProblemError('not_found', 'No key has that key_id.');
      return json(200, { ...accounts.summary(topped, now), balance_rows: topped.balanceRows });
    }
    case 'PUT /__control/keys/{key_id}/usage': {
      // Lets a test reach "999 calls used" without making 999 calls at the plan's rate.
      const body = await readJson(request);
      if (!Number.isSafeInteger(body.calls_used) || (body.calls_used as number) < 0)
        throw bad('/calls_used', 'must be a non-negative integer');
      const record = await accounts.byKeyId(path.split('/')[3]!);
      if (!record) throw new ProblemError('not_found', 'No key has that key_id.');
      const set = await accounts.setCallsUsed(record, body.calls_used as number);
      if (!set) throw new ProblemError('not_found', 'No key has that key_id.');
      return json(200, { ...accounts.summary(set, now), usage: accounts.usage(set) });
    }
    case 'GET /__control/clock':
      return json(200, clock.state());
    case 'PUT /__control/clock': {
      const body = await readJson(request);
      // Any JSON value as JavaScript writes it: an object's "[object Object]" does not parse, and is refused.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- String() of any JSON value is the check
      const to = body.now === undefined ? null : Date.parse(String(body.now));
      if (to !== null && !Number.isFinite(to)) throw bad('/now', 'must be an ISO 8601 timestamp');
      // A time JavaScript can hold but not move past (+275760-09-13) would break every later call.
      if (to !== null && (to < 0 || to > latestTime)) throw bad('/now', 'must be between 1970-01-01 and 9999-12-31');
      if (body.frozen !== undefined && typeof body.frozen !== 'boolean') throw bad('/frozen', 'must be a boolean');
      await deps.changeClock((current) => {
        try {
          // No time given: the time as stored now (freezing or thawing it), not as this process last looked.
          current.set(to ?? current.now(), (body.frozen as boolean | undefined) ?? current.state().frozen);
        } catch (error) {
          // Only the clock's own refusal (backwards) is the client's; a store failure stays what it is (503, 500).
          if (error instanceof RangeError) throw bad('/now', error.message);
          throw error;
        }
      });
      const applied = store.applyDue(clock.now());
      await accounts.pruneTrials(clock.now());
      return json(200, { ...clock.state(), applied: applied.length });
    }
    case 'POST /__control/clock/advance': {
      const body = await readJson(request);
      const ms =
        typeof body.seconds === 'number'
          ? body.seconds * 1000
          : typeof body.duration === 'string'
            ? parseDuration(body.duration)
            : null;
      if (ms === null || !Number.isFinite(ms) || ms < 0 || ms > 3650 * 86_400_000)
        throw bad(
          '/duration',
          'give seconds (a number) or duration (ISO 8601, e.g. PT1H, P1D, P31D), at most ten years',
        );
      await deps.changeClock((current) => {
        if (current.now() + ms > latestTime) throw bad('/duration', 'would move the clock past 9999-12-31');
        current.advance(ms);
      });
      const applied = store.applyDue(clock.now());
      await accounts.pruneTrials(clock.now());
      return json(200, { ...clock.state(), applied: applied.length });
    }
    case 'POST /__control/rebuild': {
      const applied = store.applyDue(clock.now());
      return json(200, { as_of: new Date(store.asOf).toISOString(), applied, pending_rebuilds: store.pendingCount() });
    }
    default:
      throw new ProblemError('route_not_found', `No control endpoint ${method} ${path}. See the mock's README.`);
  }
}
