/** Problem bodies as they go out: RFC 9457 problem details, as a problem+json answer or Response. */
import { site } from './actions.ts';
import { toResponse, type Answer } from './answer.ts';
import type { PlanId } from '@investor-graph/contract/plans';
import type { ActionType } from './actions.ts';

/** An entry of a problem table (problems.ts has the API's): its status, title and actions. */
export interface ProblemType {
  status: number;
  title: string;
  /** Which actions come with it, given the caller's plan (if known). */
  actions?: (plan: PlanId | null) => ActionType[];
}

/**
 * RFC 9457 problem details of an entry of a problem table: the
 * API's above, or the validation proxy's own (proxy/problems.ts).
 */
export function problemBody(
  code: string,
  type: ProblemType,
  detail: string,
  instance: string,
  requestId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: `${site}/problems/${code.replace(/_/g, '-')}`,
    title: type.title,
    status: type.status,
    detail,
    instance: uriReference(instance),
    code,
    request_id: requestId,
    ...extra,
  };
}

export function problemAnswer(body: Record<string, unknown>, headers: Record<string, string> = {}): Answer {
  return problemText(body.status as number, JSON.stringify(body), headers);
}

/** A problem+json answer whose body is already written; not to be kept by any cache (an error is of its moment). */
export function problemText(status: number, text: string, headers: Record<string, string>): Answer {
  return {
    status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...headers },
    body: text,
  };
}

export function problemResponse(body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return toResponse(problemAnswer(body, headers));
}

/**
 * `instance` must be a URI reference (RFC 3986), but a request path may hold what WHATWG URL
 * parsing leaves raw ([, ], |, ^...) or a broken %-escape: those are percent-encoded, at most 512
 * characters of the path are kept. Found by the contract tests' bad-input property.
 */
export function uriReference(path: string): string {
  return path
    .slice(0, 512)
    .replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
    .replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => {
      try {
        return encodeURIComponent(c);
      } catch {
        return '%EF%BF%BD'; // a lone surrogate: U+FFFD
      }
    });
}
