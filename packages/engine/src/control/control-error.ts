/**
 * What the control client throws when the mock refuses a call: the problem the mock answered
 * (status, code, detail, the wrong members), said as one line a test runner shows. Everything in it
 * went through `redact` with the secrets the client holds (its admin token, the keys it made or
 * sent), so a thrown error never carries one, whatever the mock echoed.
 */
import { redact, redactJson } from '@investor-graph/cli/redact';
import type { components } from './generated/api.ts';

/** One wrong member of a refused call: a JSON pointer into the body, or a query parameter. */
export type ControlInputError = components['schemas']['InputError'];

/** A refused control call: the mock's problem+json, as a value a test can assert on. */
export class ControlError extends Error {
  /** The answer's HTTP status. */
  readonly status: number;
  /** The problem's stable code (`invalid_body`, `not_found`, `control_forbidden`...); null if the answer was none. */
  readonly code: string | null;
  readonly detail: string;
  /** Every wrong member the mock named (400s). */
  readonly errors: readonly ControlInputError[];
  readonly requestId: string | null;

  /** `path`: the control path called (`/__control/keys`), never with a key in it (the client checks ids). */
  constructor(method: string, path: string, status: number, answer: unknown, secrets: readonly string[]) {
    const problem: Record<string, unknown> = isRecord(answer) ? redactJson(answer, secrets) : {};
    const code = typeof problem.code === 'string' ? problem.code : null;
    const detail =
      typeof problem.detail === 'string' ? problem.detail : `the answer was no problem+json (HTTP ${status})`;
    super(redact(`[investor-graph mock] ${method} ${path}: ${status} ${detail}${code ? ` (${code})` : ''}`, secrets));
    this.name = 'ControlError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = Array.isArray(problem.errors) ? (problem.errors as ControlInputError[]) : [];
    this.requestId = typeof problem.request_id === 'string' ? problem.request_id : null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
