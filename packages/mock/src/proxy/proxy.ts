/**
 * The validation proxy: forwards every request to the live service unchanged and checks the
 * exchange against the contract (prism-http) and the spec's single-response rules, like
 * `prism proxy` with this API's rules. Framework-free (`fetch(Request) -> Response`); the Node
 * adapter and the CLI add the port, the log and the report files.
 */
import { parseBody } from '@investor-graph/contract';
import { bearerOf, redactPath, redact } from '@investor-graph/cli/redact';
import { HeldBytes, hopByHop, passedOnHeaders, passOn, readBounded, type BoundedBody } from './body.ts';
import { countExchange } from './counted.ts';
import { checkExchange, textOf, type CheckJob, type CheckResult } from './check.ts';
import { proxyProblem, proxyProblems, type ProxyProblemCode } from './problems.ts';
import { excerptBytes, excerptOf, gaveUp, judged, withinBudget } from './violations.ts';
import { WalkTracker } from './walks.ts';

import type { ExchangeCounters, ExchangeRecord, ProxyOptions, ProxyViolation, ValidationProxy } from './types.ts';

export { excerptOf, violationsHeader } from './violations.ts';
export type { ExchangeCounters, ExchangeRecord, ProxyOptions, ProxyViolation, ValidationProxy };

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
      const done: ExchangeRecord = {
        at: new Date().toISOString(),
        method: request.method,
        path: redactPath(`${incoming.pathname}${incoming.search}`, known),
        ...(request.headers.has('authorization') ? { keyed: true as const } : {}),
        status,
        ms: Math.round(performance.now() - started),
        violations: violations.map((v) => ({ ...v, message: redact(v.message, known).slice(0, MESSAGE_MAX) })),
        ...more,
      };
      if (options.counters) countExchange(options.counters, incoming.pathname, done);
      options.onExchange?.(done);
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
        const detail =
          `The answer (${response.status}) breaks the contract ` +
          `${times} time${times === 1 ? '' : 's'}; see violations.`;
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
