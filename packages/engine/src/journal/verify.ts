/**
 * Verification over the journal, as WireMock's `verify(count, pattern)`: how many calls match a
 * pattern, whether that is the count expected, and, when it is not, the nearest calls and what
 * differed in each (WireMock's near misses), said in a message a test runner shows as it is.
 */
import { redactJson } from '@investor-graph/cli/redact';
import type { components } from '../control/generated/api.ts';
import type { JournalEntry } from './entry.ts';
import type { JournalView } from './journal-store.ts';
import { describePattern, differences, type JournalPattern } from './match.ts';

type Schemas = components['schemas'];

/** How many calls are expected: exactly n, or a range (either bound left open). */
export type CallCount = Schemas['CallCount'];

/** A call that did not match, and every member of the pattern it did not have. */
export type NearMiss = Schemas['NearMiss'];

/** A verdict: the control document's `Verification` (its near misses only when too few matched). */
export type Verification = Schemas['Verification'];

/** How many near misses (and, when too many matched, matching calls) a verification lists. */
export const NEAR_MISSES = 5;

/** Any number of calls from one on, when no count is given: "it was called". */
const atLeastOnce = { min: 1, max: null };

function bounds(count: CallCount | undefined): Verification['expected'] {
  if (count === undefined) return atLeastOnce;
  if (typeof count === 'number') return { min: count, max: count };
  return { min: count.min ?? 0, max: count.max ?? null };
}

/**
 * Counts the calls in `journal` matching `pattern` and judges the count against `count` (at least
 * one): over a memory `Journal` as it is, or over a store's `snapshot()`. What it says of the
 * pattern is blanked of every key `known` names or any key's form finds (a test may have put one there).
 */
export function verify(
  journal: JournalView,
  pattern: JournalPattern,
  count?: CallCount,
  known: readonly string[] = [],
): Verification {
  const expected = bounds(count);
  const entries = journal.entries();
  const judged = entries.map((entry) => ({ entry, differences: differences(entry, pattern) }));
  const matching = judged.filter((j) => j.differences.length === 0).map((j) => j.entry);
  const matched = matching.length;
  const ok = journal.capacity > 0 && matched >= expected.min && (expected.max === null || matched <= expected.max);
  const tooFew = !ok && matched < expected.min;
  const nearMisses = tooFew
    ? judged
        .filter((j) => j.differences.length > 0)
        .sort((a, b) => a.differences.length - b.differences.length || b.entry.seq - a.entry.seq)
        .slice(0, NEAR_MISSES)
    : [];
  // The calls that did match, whenever the count is wrong: too many, or some of too few.
  const shown = ok ? [] : matching.slice(0, NEAR_MISSES);
  const verdict = { matched, expected, ok, near_misses: nearMisses, matching: shown };
  return redactJson(
    { ...verdict, message: ok ? '' : verificationMessage(journal, pattern, verdict, entries.length) },
    known,
  );
}

/** "exactly 2 calls", "at least 1 call", "from 1 to 3 calls", "no call". */
export function describeCount({ min, max }: Verification['expected']): string {
  const calls = (n: number): string => `${n} call${n === 1 ? '' : 's'}`;
  if (max === 0) return 'no call';
  if (max === null) return `at least ${calls(min)}`;
  if (min === max) return `exactly ${calls(min)}`;
  return min === 0 ? `at most ${calls(max)}` : `from ${min} to ${calls(max)}`;
}

/** One entry as a line of a report: what was called, what it got, with which key. */
export function describeEntry(entry: JournalEntry): string {
  const query = new URLSearchParams(entry.query).toString();
  const what = [entry.operation ?? 'no operation', entry.key_id ? `key ${entry.key_id} (${entry.plan})` : 'no key'];
  return (
    `${entry.method} ${entry.path}${query ? `?${query}` : ''} -> ${entry.status}` +
    `${entry.problem ? ` ${entry.problem}` : ''} [${what.join(', ')}; ${entry.request_id} at ${entry.at}]`
  );
}

function verificationMessage(
  journal: JournalView,
  pattern: JournalPattern,
  verdict: Omit<Verification, 'message'>,
  held: number,
): string {
  const head = `[investor-graph mock] expected ${describeCount(verdict.expected)} matching ${describePattern(pattern)}`;
  if (journal.capacity === 0) return `${head}, but the request journal is off (journal: 0): no call was recorded.`;
  const lines = [`${head}, but ${verdict.matched === 0 ? 'none' : verdict.matched} matched.`];
  const { matching, near_misses: near } = verdict;
  if (matching.length) {
    const first = verdict.matched > matching.length ? ` (the first ${NEAR_MISSES})` : '';
    lines.push(`The matching call${verdict.matched === 1 ? '' : 's'}${first}:`);
    matching.forEach((entry, i) => lines.push(`  ${i + 1}. ${describeEntry(entry)}`));
  }
  const tooFew = verdict.matched < verdict.expected.min;
  if (near.length) {
    lines.push(`The nearest ${verdict.matched ? 'other ' : ''}calls, of ${held} in the journal:`);
    near.forEach(({ entry, differences: diffs }, i) => {
      lines.push(`  ${i + 1}. ${describeEntry(entry)}`);
      for (const d of diffs) lines.push(`       ${d.field}: expected ${d.expected}, was ${d.actual}`);
    });
  } else if (held === 0) lines.push('The journal holds no call at all.');
  else if (tooFew) lines.push(`The journal holds no other call (${held} in all).`);
  const dropped = journal.dropped();
  if (dropped > 0)
    lines.push(
      `(${dropped} older call${dropped === 1 ? ' was' : 's were'} pushed out of the journal, which holds ` +
        `${journal.capacity}: start the mock with a larger --journal, or clear it between tests.)`,
    );
  return lines.join('\n');
}

/** What a failed verification throws (the MSW API, the HTTP mock's client): its message is the report. */
export class VerificationError extends Error {
  readonly verification: Verification;

  constructor(verification: Verification) {
    super(verification.message);
    this.name = 'VerificationError';
    this.verification = verification;
  }
}
