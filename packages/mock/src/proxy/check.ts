/**
 * The checks of one exchange, wherever they run: on the proxy's own thread, letting other exchanges
 * in between rules, or in a process of their own (proxy/checker/process.ts) for an answer large enough
 * that a single rule on it would stall everyone else. A job and its result are plain data, so
 * either crosses to that process as it is. The walk's rule is not run here: the walks are the proxy's state,
 * kept on its thread (walks.ts); a check hands back the page it saw for them.
 */
import {
  checkRule,
  operationFor,
  parseBody,
  queryOf,
  rules,
  see,
  type ContractValidator,
  type RuleId,
} from '@investor-graph/contract';
import type { CheckJob, CheckResult, ProxyViolation } from './types.ts';
import { pageOf } from './walks.ts';

export type { Checker, CheckJob, CheckResult } from './types.ts';

/** Checks that have run this long since the last pause let others in before the next rule. */
const SLICE_MS = 10;

/** The text of a body the rules read (JSON or text), '' for any other type; `limit` bytes of it at most. */
export function textOf(bytes: Uint8Array, type: string, limit = bytes.length): string {
  return type.includes('json') || type.startsWith('text/') ? new TextDecoder().decode(bytes.subarray(0, limit)) : '';
}

/**
 * Every rule on the exchange, one at a time, calling `pause` after each slice of work (the proxy's
 * thread lets others in there; the checks' own process needs none); a rule not started within `timeoutMs` of the
 * start is not run, and that is reported as not_validated, never passed.
 */
export async function checkExchange(
  validator: ContractValidator,
  job: CheckJob,
  pause?: () => Promise<void>,
): Promise<CheckResult> {
  const type = job.headers['content-type'] ?? '';
  const parsed = parseBody(textOf(job.body, type), type);
  const url = new URL(job.url, 'http://api.invalid');
  const violations: ProxyViolation[] = [];
  const op = operationFor(job.method, url.pathname);
  if (op) {
    const request = {
      method: job.method,
      path: url.pathname,
      query: queryOf(url.searchParams),
      headers: job.requestHeaders,
      ...(job.requestBody === undefined ? {} : { body: job.requestBody }),
    };
    for (const v of validator.validateRequest(op.operationId, request)) {
      if (v.severity === 'error')
        violations.push({ side: 'request', rule: 'request', message: `${v.path ? `${v.path}: ` : ''}${v.message}` });
    }
  }
  const exchange = {
    method: job.method,
    url: job.url,
    requestHeaders: job.requestHeaders,
    ...(job.requestBody === undefined ? {} : { requestBody: job.requestBody }),
    status: job.status,
    headers: job.headers,
    body: parsed,
  };
  const seen = see(validator, exchange);
  const deadline = performance.now() + job.timeoutMs;
  let slice = performance.now();
  const unchecked: RuleId[] = [];
  // The walk's rule is the proxy's own (its walks are state this check may not hold).
  for (const rule of (Object.keys(rules) as RuleId[]).filter((id) => id !== 'cursor-continuity')) {
    if (pause && performance.now() - slice > SLICE_MS) {
      await pause();
      slice = performance.now();
    }
    if (performance.now() > deadline) unchecked.push(rule);
    else for (const f of checkRule(seen, rule)) violations.push({ side: 'response', rule: f.rule, message: f.message });
  }
  if (unchecked.length)
    violations.push({
      side: 'response',
      rule: 'not_validated',
      message: `the checks took longer than the ${job.timeoutMs} ms timeout: ${unchecked.join(', ')} not checked`,
    });
  // Always handed back, whatever ran out: a page the walks skipped would make them misjudge the next.
  return { violations, page: pageOf(job.status, job.url, parsed, job.maxRows) };
}
