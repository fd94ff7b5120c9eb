/**
 * The validation proxy: forwards every request to the live service unchanged and checks the
 * exchange against the contract (prism-http) and the spec's single-response rules, like
 * `prism proxy` with this API's rules. Framework-free (`fetch(Request) -> Response`); the Node
 * adapter and the CLI add the port, the log and the report files.
 */
import { parseBody, type ContractValidator, type RuleId } from '@investor-graph/contract';
import { bearerOf, redactPath, redact } from '../redact.ts';
import { HeldBytes, hopByHop, passedOnHeaders, passOn, readBounded, type BoundedBody } from './body.ts';
import { checkExchange, textOf, type Checker, type CheckJob, type CheckResult } from './check.ts';
import { proxyProblem, proxyProblems, type ProxyProblemCode } from './problems.ts';
import { excerptBytes, excerptOf, gaveUp, judged, withinBudget } from './violations.ts';
import { WalkTracker, type WalkLimits } from './walks.ts';

export { excerptOf, violationsHeader } from './violations.ts';

export interface ProxyViolation {
  /** `request`: the client sent what the contract rejects; `response`: the service broke a rule. */
  side: 'request' | 'response';
  /**
   * `not_validated`: a check the proxy gave up, with why: an answer too large to hold or with no
   * room left to hold it, a check out of time or failed, a walk it could not follow, a stop mid-exchange.
   */
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
  /** The service's status; 0 when the proxy stopped before the service answered. */
  status: number;
  ms: number;
  violations: ProxyViolation[];
  /** The first bytes of the response body, keys blanked; only for exchanges with violations. */
  excerpt?: string;
  /** Why checks were given up, when `allowUnvalidated` makes that a note rather than a violation. */
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
   * Bytes held for checking across all exchanges at once; an
   * answer past it streams on unchecked (twice maxValidatedBytes).
   */
  maxHeldBytes?: number;
  /**
   * Checks answers over `offloadBytes` (a process of their own:
   * proxy/checker/process.ts); without it they are checked here, a rule at a time.
   */
  checker?: Checker;
  /** 256 KiB: a rule on a smaller answer takes a few ms at most. */
  offloadBytes?: number;
  /** Bounds of the walks followed for the walk's rule (walks.ts). */
  walks?: Partial<WalkLimits>;
  /**
   * A check given up (`not_validated`: an answer streamed on unchecked, a walk forgotten, ...) is a
   * violation of its own, counted in the report and the exit code; with this, it is only noted
   * (`notValidated` in the record).
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
  /**
   * Records every exchange still in flight as given up, saying `why`
   * (the proxy is stopping), so a report written next holds them.
   */
  abandon(why: string): void;
  /** The walks followed, within their bounds. */
  readonly walks: WalkTracker;
}

let served = 0;
const requestId = (): string => `req_proxy_${(++served).toString(36)}`;
/** Lets other exchanges (and a SIGTERM) in between two rules of a long check. */
const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/**
 * A violation's message is kept to this many characters (after keys are blanked), as the header and --errors show it.
 */
const MESSAGE_MAX = 500;

export function createValidationProxy(options: ProxyOptions): ValidationProxy {
  const upstream = new URL(options.upstream);
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const send = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const bound = options.maxValidatedBytes ?? 32 * 1024 * 1024;
  const held = new HeldBytes(options.maxHeldBytes ?? 2 * bound);
  const walks = new WalkTracker(options.walks);
  /** Each exchange not yet recorded, by the function that records it as given up. */
  const inFlight = new Set<(why: string) => void>();

  async function exchange(request: Request): Promise<Response> {
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
    // The request's own key, of whatever form, is blanked wherever else it was sent (path, query).
    const ownKey = bearerOf(request.headers.get('authorization'));
    const known = ownKey ? [ownKey] : [];
    let status = 0;
    let recorded = false;
    // Once per exchange, whatever ends it. Violation messages quote
    // what they saw (a path, a value): keys in them are blanked too.
    const record = (
      violations: ProxyViolation[],
      more: Pick<ExchangeRecord, 'excerpt' | 'notValidated' | 'more'> = {},
    ): void => {
      if (recorded) return;
      recorded = true;
      inFlight.delete(abandon);
      options.onExchange?.({
        at: new Date().toISOString(),
        method: request.method,
        path: redactPath(`${incoming.pathname}${incoming.search}`, known),
        ...(request.headers.has('authorization') ? { keyed: true as const } : {}),
        status,
        ms: Math.round(performance.now() - started),
        violations: violations.map((v) => ({ ...v, message: redact(v.message, known).slice(0, MESSAGE_MAX) })),
        ...more,
      });
    };
    const abandon = (why: string): void => {
      const { violations, note } = judged([gaveUp(why)], options.allowUnvalidated);
      record(violations, note);
    };
    inFlight.add(abandon);
    try {
      return await forward();
    } catch (error) {
      // The proxy's own failure (the server answers it 500): the exchange is still on the record.
      abandon(`the proxy failed on this exchange: ${(error as Error).message}`);
      throw error;
    }

    async function forward(): Promise<Response> {
      const body =
        request.method === 'GET' || request.method === 'HEAD' ? null : new Uint8Array(await request.arrayBuffer());
      const instance = redactPath(incoming.pathname, known);
      /** The service failed before its answer was whole: a recorded violation and the client's problem. */
      const upstreamFailed = (code: Exclude<ProxyProblemCode, 'contract_violation'>, message: string): Response => {
        status = proxyProblems[code].status;
        record([{ side: 'response', rule: 'upstream', message }]);
        return proxyProblem(code, message, instance, requestId());
      };
      const timedOut = (error: unknown): boolean =>
        (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      const causeOf = (error: unknown): string =>
        (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;

      let response: Response;
      try {
        response = await send(target, {
          method: request.method,
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (timedOut(error))
          return upstreamFailed('upstream_timeout', `the service did not answer within ${timeoutMs} ms`);
        return upstreamFailed('upstream_unreachable', `the service could not be reached: ${(error as Error).message}`);
      }

      // A status no HTTP client can pass on (999, 99): the service's failure, never this proxy's 500.
      if (response.status < 200 || response.status > 599) {
        await response.body?.cancel().catch(() => undefined);
        return upstreamFailed(
          'upstream_invalid',
          `the service answered with status ${response.status}, which is not an HTTP status`,
        );
      }
      status = response.status;

      // The body can fail where the head did not: cut short, a broken gzip, a reset, a stall past the
      // timeout. Each is the service's failure, reported as one, never passed on as if it held.
      let read: BoundedBody;
      try {
        read = await readBounded(response, bound, held);
      } catch (error) {
        if (timedOut(error))
          return upstreamFailed('upstream_timeout', `the service's answer did not arrive whole within ${timeoutMs} ms`);
        return upstreamFailed(
          'upstream_incomplete',
          `the service's answer (${response.status}) broke off: ${causeOf(error)}`,
        );
      }
      const init = { status: response.status, statusText: response.statusText };
      if ('head' in read) {
        // Passed on as it comes (the client gets it whole), but a check that did not happen is never
        // a pass; recorded once it is through, with a break in it if the service broke off.
        const { violations, note } = judged([gaveUp(`${read.why}: passed on unchecked`)], options.allowUnvalidated);
        const ended = (error?: unknown): void =>
          record(
            error
              ? [
                  ...violations,
                  {
                    side: 'response',
                    rule: 'upstream',
                    message: `the service's answer (${status}) broke off while passed on: ${causeOf(error)}`,
                  },
                ]
              : violations,
            note,
          );
        return new Response(passOn(read.head, read.rest, ended), {
          ...init,
          headers: passedOnHeaders(response.headers, violations),
        });
      }
      const bytes = read.bytes;
      let result: CheckResult;
      try {
        const requestBody = body && body.length ? parseBody(new TextDecoder().decode(body)) : undefined;
        const job: CheckJob = {
          method: request.method,
          url: `${incoming.pathname}${incoming.search}`,
          requestHeaders: Object.fromEntries(headers),
          ...(requestBody === undefined ? {} : { requestBody }),
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: bytes,
          timeoutMs,
          maxRows: walks.limits.rowsPerWalk,
        };
        const large = options.checker && bytes.length > (options.offloadBytes ?? 256 * 1024);
        result = large ? await options.checker!(job) : await checkExchange(options.validator, job, yieldToOthers);
      } catch (error) {
        // A check that failed (its process out of memory, a bug) is a check given up; the answer goes on as it came.
        result = {
          violations: [gaveUp(`the checks failed, so this answer was not checked: ${(error as Error).message}`)],
          page: null,
        };
      } finally {
        read.release();
      }
      const found = [...result.violations];
      if (result.page) {
        const { repeats, untracked } = walks.observe(result.page);
        found.push(
          ...repeats.map((message): ProxyViolation => ({ side: 'response', rule: 'cursor-continuity', message })),
          ...untracked.map(gaveUp),
        );
      }
      const { violations, note } = judged(found, options.allowUnvalidated);
      const { kept, more } = withinBudget(violations, options.maxViolations ?? 100);
      const left = Object.values(more ?? {}).reduce((sum, n) => sum + n, 0);
      const brokenLeft = Object.entries(more ?? {})
        .filter(([rule]) => rule !== 'request')
        .reduce((sum, [, n]) => sum + n, 0);
      const broken = kept.filter((v) => v.side === 'response');
      const excerpt = kept.length
        ? { excerpt: excerptOf(textOf(bytes, response.headers.get('content-type') ?? '', excerptBytes), known) }
        : {};
      record(kept, { ...excerpt, ...(more ? { more } : {}), ...note });
      if (broken.length && options.errors) {
        const times = broken.length + brokenLeft;
        const detail = `The answer (${response.status}) breaks the contract ${times} time${times === 1 ? '' : 's'}; see violations.`;
        return proxyProblem('contract_violation', detail, instance, requestId(), {
          violations: broken.map((v) => ({ rule: v.rule, message: redact(v.message, known).slice(0, MESSAGE_MAX) })),
        });
      }
      // The header quotes what the checks saw, as the record does: keys in it are blanked too.
      const out = passedOnHeaders(
        response.headers,
        kept.map((v) => ({ ...v, message: redact(v.message, known) })),
        request.method === 'HEAD',
        left,
      );
      return new Response(
        response.status === 204 || response.status === 304 || request.method === 'HEAD' ? null : (bytes as BodyInit),
        { ...init, headers: out },
      );
    }
  }

  return {
    fetch: exchange,
    abandon(why) {
      for (const give of [...inFlight]) give(why);
    },
    walks,
  };
}
