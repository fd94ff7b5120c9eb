/** How a contract diff reads on a terminal or in a CI log: a change a line, breaking ones first. */
import type { DiffChange, DiffSection } from './diff.ts';

/** A change on one line: the operation, what changed, and oasdiff's id of the check that saw it. */
export function changeLine(change: DiffChange): string {
  return `${change.operation ? `${change.operation}: ` : ''}${change.text} [${change.id}]`;
}

/** What the served contract was compared with, as a sentence says it. */
export function againstText(against: string): string {
  return against === 'kit' ? "the kit's contract" : `the baseline ${against}`;
}

const count = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The diff's lines in the contract tests' summary (report.ts), in its indentation: one line when it
 * held with no change or could not run, else each change (up to `max` a group; the report has them
 * all) under a line that says held or broken.
 */
export function diffSummaryLines(section: DiffSection, max = 20): string[] {
  const against = againstText(section.against);
  const listed = (changes: DiffChange[]): string[] => [
    ...changes.slice(0, max).map((c) => `      ${changeLine(c)}`),
    ...(changes.length > max ? [`      … and ${changes.length - max} more (the report lists them all)`] : []),
  ];
  if (section.status === 'not-run') return [`  diff not run (${against}): ${section.reason}`];
  if (section.status === 'failed' && section.reason)
    return [`  broken diff: the served contract could not be compared with ${against}: ${section.reason}`];
  const nonBreaking = section.non_breaking.length
    ? [`    ${count(section.non_breaking.length, 'non-breaking change')}:`, ...listed(section.non_breaking)]
    : [];
  if (section.status === 'failed') {
    return [
      `  broken diff: expected no change that breaks clients from ${against}, got ${section.breaking.length}:`,
      ...listed(section.breaking),
      ...nonBreaking,
    ];
  }
  if (!section.non_breaking.length) return [`  held diff: no change from ${against}`];
  return [`  held diff: no change that breaks clients from ${against}`, ...nonBreaking];
}

/** The `diff` command's report: every change, grouped, and its verdict. */
export function diffCommandLines(section: DiffSection, served: string): string[] {
  const head = `contract diff: ${served} against ${againstText(section.against)} (oasdiff)`;
  if (section.status === 'not-run') return [head, `  could not run: ${section.reason}`];
  if (section.status === 'failed' && section.reason)
    return [head, `  FAILED: no contract to compare: ${section.reason}`];
  const group = (name: string, changes: DiffChange[]): string[] =>
    changes.length ? [`  ${name} (${changes.length}):`, ...changes.map((c) => `    ${changeLine(c)}`)] : [];
  return [
    head,
    ...group('breaking', section.breaking),
    ...group('non-breaking', section.non_breaking),
    section.status === 'failed'
      ? `  FAILED: ${count(section.breaking.length, 'change')} that ` +
        `break${section.breaking.length === 1 ? 's' : ''} clients`
      : `  held: no change that breaks clients` +
        (section.non_breaking.length
          ? `, ${count(section.non_breaking.length, 'non-breaking change')}`
          : ', and no other change'),
  ];
}
