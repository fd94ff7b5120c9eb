/**
 * "Did you mean": the known name nearest to a mistyped one, for the engine's unknown query
 * parameters and the command-line tools' unknown flags alike. Browser-safe.
 */

/** Levenshtein distance, cut short: anything over `max` is reported as max + 1. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return Math.min(d[a.length]![b.length]!, max + 1);
}

/** The first of `known` within `max` edits of `name`, or undefined. */
export function nearest(name: string, known: readonly string[], max = 2): string | undefined {
  return known.find((candidate) => editDistance(candidate, name, max) <= max);
}

/**
 * The flag of `known` meant by a mistyped `flag`: one within two edits of it whole, else one whose
 * leading words are (`--bugdet` means `--budget-calls`), since a typo is often in the first word
 * of a longer flag, which the whole flag is too many edits away from.
 */
export function nearestFlag(flag: string, known: readonly string[]): string | undefined {
  const whole = nearest(flag, known);
  if (whole) return whole;
  // `--no-rate-burst` leads with `--no` and `--no-rate`.
  const leading = (candidate: string): string[] =>
    [...candidate.matchAll(/(?<=[^-])-/g)].map((m) => candidate.slice(0, m.index));
  // A short typo is within two edits of too much to say which it meant.
  return flag.length > 5
    ? known.find((candidate) => leading(candidate).some((words) => editDistance(words, flag) <= 2))
    : undefined;
}
