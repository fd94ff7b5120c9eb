/**
 * What the proxy says of an exchange's violations, bounded whatever the upstream sends: a budget of
 * kept violations (the rest counted by rule), the `sl-violations` header in one pass under 8 KiB,
 * a body excerpt with keys blanked, and the checks it gave up (`not_validated`), as violations or,
 * allowed, as a note.
 */
import { redact } from '@investor-graph/cli/redact';
import type { ProxyViolation } from './types.ts';

const EXCERPT = 300;
/** The bytes of a body an excerpt can come from: twice its characters, at most 4 bytes each in UTF-8. */
export const excerptBytes = 2 * EXCERPT * 4;
const HEADER_MAX = 8 * 1024;

/**
 * A body excerpt for the report: keys (the trial call returns one, `known` the request's own)
 * blanked, cut short. Cut first to twice its length, so a body of megabytes costs nothing to redact.
 */
export function excerptOf(text: string, known: readonly string[] = []): string {
  return redact(text.slice(0, 2 * EXCERPT), known).slice(0, EXCERPT);
}

/**
 * `sl-violations` as Prism writes it: a JSON array, ASCII only, bounded in size. Built item by item
 * until the next would not fit, then "and N more": one pass, whatever the count (`more` adds those
 * the exchange's budget already left out).
 */
export function violationsHeader(violations: readonly ProxyViolation[], more = 0): string {
  const ascii = (text: string) =>
    text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const note = (n: number) =>
    ascii(JSON.stringify({ location: ['response'], severity: 'Error', code: 'truncated', message: `and ${n} more` }));
  const room = HEADER_MAX - note(violations.length + more).length - 2;
  const items: string[] = [];
  let length = 0;
  for (const v of violations) {
    const item = ascii(
      JSON.stringify({ location: [v.side], severity: 'Error', code: v.rule, message: v.message.slice(0, 500) }),
    );
    if (length + item.length + 1 > room) break;
    items.push(item);
    length += item.length + 1;
  }
  const left = violations.length - items.length + more;
  if (left) items.push(note(left));
  return `[${items.join(',')}]`;
}

/** Which violations the budget keeps first: what went unchecked, the service's, the client's last. */
const rank = (v: ProxyViolation): number =>
  v.rule === 'not_validated' || v.rule === 'upstream' ? 0 : v.side === 'response' ? 1 : 2;

/** The first `max` violations by rank (the service's before the client's), and how many more of each rule. */
export function withinBudget(
  violations: ProxyViolation[],
  max: number,
): { kept: ProxyViolation[]; more?: Record<string, number> } {
  if (violations.length <= max) return { kept: violations };
  const ranked = [...violations].sort((a, b) => rank(a) - rank(b));
  const more: Record<string, number> = {};
  for (let i = max; i < ranked.length; i++) more[ranked[i]!.rule] = (more[ranked[i]!.rule] ?? 0) + 1;
  return { kept: ranked.slice(0, max), more };
}

/** A check the proxy gave up, saying why. */
export const gaveUp = (message: string): ProxyViolation => ({ side: 'response', rule: 'not_validated', message });

/** Checks given up are violations, or, where the user allows them (--allow-unvalidated), one note saying why. */
export function judged(
  violations: ProxyViolation[],
  allowUnvalidated = false,
): { violations: ProxyViolation[]; note?: { notValidated: string } } {
  const given = allowUnvalidated ? violations.filter((v) => v.rule === 'not_validated') : [];
  return given.length
    ? {
        violations: violations.filter((v) => v.rule !== 'not_validated'),
        note: { notValidated: given.map((v) => v.message).join('; ') },
      }
    : { violations };
}
