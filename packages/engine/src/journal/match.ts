/**
 * Which journal entries a pattern names, and, for one that does not match, what differs: the one
 * comparison that a page's filter, a verification's count and its near misses all use, so that
 * what a test filters by and what it verifies mean the same.
 */
import type { components } from '../control/generated/api.ts';
import type { JournalEntry } from './entry.ts';

type Schemas = components['schemas'];

/** What a call must have been (the control document's `JournalPattern`): every member given must hold. */
export type JournalPattern = Schemas['JournalPattern'];

/** A pattern, and the calls from a wall-clock time on (ms). */
export interface JournalFilter extends JournalPattern {
  since?: number;
}

/** One member of a pattern that an entry does not have (`(none)` where the call had nothing). */
export type Difference = Schemas['Difference'];

const NONE = '(none)';

/** The longest pattern a test may give (a request target is at most 8,192 characters, DECISIONS.md#bounds). */
export const PATTERN_MAX_LENGTH = 500;
/** The most `*` a pattern may hold: enough for any real path, and a bound on what a match costs. */
export const PATTERN_MAX_STARS = 16;

/** Why a text cannot be a path pattern (too long, too many `*`), or null when it can. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > PATTERN_MAX_LENGTH) return `must be at most ${PATTERN_MAX_LENGTH} characters`;
  if (pattern.split('*').length - 1 > PATTERN_MAX_STARS) return `may hold at most ${PATTERN_MAX_STARS} *`;
  return null;
}

/**
 * Whether `text` is one `pattern` names, `*` as any run of characters and everything else as
 * itself. Each part between stars is found at its leftmost place after the one before (the last
 * at the end), which is all a star-only glob needs: no backtracking, so a match costs at most the
 * text's length times a part's, whatever the stars (a regular expression of `.*`s was exponential).
 */
export function globMatches(pattern: string, text: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === text;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

function statusHolds(expected: number | string, actual: number): boolean {
  const text = String(expected);
  return /^[1-5]xx$/i.test(text) ? text[0] === String(actual)[0] : Number(text) === actual;
}

/** What differs between `entry` and `pattern`, member by member, in the pattern's order; none when it matches. */
export function differences(entry: JournalEntry, pattern: JournalFilter): Difference[] {
  const out: Difference[] = [];
  const differ = (field: string, expected: string, actual: string | null): void =>
    void out.push({ field, expected, actual: actual ?? NONE });
  if (pattern.operation !== undefined && pattern.operation !== entry.operation)
    differ('operation', pattern.operation, entry.operation);
  if (pattern.method !== undefined && pattern.method.toUpperCase() !== entry.method)
    differ('method', pattern.method.toUpperCase(), entry.method);
  if (pattern.path !== undefined && !globMatches(pattern.path, entry.path)) differ('path', pattern.path, entry.path);
  if (pattern.status !== undefined && !statusHolds(pattern.status, entry.status))
    differ('status', String(pattern.status), String(entry.status));
  if (pattern.key_id !== undefined && pattern.key_id !== entry.key_id) differ('key_id', pattern.key_id, entry.key_id);
  if (pattern.plan !== undefined && pattern.plan !== entry.plan) differ('plan', pattern.plan, entry.plan);
  for (const [name, value] of Object.entries(pattern.query ?? {}))
    if (entry.query[name] !== value) differ(`query.${name}`, value, entry.query[name] ?? null);
  if (pattern.since !== undefined && Date.parse(entry.at) < pattern.since)
    differ('since', new Date(pattern.since).toISOString(), entry.at);
  return out;
}

/** Whether `entry` is one `filter` names. */
export const matches = (entry: JournalEntry, filter: JournalFilter): boolean => differences(entry, filter).length === 0;

/** A pattern as one line: `{operation: listFirms, query.limit: 50}`. */
export function describePattern(pattern: JournalPattern): string {
  const { query, ...members } = pattern;
  const parts = [
    ...Object.entries(members).map(([name, value]) => `${name}: ${String(value)}`),
    ...Object.entries(query ?? {}).map(([name, value]) => `query.${name}: ${value}`),
  ];
  return parts.length ? `{${parts.join(', ')}}` : 'any call';
}
