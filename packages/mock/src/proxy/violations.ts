/**
 * What the proxy says of an exchange's violations, bounded whatever the upstream sends: a budget of
 * kept violations (the rest counted by rule), the `sl-violations` header in one pass under 8 KiB,
 * a body excerpt with keys blanked.
 */
import { redactText } from '../redact.ts';
import type { ProxyViolation } from './proxy.ts';

const EXCERPT = 300;
const HEADER_MAX = 8 * 1024;

/** A body excerpt for the report: keys (the trial call returns one) blanked, then cut short. */
export function excerptOf(text: string): string {
  return redactText(text).slice(0, EXCERPT);
}

/**
 * `sl-violations` as Prism writes it: a JSON array, ASCII only, bounded in size. Built item by item
 * until the next would not fit, then "and N more": one pass, whatever the count (`more` adds those
 * the exchange's budget already left out).
 */
export function violationsHeader(violations: readonly ProxyViolation[], more = 0): string {
  const ascii = (text: string) => text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const note = (n: number) => ascii(JSON.stringify({ location: ['response'], severity: 'Error', code: 'truncated', message: `and ${n} more` }));
  const room = HEADER_MAX - note(violations.length + more).length - 2;
  const items: string[] = [];
  let length = 0;
  for (const v of violations) {
    const item = ascii(JSON.stringify({ location: [v.side], severity: 'Error', code: v.rule, message: v.message.slice(0, 500) }));
    if (length + item.length + 1 > room) break;
    items.push(item);
    length += item.length + 1;
  }
  const left = violations.length - items.length + more;
  if (left) items.push(note(left));
  return `[${items.join(',')}]`;
}

/** The first `max` violations, and how many more of each rule. */
export function withinBudget(violations: ProxyViolation[], max: number): { kept: ProxyViolation[]; more?: Record<string, number> } {
  if (violations.length <= max) return { kept: violations };
  const more: Record<string, number> = {};
  for (let i = max; i < violations.length; i++) more[violations[i]!.rule] = (more[violations[i]!.rule] ?? 0) + 1;
  return { kept: violations.slice(0, max), more };
}
