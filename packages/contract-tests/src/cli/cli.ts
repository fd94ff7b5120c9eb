#!/usr/bin/env node
/**
 * investor-graph-contract-tests: the property-based contract tests against any base URL.
 * Exit 0 when everything held, 1 when a property or rule broke, 2 on bad usage, 3 when the run
 * could not start for a reason of the set-up (preflight.ts). What it prints: a line per property
 * as it finishes (property-lines.ts) and a summary at the end (report.ts); vitest's own report
 * only with --verbose. Anything that keeps it from starting is one line.
 */
import { exitCode } from '@investor-graph/cli';
import { findGoTool } from '@investor-graph/cli/go-tool';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Vitest } from 'vitest/node';
import { readCliOptions, type CliOptions } from './cli-options.ts';
import { contractDiff } from '../diff/diff.ts';
import { oasdiffTool } from '../diff/oasdiff-tool.ts';
import { withDiffSuite } from '../diff/diff-junit.ts';
import { diffSummaryLines } from '../diff/diff-lines.ts';
import type { SuiteConfig } from '../core/context.ts';
import { prepareRun, reportSetupFailuresTo, say, stop } from './prepare-run.ts';
import { hideKey } from '../shown/failure-text.ts';
import { writeHtmlReport } from '../report/html-report.ts';
import { annotationsAsOutput, withMatrixScore } from '../report/junit.ts';
import type { MatrixScore } from '../rule-matrix/matrix-results.ts';
import { PropertyLines } from '../report/property-lines.ts';
import { mergeReports, writeReport, type Report } from '../report/report.ts';
import type { DiffSection } from '../diff/diff.ts';
import { formatReport } from '../report/report-text.ts';
import { matrixLines, scoreLine } from '../rule-matrix/matrix-lines.ts';

// `investor-graph-contract-tests diff`: the served contract against the kit's alone, a command of
// its own (diff-cli.ts).
if (process.argv[2] === 'diff') process.exit(await (await import('./diff-cli.ts')).diffCommand(process.argv.slice(3)));
const options = readCliOptions(process.argv.slice(2));
// From here on, a run its set-up keeps from starting still writes its JUnit, report and page, saying why.
reportSetupFailuresTo(options);
// An oasdiff named (OASDIFF_BIN) that is not there is the set-up's, said before any call; none at
// all (no Go to build one) is only a diff not run.
const namedOasdiff = options.diff ? findGoTool(oasdiffTool) : null;
if (namedOasdiff && 'missing' in namedOasdiff) stop(namedOasdiff.missing, 'tools');
// vitest once the command line is read: --help, --version and bad usage answer without loading it.
const { runSuites, suiteFile } = await import('./run-suites.ts');

if (options.keyInArgs)
  say(
    'warning: a key on the command line shows in ps, shell history and CI logs; pass it in ' +
      'INVESTOR_GRAPH_KEY (or INVESTOR_GRAPH_KEYS)',
  );
// What vitest itself says on stderr without --verbose: kept, to say in one line why a run that
// wrote no report could not start, when the progress lines (which hear of module, suite and
// unhandled errors) have nothing to say.
const vitestErrors: string[] = [];
let configs: SuiteConfig[];
let vitest: Vitest;
let lines: PropertyLines;
let drift: DiffSection | undefined;
try {
  configs = await prepareRun(options);
  // The run starts with the served contract against the kit's (or --baseline), once whatever the keys;
  // a served contract it cannot read fails it; without oasdiff it is noted as not run, and the run goes on.
  if (options.diff)
    drift = await contractDiff({
      served: { baseUrl: options.baseUrl },
      ...(options.baseline ? { baseline: options.baseline } : {}),
    });
  [vitest, lines] = await runSuites(configs, options, vitestErrors);
} catch (error) {
  // Whatever else keeps the run from starting: one line, not a stack.
  stop(`the run could not start: ${(error as Error).message.split('\n')[0]}`, 'tools');
}
await vitest.close();
const junitFile = resolve(options.junit);
// Only a file vitest wrote: the path is checked before the run, but something may have put a folder there since.
if (statSync(junitFile, { throwIfNoEntry: false })?.isFile())
  writeFileSync(junitFile, withDiffSuite(annotationsAsOutput(readFileSync(junitFile, 'utf8')), drift));
const score = printSummary(configs, options);
const summarised = score !== null;
if (score && statSync(junitFile, { throwIfNoEntry: false })?.isFile())
  writeFileSync(junitFile, withMatrixScore(readFileSync(junitFile, 'utf8'), scoreLine(score)));
// A change in the served contract that breaks clients, or no contract to compare, fails the run,
// whatever the properties said.
if (drift?.status === 'failed') process.exitCode = 1;
if (summarised && options.html) writeHtml(options.html);
const startError = summarised ? null : (lines.startProblem(suiteFile()) ?? firstError(vitestErrors.join('')));
if (startError) stop(`the run could not start: ${startError}`, 'tools');
process.exit(process.exitCode ?? 0);

/** The page of the run (--html), from the report it wrote; the run's keys blanked in it as in the report. */
function writeHtml(file: string): void {
  for (const { key } of options.keys) if (key) hideKey(key);
  try {
    writeHtmlReport(resolve(options.report), resolve(file));
  } catch (error) {
    // A broken run's verdict stands (its report and JUnit are written); one that held still fails, for the set-up.
    say(`the HTML page could not be written to ${file}: ${(error as Error).message.split('\n')[0]}`);
    process.exitCode ||= exitCode.setup;
  }
}

/** The first `Error: ...` line of what vitest printed, its colours taken out; null when there is none. */
function firstError(text: string): string | null {
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  return /^\s*\w*Error: (.+)$/m.exec(plain)?.[1]?.trim() ?? null;
}

/**
 * The summary: each key's report (merged over the keys when there are several), written to
 * --report. The matrix's score it says, or null when no suite wrote a report.
 */
function printSummary(configs: SuiteConfig[], options: CliOptions): MatrixScore | null {
  const reportFile = resolve(options.report);
  const files =
    `  JUnit: ${join(options.junit)}  report: ` +
    `${join(options.report)}${options.html ? `  page: ${join(options.html)}` : ''}`;
  const parts = configs.length > 1 ? dirname(configs[0]!.reportFile!) : null;
  try {
    if (parts) {
      // Only the reports of the suites that got to write one: the progress lines said why another did not.
      const written = configs.filter((c) => existsSync(c.reportFile!));
      const reports = written.map((c) => JSON.parse(readFileSync(c.reportFile!, 'utf8')) as Report);
      const merged = {
        ...mergeReports(
          reports,
          written.map((c) => c.plan),
          configs.filter((c) => !written.includes(c)).map((c) => c.plan),
        ),
        ...(drift ? { diff: drift } : {}),
      };
      mkdirSync(dirname(reportFile), { recursive: true });
      writeFileSync(reportFile, `${JSON.stringify(merged, null, 2)}\n`);
      if (!reports.length) return null;
      const each = reports.map((r) => formatReport(r, { matrix: false })).join('\n\n');
      const unreached = matrixLines(merged.matrix)
        .map((line) => `\n  ${line}`)
        .join('');
      const diffLines = drift ? `\n${diffSummaryLines(drift).join('\n')}` : '';
      const noReport = merged.failed_keys.length
        ? `\n  no report from the ${merged.failed_keys.join(', ')} key (its suite could not start; ` +
          `its line above says why)`
        : '';
      console.log(
        `\n${each}\n\n  all keys (${merged.plans.join(', ')}): ${scoreLine(merged.score)}` +
          `${unreached}${diffLines}${noReport}\n${files}`,
      );
      return merged.score;
    } else {
      const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
      if (drift) writeReport(reportFile, { ...report, diff: drift });
      console.log(`\n${formatReport({ ...report, ...(drift ? { diff: drift } : {}) })}\n${files}`);
      return report.score;
    }
  } catch {
    // The suite could not start (a bad key, an unreachable URL): the progress lines have said why.
    return null;
  } finally {
    if (parts) rmSync(parts, { recursive: true, force: true });
  }
}
