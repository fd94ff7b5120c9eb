/**
 * The validation proxy: forwards every request to the live service unchanged and checks the
 * exchange against the contract (prism-http) and the spec's single-response rules, like
 * `prism proxy` with this API's rules. Framework-free (`fetch(Request) -> Response`); the Node
 * adapter and the CLI add the port, the log and the report files.
 */
import { checkRule, operationFor, PageTracker, parseBody, queryOf, rules, see, type ContractValidator, type RuleId } from '@investor-graph/contract';
import { concatBytes } from '../engine/hash.ts';
import { proxyProblem, proxyProblems, type ProxyProblemCode } from './problems.ts';
import { bearerOf, redactPath, redact } from '../redact.ts';
import { excerptOf, violationsHeader, withinBudget } from './violations.ts';

export { excerptOf, violationsHeader } from './violations.ts';

export interface ProxyViolation {
  /** `request`: the client sent what the contract rejects; `response`: the service broke a rule. */
  side: 'request' | 'response';
  /** `not_validated`: an answer the proxy passed on without checking it (too large, out of time). */
  rule: RuleId | 'request' | 'upstream' | 'not_validated';
  message: string;
}

export interface ExchangeRecord {
  at: string;
  method: string;
  /** Path and query, cursors shortened. Never a header: keys stay out of every record. */
  path: string;
  /** The request carried an Authorization header (never its value): a replay sends the key only then. */
  keyed?: true;
  status: number;
  ms: number;
  violations: ProxyViolation[];
  /** The first bytes of the response body, keys blanked; only for exchanges with violations. */
  excerpt?: string;
  /** Set when the answer was passed on without being checked (a body over the bound), and allowed to be. */
  notValidated?: string;
  /** Violations past the exchange's budget, by rule: counted, not kept. */
  more?: Record<string, number>;
}

export interface ProxyOptions {
  /** The live service, e.g. https://api.example.com (a path prefix is kept). */
  upstream: string;
  validator: ContractValidator;
  /** Answer a response that breaks a rule with a 502 problem instead of passing it on. */
  errors?: boolean;
  /** Per request, answer body included; a slow upstream becomes a 504 problem. */
  timeoutMs?: number;
  /** Bodies up to this many bytes are held and checked; a larger one streams on unchecked (32 MiB). */
  maxValidatedBytes?: number;
  /**
   * An answer streamed on unchecked is a violation of its own (`not_validated`), counted in the
   * report and the exit code; with this, it is only noted (`notValidated` in the record).
   */
  allowUnvalidated?: boolean;
  /** Violations kept per exchange; the rest are counted by rule ("N more"). 100. */
  maxViolations?: number;
  fetch?: typeof globalThis.fetch;
  /** Called once per exchange, after it is checked. */
  onExchange?(record: ExchangeRecord): void;
}

export interface ValidationProxy {
  fetch(request: Request): Promise<Response>;
}

// Hop-by-hop headers (RFC 9110 7.6.1) and what fetch sets itself are not forwarded.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length', 'proxy-authorization', 'proxy-authenticate']);

/** The body in hand, or, past `limit`, what was read so far and the rest still to come. */
async function readBounded(response: Response, limit: number): Promise<{ bytes: Uint8Array } | { head: Uint8Array[]; rest: ReadableStreamDefaultReader<Uint8Array> }> {
  if (!response.body) return { bytes: new Uint8Array(0) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > limit) return { head: chunks, rest: reader };
  }
  return { bytes: concatBytes(chunks) };
}

/** A body made of what was read and what is still to come, passed on as it arrives. */
function passOn(head: Uint8Array[], rest: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await rest.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => rest.cancel(reason),
  });
}

/** The service's headers as passed on: fetch has decoded the body, so its encoding and length no longer describe it. */
function passedOnHeaders(headers: Headers, violations: readonly ProxyViolation[], head = false, more = 0): Headers {
  const out = new Headers(headers);
  // A HEAD's Content-Length is the GET's, which no decoding changed: it stays when nothing was encoded.
  const keepLength = head && !headers.has('content-encoding');
  for (const name of ['content-encoding', 'transfer-encoding', 'connection', ...(keepLength ? [] : ['content-length'])]) out.delete(name);
  if (violations.length) out.set('sl-violations', violationsHeader(violations, more));
  return out;
}

let served = 0;
const requestId = (): string => `req_proxy_${(++served).toString(36)}`;
/** Lets other exchanges (and a SIGTERM) in between two rules of a long check. */
const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Checks that have run this long since the last yield let others in before the next rule. */
const SLICE_MS = 10;

export function createValidationProxy(options: ProxyOptions): ValidationProxy {
  const upstream = new URL(options.upstream);
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const send = options.fetch ?? globalThis.fetch;
  const pages = new PageTracker();

  return {
    async fetch(request: Request): Promise<Response> {
      const started = performance.now();
      const incoming = new URL(request.url);
      const target = new URL(`${prefix}${incoming.pathname}${incoming.search}`, upstream);
      const headers = new Headers();
      request.headers.forEach((value, name) => {
        if (!hopByHop.has(name)) headers.set(name, value);
      });
      // A HEAD's length is passed on only when nothing encoded it: asked for as is, the service's
      // HEAD says the GET's length, and this proxy's server chooses the encoding as for the GET.
      if (request.method === 'HEAD') headers.set('accept-encoding', 'identity');
      const body = request.method === 'GET' || request.method === 'HEAD' ? null : new Uint8Array(await request.arrayBuffer());
      // The request's own key, of whatever form, is blanked wherever else it was sent (path, query).
      const ownKey = bearerOf(request.headers.get('authorization'));
      const known = ownKey ? [ownKey] : [];
      // Violation messages quote what they saw (a path, a value): keys in them are blanked too.
      const record = (status: number, violations: ProxyViolation[], more: Pick<ExchangeRecord, 'excerpt' | 'notValidated' | 'more'> = {}): void =>
        options.onExchange?.({
          at: new Date().toISOString(),
          method: request.method,
          path: redactPath(`${incoming.pathname}${incoming.search}`, known),
          ...(request.headers.has('authorization') ? { keyed: true as const } : {}),
          status,
          ms: Math.round(performance.now() - started),
          violations: violations.map((v) => ({ ...v, message: redact(v.message, known) })),
          ...more,
        });
      const instance = redactPath(incoming.pathname, known);
      const timeoutMs = options.timeoutMs ?? 30_000;
      const bound = options.maxValidatedBytes ?? 32 * 1024 * 1024;
      /** The service failed before its answer was whole: a recorded violation and the client's problem. */
      const upstreamFailed = (code: Exclude<ProxyProblemCode, 'contract_violation'>, message: string): Response => {
        record(proxyProblems[code].status, [{ side: 'response', rule: 'upstream', message }]);
        return proxyProblem(code, message, instance, requestId());
      };
      const timedOut = (error: unknown): boolean => (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';

      let response: Response;
      try {
        response = await send(target, { method: request.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        if (timedOut(error)) return upstreamFailed('upstream_timeout', `the service did not answer within ${timeoutMs} ms`);
        return upstreamFailed('upstream_unreachable', `the service could not be reached: ${(error as Error).message}`);
      }

      // A status no HTTP client can pass on (999, 99): the service's failure, never this proxy's 500.
      if (response.status < 200 || response.status > 599) {
        await response.body?.cancel().catch(() => undefined);
        return upstreamFailed('upstream_invalid', `the service answered with status ${response.status}, which is not an HTTP status`);
      }

      // The body can fail where the head did not: cut short, a broken gzip, a reset, a stall past the
      // timeout. Each is the service's failure, reported as one, never passed on as if it held.
      let read: Awaited<ReturnType<typeof readBounded>>;
      try {
        read = await readBounded(response, bound);
      } catch (error) {
        if (timedOut(error)) return upstreamFailed('upstream_timeout', `the service's answer did not arrive whole within ${timeoutMs} ms`);
        const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
        return upstreamFailed('upstream_incomplete', `the service's answer (${response.status}) broke off: ${cause}`);
      }
      if ('head' in read) {
        // Passed on as it comes (the client gets it whole), but a check that did not happen is never
        // a pass: a violation of its own unless the user allowed it.
        const why = `the body is over ${bound} bytes: passed on unchecked`;
        const unchecked: ProxyViolation[] = options.allowUnvalidated ? [] : [{ side: 'response', rule: 'not_validated', message: why }];
        record(response.status, unchecked, options.allowUnvalidated ? { notValidated: why } : {});
        return new Response(passOn(read.head, read.rest), { status: response.status, statusText: response.statusText, headers: passedOnHeaders(response.headers, unchecked) });
      }
      const bytes = read.bytes;
      const type = response.headers.get('content-type') ?? '';
      const text = type.includes('json') || type.startsWith('text/') ? new TextDecoder().decode(bytes) : '';
      const parsed = parseBody(text, type);
      const requestHeaders = Object.fromEntries(headers);
      const requestBody = body && body.length ? parseBody(new TextDecoder().decode(body)) : undefined;
      const exchange = {
        method: request.method,
        url: `${incoming.pathname}${incoming.search}`,
        requestHeaders,
        ...(requestBody === undefined ? {} : { requestBody }),
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: parsed,
      };
      const violations: ProxyViolation[] = [];
      const op = operationFor(request.method, incoming.pathname);
      if (op) {
        for (const v of options.validator.validateRequest(op.operationId, { method: request.method, path: incoming.pathname, query: queryOf(incoming.searchParams), headers: requestHeaders, ...(requestBody === undefined ? {} : { body: requestBody }) })) {
          if (v.severity === 'error') violations.push({ side: 'request', rule: 'request', message: `${v.path ? `${v.path}: ` : ''}${v.message}` });
        }
      }
      // One rule at a time, letting other exchanges in between after each slice of work; a rule not
      // started within --timeout of the checks' start is not checked, and that is said, not passed.
      // The walk's rule always runs: skipping a page would make the tracker misjudge the next.
      const seen = see(options.validator, exchange, pages);
      const deadline = performance.now() + timeoutMs;
      let slice = performance.now();
      const unchecked: RuleId[] = [];
      for (const rule of Object.keys(rules) as RuleId[]) {
        if (performance.now() - slice > SLICE_MS) {
          await yieldToOthers();
          slice = performance.now();
        }
        if (performance.now() > deadline && rule !== 'cursor-continuity') unchecked.push(rule);
        else for (const f of checkRule(seen, rule)) violations.push({ side: 'response', rule: f.rule, message: f.message });
      }
      if (unchecked.length) violations.push({ side: 'response', rule: 'not_validated', message: `the checks took longer than the ${timeoutMs} ms timeout: ${unchecked.join(', ')} not checked` });

      const { kept, more } = withinBudget(violations, options.maxViolations ?? 100);
      const left = Object.values(more ?? {}).reduce((sum, n) => sum + n, 0);
      const brokenLeft = Object.entries(more ?? {}).filter(([rule]) => rule !== 'request').reduce((sum, [, n]) => sum + n, 0);
      const broken = kept.filter((v) => v.side === 'response');
      record(response.status, kept, { ...(kept.length ? { excerpt: excerptOf(text, known) } : {}), ...(more ? { more } : {}) });
      if (broken.length && options.errors) {
        const times = broken.length + brokenLeft;
        const detail = `The answer (${response.status}) breaks the contract ${times} time${times === 1 ? '' : 's'}; see violations.`;
        return proxyProblem('contract_violation', detail, instance, requestId(), { violations: broken.map((v) => ({ rule: v.rule, message: redact(v.message, known).slice(0, 500) })) });
      }
      // The header quotes what the checks saw, as the record does: keys in it are blanked too.
      const out = passedOnHeaders(response.headers, kept.map((v) => ({ ...v, message: redact(v.message, known) })), request.method === 'HEAD', left);
      return new Response(response.status === 204 || response.status === 304 || request.method === 'HEAD' ? null : (bytes as BodyInit), { status: response.status, statusText: response.statusText, headers: out });
    },
  };
}
