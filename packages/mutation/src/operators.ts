/**
 * The mutation operators: what each does to an answer. A mutant is a plain record (so the process
 * that serves it can be handed it as JSON); `mutatorFor` turns it into the proxy's rewrite.
 */
import { STATUS_CODES } from 'node:http';
import { plans, type PlanId } from '@investor-graph/contract';
import type { Mutate } from './proxy.ts';
import { alterHeader } from './header-alters.ts';
import { sentenceMutator } from './sentence-edits.ts';
import { cursorEdit, fieldEdit, jsonEdit, planEdit, rowsEdit, statefulEdit, type Edit } from './body-edits.ts';

export const families = [
  'field-shape',
  'field-value',
  'rows',
  'status',
  'header',
  'cursor',
  'plan',
  'stateful',
  'meaning',
  'source',
  'case',
  'sequence',
] as const;
export type Family = (typeof families)[number];

export interface MutantSpec {
  /** Stable over runs: family, operator, operation and target. */
  id: string;
  family: Family;
  operator: string;
  operation: string;
  /** The plan of the key the contract tests run with for this mutant. */
  plan: PlanId;
  /** Which answers of the operation: its successes or its errors (field operators). */
  answers?: 'ok' | 'error';
  /** A field path's parts, a header's name or a status, as the operator reads it. */
  target?: string[] | string | number;
  /** The other plan, or the status to answer instead. */
  value?: string | number;
  /** Why the mutated answer may still be one a correct service could give (a person judges the rest). */
  equivalent?: string;
}

/** The rewrite a mutant makes, with its own memory for one run. */
export function mutatorFor(spec: MutantSpec): Mutate {
  if (['meaning', 'source', 'case', 'sequence'].includes(spec.family)) return sentenceMutator(spec);
  const parts = Array.isArray(spec.target) ? spec.target : [];
  const edit: Edit | null =
    spec.family === 'field-shape' || spec.family === 'field-value'
      ? fieldEdit(parts, spec.operator)
      : spec.family === 'rows'
        ? rowsEdit(parts, spec.operator)
        : spec.family === 'cursor'
          ? cursorEdit(spec.operator)
          : spec.family === 'plan' && spec.operator !== 'rate-policy'
            ? planEdit(spec.operator, spec.value as PlanId)
            : spec.family === 'stateful' && spec.operator !== 'etag-churn'
              ? statefulEdit(spec.operator)
              : null;
  const etags = new Map<string, number>();
  return (answer, exchange) => {
    if (exchange.operation !== spec.operation) return null;
    const ok = answer.status >= 200 && answer.status < 300;
    if (spec.answers && (spec.answers === 'ok') !== ok) return null;
    if (edit) return ok || spec.answers === 'error' ? jsonEdit(answer, exchange, edit) : null;
    if (spec.family === 'status') {
      if (answer.status !== Number(spec.target)) return null;
      const status = Number(spec.value);
      return { ...answer, status, reason: STATUS_CODES[status] ?? '' };
    }
    const name =
      spec.family === 'header' ? String(spec.target) : spec.operator === 'rate-policy' ? 'ratelimit-policy' : 'etag';
    const at = answer.headers.findIndex(([n]) => n.toLowerCase() === name);
    if (at < 0) return null;
    const headers = answer.headers.map(([n, v]) => [n, v] as [string, string]);
    const value = headers[at]![1];
    let next: string | null;
    if (spec.family === 'header') next = spec.operator === 'drop' ? null : alterHeader(name, value, exchange);
    else if (spec.operator === 'rate-policy') next = ratePolicyOf(value, spec.value as PlanId);
    else {
      const n = etags.get(exchange.target) ?? 0;
      etags.set(exchange.target, n + 1);
      next = n === 0 ? value : value.replace(/"$/, `-${n}"`);
    }
    if (next === value) return null;
    if (next === null) headers.splice(at, 1);
    else headers[at] = [headers[at]![0], next];
    return { ...answer, headers };
  };
}

/** RateLimit-Policy with another plan's rate and quota. */
function ratePolicyOf(value: string, other: PlanId): string {
  const rule = plans[other];
  return value
    .replace(/("default";q=)\d+/, `$1${rule.rate_per_second}`)
    .replace(/("quota";q=)\d+/, `$1${rule.calls_limit ?? 0}`);
}
