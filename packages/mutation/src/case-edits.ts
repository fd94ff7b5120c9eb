/**
 * The `case` operators: an answer to a case a sentence of DECISIONS.md names, answered as another
 * case of the same status or the same headers (a missing key as an unknown one, a challenge that
 * says the wrong thing of the key, a 304 to a tag that does not match, the limiter's headers on an
 * answer refused before the limiter).
 */
import { plans, type PlanId } from '@investor-graph/contract';
import type { Answer, Exchange } from './proxy.ts';
import { jsonEdit } from './body-edits.ts';

/** The API's codes by status, as DECISIONS.md#status-codes and #failed-authentication list them. */
export const codesByStatus: Record<number, string[]> = {
  400: ['invalid_parameter', 'unknown_parameter', 'invalid_cursor', 'invalid_body', 'invalid_request'],
  401: ['missing_key', 'invalid_key', 'revoked_key'],
  402: ['trial_exhausted', 'trial_expired', 'quota_exhausted', 'insufficient_balance', 'plan_feature_unavailable'],
  404: ['not_found', 'unknown_statistic', 'route_not_found'],
  429: ['rate_limited', 'too_many_failures'],
};

const header = (headers: [string, string][], name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
const withHeader = (answer: Answer, name: string, value: string | null): Answer => {
  const headers = answer.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
  return { ...answer, headers: value === null ? headers : [...headers, [name, value]] };
};
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

export interface CaseMutant {
  operator: string;
  plan: PlanId;
  target?: string[] | string | number;
  value?: string | number;
}

/** The rewrite of one `case` mutant; null where its case is not this answer's. */
export function caseEdit(spec: CaseMutant, answer: Answer, exchange: Exchange): Answer | null {
  const keySent = header(exchange.requestHeaders, 'authorization') !== undefined;
  switch (spec.operator) {
    case 'problem-code': {
      // Status codes: each case has its own code (and its own type URL), the status kept.
      const [from, to] = [String(spec.target), String(spec.value)];
      return jsonEdit(answer, exchange, (body) => {
        if (body.code !== from) return false;
        body.code = to;
        if (typeof body.type === 'string')
          body.type = body.type.replace(from.replace(/_/g, '-'), to.replace(/_/g, '-'));
        return true;
      });
    }
    case 'challenge-flip': {
      // HTTP conventions: `error="invalid_token"` exactly when a key was sent and refused.
      const challenge = header(answer.headers, 'www-authenticate');
      if (answer.status !== 401 || !challenge) return null;
      const flipped = keySent
        ? challenge.replace(/,?\s*error="invalid_token"/, '')
        : `${challenge}, error="invalid_token"`;
      return flipped === challenge ? null : withHeader(answer, 'WWW-Authenticate', flipped);
    }
    case 'not-modified-miss': {
      // Conditional requests: 304 only when a tag sent matches the data's; here one that does not.
      const asked = header(exchange.requestHeaders, 'if-none-match');
      const tag = header(answer.headers, 'etag');
      if (exchange.method !== 'GET' || answer.status !== 200 || !asked || !tag) return null;
      if (asked.trim() === '*' || asked.split(',').some((t) => opaque(t) === opaque(tag))) return null;
      const headers = answer.headers.filter(([n]) => !/^content-(type|encoding)$/i.test(n));
      return { ...answer, status: 304, reason: 'Not Modified', headers, body: Buffer.alloc(0) };
    }
    case 'limiter-on-refused': {
      // Rate limit headers: none on an answer refused before the limiter (bad input, no valid key).
      if (![400, 401, 414].includes(answer.status) || header(answer.headers, 'ratelimit')) return null;
      const rate = plans[spec.plan].rate_per_second;
      const policy = withHeader(answer, 'RateLimit-Policy', `"default";q=${rate};w=1`);
      return withHeader(policy, 'RateLimit', `"default";r=${Math.max(0, rate - 1)};t=1`);
    }
    default:
      throw new Error(`[mutation] no case operator ${spec.operator}`);
  }
}
