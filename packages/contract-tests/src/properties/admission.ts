/**
 * What the service answers before a request reaches an operation: headers too large, a body too
 * large, headers too slow, and an address that spent its budget of calls without a valid key.
 */
import fc from 'fast-check';
import { failedAuth } from '@investor-graph/contract';
import { rawExchange, rawRequest, stalledHeaders, type RawAnswer } from '../client/raw-http.ts';
import { cutBody } from '../shown/cut-body.ts';
import { answerShown, valueShown } from '../shown/failure-text.ts';
import {
  type Property,
  assert,
  burstUntilLimited,
  codeShown,
  expectActions,
  expectStatus,
  keylessElsewhere,
} from './support.ts';
import type { SuiteContext } from '../core/context.ts';

/** The decided bounds (DECISIONS.md#status-codes): headers 16 KiB, a body 64 KiB, headers in within 10 s. */
const HEADERS_BYTES = 16 * 1024;
const BODY_BYTES = 64 * 1024;
const HEADERS_MS = 10_000;

/** What was sent; a problem+json of the status and code, or what came instead. */
function expectProblem(answer: RawAnswer | null, status: number, code: string, what: string): void {
  assert(answer, what, `a ${status} ${code}`, 'no answer at all (the connection was closed or left open)');
  assert(answer.status === status, what, `${status} ${code}`, answerShown(answer, 200));
  assert(
    answer.contentType.includes('application/problem+json'),
    what,
    `a ${status} of type application/problem+json`,
    `type ${valueShown(answer.contentType)}: ${cutBody(answer.text, 200)}`,
  );
  const body = (() => {
    try {
      return JSON.parse(answer.text) as { code?: unknown; status?: unknown };
    } catch {
      return null;
    }
  })();
  assert(
    body?.code === code && body.status === status,
    what,
    `a problem of code ${code} and status ${status}`,
    `${codeShown(body)} and status ${valueShown(body?.status)}`,
  );
}

/**
 * Whether the run sends the hundred and ten calls with keys that are not valid: they lock the run's
 * address out for ten seconds, and with it every client behind the same address (a CI runner's
 * NAT, an office), so by default only to a service on this machine (the kit's mock, a service run
 * beside the tests); --failed-auth-burst sends them anywhere (README "Budget").
 */
export function sendsFailedAuthBurst(ctx: SuiteContext): boolean {
  if (ctx.config.failedAuthBurst !== undefined) return ctx.config.failedAuthBurst;
  const host = new URL(ctx.config.baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The stalled request of a run: started as the run begins (Property.start), judged in admission's turn. */
const stalls = new WeakMap<SuiteContext, Promise<RawAnswer | null>>();
const stall = (ctx: SuiteContext): Promise<RawAnswer | null> => {
  let started = stalls.get(ctx);
  if (!started) stalls.set(ctx, (started = stalledHeaders(ctx.config.baseUrl, HEADERS_MS + 5_000)));
  return started;
};

export const admission: Property = {
  id: 'admission',
  title:
    'before an operation: headers over 16 KiB a 431, a body declared over 64 KiB a 413 ' +
    'unread, headers not in within 10 s a 408, HTTP/1.1 without Host a 400, an Expect it ' +
    'cannot meet a 417, CONNECT a 405, a dot segment a 400, each a problem',
  spec: ['7. Errors'],
  assumed: ['status-codes'],
  keyless: true,
  skip: (ctx) => keylessElsewhere(ctx),
  // Seven requests no operation reaches, sent past the budgeted client and counted all the same.
  cost: () => ({ calls: 7, rows: 0 }),
  arbitrary: () => fc.constant(null),
  once: true,
  // Headers that never end take the server's 10 s to refuse: started as the run begins, so that
  // admission, last, finds the answer there instead of waiting for it.
  start: (ctx) => void stall(ctx),
  async check(ctx) {
    const base = ctx.config.baseUrl;
    const stalled = stall(ctx);
    ctx.ledger.spend(7, 0);
    // What HTTP parsing answers is problem+json too (DECISIONS.md#status-codes), each on its own connection.
    const odd: [string, string, number, string][] = [
      [
        'an HTTP/1.1 request without Host',
        'GET {prefix}/api/v1/firms?limit=1 HTTP/1.1\r\nconnection: close\r\n\r\n',
        400,
        'invalid_request',
      ],
      [
        'an Expect other than 100-continue',
        'GET {prefix}/api/v1/firms?limit=1 HTTP/1.1\r\nhost: {host}\r\nexpect: 200-ok\r\nconnection: close\r\n\r\n',
        417,
        'expectation_failed',
      ],
      ['CONNECT', 'CONNECT {host} HTTP/1.1\r\nhost: {host}\r\n\r\n', 405, 'method_not_allowed'],
      [
        'a %2e%2e dot segment',
        'GET {prefix}/api/v1/%2e%2e/api/v1/firms?limit=1 HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\r\n',
        400,
        'invalid_request',
      ],
    ];
    for (const [what, head, status, code] of odd) expectProblem(await rawExchange(base, head), status, code, what);
    expectProblem(
      await rawRequest(base, '/api/v1/firms?limit=1', { headers: { 'x-padding': 'p'.repeat(HEADERS_BYTES + 1024) } }),
      431,
      'headers_too_large',
      'a request with 17 KiB of headers',
    );
    expectProblem(
      await rawRequest(base, '/api/v1/keys/trial', { method: 'POST', declaredBody: BODY_BYTES + 1 }),
      413,
      'payload_too_large',
      `a body declared ${BODY_BYTES + 1} bytes long`,
    );
    expectProblem(await stalled, 408, 'request_timeout', `headers not ended within ${HEADERS_MS / 1000} s`);
  },
};

export const failedAuthBudget: Property = {
  id: 'failed-auth',
  title:
    'an address past its budget of calls without a valid key is a 429 too_many_failures with ' +
    'Retry-After and actions, until it refills',
  spec: ['7. Errors', '5. Authentication'],
  assumed: ['status-codes', 'failed-authentication'],
  keyless: true,
  skip: (ctx) =>
    keylessElsewhere(ctx) ??
    (sendsFailedAuthBurst(ctx)
      ? null
      : `sends ${failedAuth.burst + Math.ceil(failedAuth.perSecond)} calls with keys that are ` +
        `not valid, which lock this address (and every client behind it) out for ten seconds: ` +
        `only to a service on this machine, or with --failed-auth-burst`),
  // The budget's worth of refused calls and a tenth more (all sent at once), and one call with the
  // run's key once it refilled.
  cost: (ctx) => ({ calls: failedAuth.burst + Math.ceil(failedAuth.perSecond) + 1, rows: ctx.client.rowCost(1) }),
  arbitrary: () => fc.constant(null),
  once: true,
  async check(ctx) {
    // Every call from one address spends the budget while its key is not valid; all at once, so
    // that the budget's refill (failed_auth_per_second) cannot keep up even far from the service.
    const sent = failedAuth.burst + Math.ceil(failedAuth.perSecond);
    const refused = await burstUntilLimited(ctx, sent, () =>
      Promise.all(
        Array.from({ length: sent }, (_, i) =>
          ctx.client.call('/api/v1/firms?limit=1', {
            key: `igk_trial_contract${String(i).padStart(4, '0')}tests${'x'.repeat(18)}`,
            rows: 0,
            honour429: false,
            unpaced: true,
          }),
        ),
      ),
    );
    const limited = refused.find((a) => a.status === 429);
    assert(
      limited,
      `${sent} calls at once with keys that are not valid`,
      `a 429 among them (the budget is ${failedAuth.burst}, refilled at ${failedAuth.perSecond} a second)`,
      `only ${[...new Set(refused.map((a) => a.status))].join(', ')}`,
    );
    assert(
      limited.body?.code === 'too_many_failures',
      'a spent budget of calls without a valid key',
      'code too_many_failures',
      codeShown(limited.body),
    );
    assert(
      /^[1-9]\d*$/.test(limited.headers.get('retry-after') ?? ''),
      'a 429 too_many_failures',
      'Retry-After a whole number of seconds, 1 or more',
      `Retry-After ${valueShown(limited.headers.get('retry-after'))}`,
    );
    expectActions(limited, 'a 429 too_many_failures');
    // Leave the address as the run found it: the whole budget refilled.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.ceil((failedAuth.burst / failedAuth.perSecond) * 1000) + 200),
    );
    expectStatus(
      await ctx.client.call('/api/v1/firms?limit=1', { rows: 1 }),
      200,
      'a call with a valid key once the budget refilled',
    );
  },
};
