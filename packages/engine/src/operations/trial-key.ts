/**
 * The one call without a key, `POST /api/v1/keys/trial`: rate-limited per client address, its body
 * checked (type, size, UTF-8 JSON, then the contract's schema through prism-http), one live trial
 * per e-mail address. The key is in this answer and nowhere else.
 */
import { plans } from '@investor-graph/contract/plans';
import type { ContractValidator } from '@investor-graph/contract';
import type { Accounts } from '../accounts/accounts.ts';
import { iso, json, type Answer } from '../answer.ts';
import { codedBody, parseJsonBody } from '../http/json-body.ts';
import { ProblemError } from '../problems.ts';

const MAX_TRIAL_BODY = 4096;

export interface TrialDeps {
  accounts: Accounts;
  validator: ContractValidator;
  now: () => number;
}

export async function createTrialKey(
  request: Request,
  requestId: string,
  clientAddress: string,
  deps: TrialDeps,
): Promise<Answer> {
  const { accounts, validator } = deps;
  const headers = await accounts.takeToken(null, clientAddress, plans.trial.rate_per_second);
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw new ProblemError('unsupported_media_type', 'Send the body as application/json: {"email": "<your address>"}.');
  const coded = codedBody(request.headers.get('content-encoding'));
  if (coded) throw coded;
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_TRIAL_BODY)
    throw new ProblemError('payload_too_large', `The body may be at most ${MAX_TRIAL_BODY} bytes.`);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > MAX_TRIAL_BODY)
    throw new ProblemError('payload_too_large', `The body may be at most ${MAX_TRIAL_BODY} bytes.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ProblemError('invalid_body', 'The body is not valid JSON (UTF-8).', {
      extra: { errors: [{ pointer: '', detail: 'not valid UTF-8' }] },
    });
  }
  const body = parseJsonBody(text, 'The body is not valid JSON (UTF-8).');
  const violations = validator
    .validateRequest('createTrialKey', {
      method: 'POST',
      path: '/api/v1/keys/trial',
      headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) },
      body,
    })
    .filter((v) => v.severity === 'error');
  if (violations.length) {
    throw new ProblemError('invalid_body', violations.map((v) => v.message).join('; '), {
      extra: {
        errors: violations.map((v) => ({
          pointer: '/' + v.path.replace(/^body\.?/, '').replace(/\./g, '/'),
          detail: v.message,
        })),
      },
    });
  }
  const issued = await accounts.issueTrial((body as { email: string }).email, deps.now());
  const rule = plans.trial;
  return json(
    201,
    {
      key: issued.key,
      key_id: issued.record.keyId,
      plan: 'trial',
      expires_at: iso(issued.record.expiresAt!),
      calls_limit: rule.calls_limit,
      calls_remaining: rule.calls_limit,
    },
    { ...headers, 'cache-control': 'no-store', 'x-request-id': requestId },
  );
}
