/**
 * The validation proxy's own answers, not the API's: a broken answer under --errors, a lost or
 * broken upstream. A table of their own beside the engine's, answered in the same problem+json.
 */
import { problemBody, problemResponse, type ProblemType } from '@investor-graph/engine/adapter';

export const proxyProblems = {
  contract_violation: { status: 502, title: 'The service broke the contract' },
  upstream_unreachable: { status: 502, title: 'Upstream unreachable' },
  upstream_timeout: { status: 504, title: 'Upstream timed out' },
  upstream_incomplete: { status: 502, title: 'Upstream answer broke off' },
  upstream_invalid: { status: 502, title: 'Upstream answer is not HTTP' },
} as const satisfies Record<string, ProblemType>;

export type ProxyProblemCode = keyof typeof proxyProblems;

export function proxyProblem(
  code: ProxyProblemCode,
  detail: string,
  instance: string,
  requestId: string,
  extra: Record<string, unknown> = {},
): Response {
  return problemResponse(problemBody(code, proxyProblems[code], detail, instance, requestId, extra), {
    'x-request-id': requestId,
  });
}
