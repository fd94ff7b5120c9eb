/**
 * The contract diff in JUnit: one test case, failed by the changes that break clients (each on a
 * line) or by the reason there was no contract to compare, skipped with the reason when the diff
 * could not run, the other changes in its <system-out>. The `diff` command writes it alone; the
 * contract tests' run puts it first in its file.
 */
import { xmlText as xml } from '@investor-graph/cli';
import { againstText, changeLine } from './diff-lines.ts';
import type { DiffSection } from './diff.ts';

/** The diff's test case, as the suite and CI list it. */
export function diffCaseName(section: DiffSection): string {
  return `the served contract has no change that breaks clients from ${againstText(section.against)}`;
}

/** The failure's message: how many changes break clients. */
const breakingCount = (n: number): string =>
  n === 1 ? '1 change that breaks clients' : `${n} changes that break clients`;

/** The diff as a <testsuite> of one test case, indented by `indent`. */
function diffSuite(section: DiffSection, indent: string): string {
  const inner = `${indent}        `;
  const result =
    section.status === 'failed' && section.reason
      ? [`${inner}<failure message="no contract to compare" type="UnreadableContract">${xml(section.reason)}</failure>`]
      : section.status === 'failed'
        ? [
            `${inner}<failure message="${xml(breakingCount(section.breaking.length))}" ` +
              `type="BreakingChange">${xml(section.breaking.map(changeLine).join('\n'))}</failure>`,
          ]
        : section.status === 'not-run'
          ? [`${inner}<skipped message="${xml(`not run: ${section.reason ?? ''}`)}"/>`]
          : [];
  const out = section.non_breaking.length
    ? [`${inner}<system-out>${xml(`non-breaking:\n${section.non_breaking.map(changeLine).join('\n')}`)}</system-out>`]
    : [];
  return [
    `${indent}<testsuite name="contract diff" tests="1" ` +
      `failures="${section.status === 'failed' ? 1 : 0}" errors="0" ` +
      `skipped="${section.status === 'not-run' ? 1 : 0}" time="0">`,
    `${indent}    <testcase classname="contract diff" name="${xml(diffCaseName(section))}" time="0">`,
    ...result,
    ...out,
    `${indent}    </testcase>`,
    `${indent}</testsuite>`,
  ].join('\n');
}

/** The `diff` command's JUnit file. */
export function diffJunit(section: DiffSection): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="investor-graph contract ` +
    `diff" tests="1" failures="${section.status === 'failed' ? 1 : 0}" errors="0" ` +
    `time="0">\n${diffSuite(section, '    ')}\n</testsuites>\n`
  );
}

/**
 * The run's JUnit (vitest's) with the diff as its first test suite, and the totals counting it; as
 * it was without a diff.
 */
export function withDiffSuite(report: string, section: DiffSection | undefined): string {
  const root = section && /<testsuites\b(?:[^>"]|"[^"]*")*>/.exec(report);
  if (!section || !root) return report;
  const failed = section.status === 'failed' ? 1 : 0;
  const counted = root[0]
    .replace(/\btests="(\d+)"/, (_all, n: string) => `tests="${Number(n) + 1}"`)
    .replace(/\bfailures="(\d+)"/, (_all, n: string) => `failures="${Number(n) + failed}"`);
  const suite = diffSuite(section, '    ');
  // A run with no test at all may close its root at once.
  const opened = counted.endsWith('/>')
    ? `${counted.slice(0, -2).trimEnd()}>\n${suite}\n</testsuites>`
    : `${counted}\n${suite}`;
  return `${report.slice(0, root.index)}${opened}${report.slice(root.index + root[0].length)}`;
}
