/** How a property's failure is said: a rule's finding, or what the check threw. */
import { expectedGot } from '../shown/failure-text.ts';
import { allRules, type AnyRuleId } from '../judges/judges.ts';
import { PropertyFailure, type Property } from './property.ts';

/**
 * A rule's finding in a property's failure: the rule and the call, then what the rule expects and
 * what the call got.
 */
export function findingText(f: { rule: AnyRuleId; call: string; message: string }): string {
  return `[${f.rule}] ${expectedGot(f.call, allRules[f.rule].title, f.message)}`;
}

/**
 * What a property's failure says: its own (failure-text.ts), the rules' findings, or what the
 * check threw. A call that got no answer (refused, reset, timed out) says so with its cause; anything
 * else is named as thrown, since it may be a body of another shape or a bug in the check itself.
 */
export function failureMessage(property: Pick<Property, 'title'>, error: Error | null): string {
  if (!error) return expectedGot('', property.title, 'a failure fast-check gave no error for');
  if (error instanceof PropertyFailure) return error.message;
  const firstLine = (text: string): string => text.split('\n')[0]!;
  // Anything may be thrown as a cause: undici's are errors with a code.
  const cause: unknown = error.cause;
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  const causeSaid = String(message ?? cause);
  // undici's errors: `fetch failed` (no answer) and `terminated` (the answer cut off), the reason in their cause.
  if (
    error.name === 'TimeoutError' ||
    (error.name === 'TypeError' && /^(fetch failed|terminated)$/.test(error.message))
  ) {
    const why = cause
      ? `${typeof code === 'string' ? `${code}: ` : ''}${firstLine(causeSaid)}`
      : firstLine(error.message);
    return expectedGot('', property.title, `no answer: the call failed: ${why}`);
  }
  return expectedGot('', property.title, `no verdict: the check threw ${error.name}: ${firstLine(error.message)}`);
}

/**
 * A counterexample with each operation by its method and path: its contract entry (parameters,
 * responses, links) is long, says nothing the name does not, and pushed the values that matter
 * past the report's cut.
 */
export function named(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(named);
  if (!value || typeof value !== 'object') return value;
  // A sequence of commands says itself: its calls, and the path that replays it.
  if (Symbol.iterator in value) return (value as { toString(): string }).toString();
  const entry = value as { operationId?: unknown; method?: unknown; path?: unknown };
  if (typeof entry.operationId === 'string' && typeof entry.path === 'string')
    return `${String(entry.method)} ${entry.path}`;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, named(v)]));
}
