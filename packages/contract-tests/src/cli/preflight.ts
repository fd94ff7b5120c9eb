/**
 * Before any property runs, one call says whether the run can mean anything: the service answers,
 * over TLS that verifies, accepts the key, and the key is of the plan the run was told. Each of
 * these is the user's set-up to fix, not a rule the API broke, so each is one line and an exit
 * code of its own (3) instead of a page of skipped tests and the exit code of a broken rule.
 */
import type { SetupStep } from '@investor-graph/cli';
import { plans } from '@investor-graph/contract/plans';

/** What keeps the run from starting: the step of the set-up, and the one line that says what to fix. */
export interface SetupProblem {
  step: SetupStep;
  reason: string;
}

export interface PreflightInput {
  baseUrl: string;
  /** Absent when the run gets a trial key by e-mail: then only the connection is checked. */
  key?: string;
  plan: string;
  /** The run is to drive the mock's control API: it must answer. */
  useControl?: boolean;
  /** How long to wait for the answer. */
  timeoutMs?: number;
}

const tlsCodes = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_|ERR_SSL_|HOSTNAME_MISMATCH)/;

/** Why the call did not get an answer, as the user can act on it. */
function unreachable(error: unknown, baseUrl: string, timeoutMs: number): string {
  const origin = new URL(baseUrl).origin;
  if ((error as Error).name === 'TimeoutError')
    return `${origin} gave no answer within ${timeoutMs / 1000} s: is the service up, and --base-url right?`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  if (tlsCodes.test(code))
    return (
      `TLS with ${origin} failed (${code}): a self-signed or private certificate authority ` +
      `needs NODE_EXTRA_CA_CERTS=/path/to/ca.pem`
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `cannot resolve the host of ${origin} (${code}): check --base-url`;
  return (
    `cannot connect to ${origin} (${code || cause?.message || (error as Error).message}): is ` +
    `the service up, and --base-url right?`
  );
}

/**
 * One call to the free account operation (or, without a key, to the contract document): null when
 * the run can go on, else the step that failed and the one line that says what to fix.
 */
export async function preflight({
  baseUrl,
  key,
  plan,
  useControl,
  timeoutMs = 15_000,
}: PreflightInput): Promise<SetupProblem | null> {
  const path = key ? '/api/v1/account' : '/api/v1/openapi.json';
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { step: 'service', reason: unreachable(error, baseUrl, timeoutMs) };
  }
  const body = (await response.json().catch(() => null)) as {
    code?: string;
    data?: { plan?: { id?: string }; usage?: { balance_rows?: number | null } };
  } | null;
  if (useControl) {
    const control = await fetch(`${baseUrl}/__control/state`, { signal: AbortSignal.timeout(timeoutMs) }).then(
      (r) => r.status,
      () => 0,
    );
    if (control !== 200)
      return {
        step: 'service',
        reason:
          `--use-control: ${new URL(baseUrl).origin} has no control API for this client ` +
          `(${control || 'no answer'}); only the kit's mock has one, and it answers loopback clients`,
      };
  }
  if (!key) return null;
  const keyProblem = (reason: string): SetupProblem => ({ step: 'key', reason });
  if (response.status === 401)
    return keyProblem(
      `the service refused the key (401${body?.code ? ` ${body.code}` : ''}): check INVESTOR_GRAPH_KEY`,
    );
  // Anything else odd here is for the properties to judge and report, not a set-up problem.
  const actual = body?.data?.plan?.id;
  if (response.status === 200 && typeof actual === 'string' && actual !== plan)
    return keyProblem(`the key is a ${actual} key, but --plan says ${plan}: give --plan ${actual}`);
  // A pay-as-you-go key without the rows one call costs gets 402 insufficient_balance on every data
  // call: the run would report every property broken for want of samples, when the fix is the key's.
  const balance = body?.data?.usage?.balance_rows;
  const least = plans.payg.min_rows_per_call ?? 1;
  if (response.status === 200 && actual === 'payg' && typeof balance === 'number' && balance < least)
    return keyProblem(
      `the pay-as-you-go key has ${balance} prepaid rows left, fewer than the ${least} a call costs: every ` +
        'data call would be 402 insufficient_balance; buy rows (buy_prepaid_rows) or give a funded key',
    );
  return null;
}
