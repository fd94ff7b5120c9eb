/**
 * `investor-graph-contract-tests diff`: the contract a service serves (or a file) against the kit's
 * contract or a baseline, by oasdiff (diff.ts). Exit 0 when no change breaks clients, 1 when one
 * does or the served contract could not be read, 2 on bad usage, 3 when there is no oasdiff.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  exitCode,
  exitCodesHelp,
  readFlags,
  setupJson,
  whyUnwritable,
  writeSetupReports,
  type SetupFailure,
} from '@investor-graph/cli';
import { baseUrlProblem, command } from './cli-options.ts';
import { contractDiff, contractFileProblem, servedAt } from '../diff/diff.ts';
import { diffJunit } from '../diff/diff-junit.ts';
import { diffCommandLines } from '../diff/diff-lines.ts';

export const diffUsage = `\
usage: investor-graph-contract-tests diff (--base-url URL | --contract FILE) [--baseline FILE] [options]
Compares the contract a service serves with the kit's contract, or with the last one seen, by
oasdiff, and lists the changes that break clients and the others, a line each.
  --base-url URL       the API: its contract is read from URL/api/v1/openapi.json (no key is sent)
  --contract FILE      a contract file (YAML or JSON) instead, e.g. one your service's build writes
  --baseline FILE      compare with this contract (the last one seen) instead of the kit's
                       (@investor-graph/contract's openapi.json)
                       A file given may $ref files beside it (relative paths); the served contract
                       may not: a $ref to another file there fails the diff, never followed
  --junit FILE         JUnit XML: one test case, failed by each change that breaks clients
  --report FILE        JSON: the diff as the contract tests' report carries it ({status, against,
                       breaking, non_breaking})
  -h, --help           this text
  --version            the package and its version

A change oasdiff calls an error or a warning breaks clients (a removed field or operation, a
narrowed enum, a new required parameter, a changed status); one it calls info does not (a new
optional field, a new operation). oasdiff is $OASDIFF_BIN, else built once with Go from the Go
module proxy into ~/.cache/investor-graph-kit (oasdiff-build/ in this package); it reads a
.oasdiff.yaml in the current folder, or the file $OASDIFF_CONFIG names, as it always does.

${exitCodesHelp('investor-graph-contract-tests diff')}`;

/** Runs the command on its arguments (those after `diff`); resolves with its exit code. */
export async function diffCommand(args: string[]): Promise<number> {
  const flags = readFlags(command, diffUsage, args, {
    'base-url': { type: 'string' },
    contract: { type: 'string' },
    baseline: { type: 'string' },
    junit: { type: 'string' },
    report: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const { values } = flags;
  // Annotated, so that TypeScript knows code after a call does not run.
  const fail: (message: string) => never = (message) => flags.fail(message);

  const baseUrl = values['base-url'];
  if ((baseUrl === undefined) === (values.contract === undefined))
    fail('give --base-url URL or --contract FILE (one of them): the contract to compare');
  const urlProblem = baseUrl === undefined ? null : baseUrlProblem(baseUrl);
  if (urlProblem) fail(urlProblem);
  // Files given are read now: a wrong path is bad usage, said before anything runs.
  for (const flag of ['contract', 'baseline'] as const) {
    const problem = values[flag] === undefined ? null : contractFileProblem(flag, values[flag]);
    if (problem) fail(problem);
  }
  for (const flag of ['junit', 'report'] as const) {
    const problem = values[flag] === undefined ? null : whyUnwritable(resolve(values[flag]));
    if (problem) fail(`--${flag} ${values[flag]}: ${problem}`);
  }
  // As paths, not as written: `out/diff.xml` and `./out/diff.xml` are one file.
  if (values.junit !== undefined && values.report !== undefined && resolve(values.junit) === resolve(values.report))
    fail('--junit and --report name the same file');

  const section = await contractDiff({
    served: baseUrl !== undefined ? { baseUrl } : { file: values.contract! },
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
  });
  // No oasdiff, or no answer at all from the service: the set-up kept the diff from running. Its
  // reports say so (a failed case naming why, the section with the step), and the exit code is 3.
  if (section.status === 'not-run' || section.cannot_reach) {
    const failure: SetupFailure = {
      command,
      step: section.cannot_reach ? 'service' : 'tools',
      reason: `the diff could not run: ${section.reason}`,
      facts: baseUrl !== undefined ? { base_url: baseUrl } : { contract: values.contract! },
    };
    console.error(`[${command}] ${failure.reason}`);
    const { setup, exit_code } = setupJson(failure);
    const files = { junit: values.junit && resolve(values.junit), json: values.report && resolve(values.report) };
    writeSetupReports(failure, files, { ...section, exit_code, setup });
    return exitCode.setup;
  }
  write(values.report, `${JSON.stringify(section, null, 2)}\n`);
  write(values.junit, diffJunit(section));
  console.log(diffCommandLines(section, baseUrl !== undefined ? servedAt(baseUrl) : values.contract!).join('\n'));
  return section.status === 'failed' ? exitCode.failed : exitCode.held;
}

/** Writes `text` to `file`, making its folder, when the flag was given. */
function write(file: string | undefined, text: string): void {
  if (file === undefined) return;
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, text);
}
