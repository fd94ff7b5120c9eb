/**
 * What each kind of incident does, in one table that the parser, the request step and the control
 * API's document read: the problem it answers in the service's place (none: the call is served,
 * slower), the parameters it takes with their defaults and bounds, and whether the call it changes
 * is counted and charged. A call answered in the service's place never is: the service failed it,
 * and the client got nothing to pay for (DECISIONS.md#incidents).
 */
import type { ProblemCode } from '../problems.ts';

export type IncidentKind =
  'outage' | 'bad_gateway' | 'gateway_timeout' | 'rate_limited' | 'reset' | 'latency' | 'slow_body';

export type IncidentParameter = 'retry_after' | 'latency_ms' | 'jitter_ms' | 'bytes_per_second';

export interface KindRule {
  /** The problem answered instead of the service's answer; absent for a call that is still served. */
  problem?: ProblemCode;
  /** What its problem's detail says went wrong (the 429's is the plan's own). */
  failure?: string;
  /** The connection is cut with no answer (an adapter without connections fails the fetch instead). */
  cuts?: true;
  /** Parameters it reads, each with its default (null: required). */
  parameters: Partial<Record<IncidentParameter, number | null>>;
  /** Whether the call is served, and so counted and charged as any other. */
  served: boolean;
  /** One line for the control API's document and errors. */
  says: string;
}

export const incidentKinds: Readonly<Record<IncidentKind, KindRule>> = {
  outage: {
    problem: 'service_unavailable',
    failure: 'The service is unavailable',
    parameters: { retry_after: 5 },
    served: false,
    says: '503 service_unavailable with Retry-After',
  },
  bad_gateway: {
    problem: 'bad_gateway',
    failure: 'A server behind the service failed',
    parameters: {},
    served: false,
    says: '502 bad_gateway',
  },
  gateway_timeout: {
    problem: 'gateway_timeout',
    failure: 'A server behind the service did not answer in time',
    parameters: {},
    served: false,
    says: '504 gateway_timeout',
  },
  rate_limited: {
    problem: 'rate_limited',
    parameters: { retry_after: 1 },
    served: false,
    says: "429 rate_limited with Retry-After and the key's rate headers",
  },
  reset: { cuts: true, parameters: {}, served: false, says: 'the connection cut with no answer' },
  latency: {
    parameters: { latency_ms: null, jitter_ms: 0 },
    served: true,
    says: 'served after latency_ms, give or take jitter_ms',
  },
  slow_body: {
    parameters: { bytes_per_second: 1024 },
    served: true,
    says: 'served with its body sent at bytes_per_second',
  },
};

/** Each parameter's bounds (whole numbers); a Retry-After as the contract bounds it (an hour at most). */
export const parameterBounds: Readonly<Record<IncidentParameter, readonly [number, number]>> = {
  retry_after: [1, 3_600],
  latency_ms: [0, 60_000],
  jitter_ms: [0, 60_000],
  bytes_per_second: [1, 1_000_000_000],
};

export const incidentKindNames = Object.keys(incidentKinds) as IncidentKind[];

export const isIncidentKind = (value: unknown): value is IncidentKind =>
  typeof value === 'string' && Object.hasOwn(incidentKinds, value);
