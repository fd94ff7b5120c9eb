/**
 * How every failure of the contract tests is said: what the rule expects, then what the service
 * did, after where it happened. "Content-Length is the length of the GET's body" read as a
 * statement, so that a reader could not tell the rule from the finding.
 */
import { cutBody } from './cut-body.ts';

/** `where: expected <what the rule says>, got <what the service did>` (no `where: ` without one). */
export function expectedGot(where: string, expected: string, got: string): string {
  return `${where ? `${where}: ` : ''}expected ${expected}, got ${got}`;
}

/** An answer as a failure shows it: its status, and its body cut at a JSON boundary (cut-body.ts). */
export function answerShown(answer: { status: number; text: string }, max = 300): string {
  return answer.text ? `${answer.status} ${cutBody(answer.text, max)}` : `${answer.status} with no body`;
}

/** A value as a failure shows it: JSON, cut the same way. */
export function valueShown(value: unknown, max = 200): string {
  return value === undefined ? 'nothing' : cutBody(JSON.stringify(value), max);
}
