/**
 * The CLI's progress: one line per property as it finishes (held, broken or skipped, with what it
 * spent or why), a line per broken rule, and whatever kept a suite from running. vitest's own
 * reporter (its tree, and each failure again with a stack) comes only with --verbose: with it on
 * by default, every result was said three times and a run was some 120 lines.
 */
import type { Reporter, SerializedError, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';
import type { PropertyResult, RuleResult } from './run.ts';

/** What a test's progress line says, carried from the suite to this reporter in the test's meta. */
export interface Outcome {
  status: 'held' | 'broken' | 'skipped';
  /** The property's id, or `rule <id>`. */
  id: string;
  plan: string;
  /** What it spent, or why it was skipped, or what broke first. */
  detail: string;
}

/** The key of `Outcome` in a test's meta. */
export const outcomeKey = 'investorGraphOutcome';

const count = (n: number, one: string): string => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;
/** A reason on one line, short enough for a progress line; the summary has it whole. */
const short = (text: string, max = 220): string => {
  const line = text.split('\n')[0]!;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

export function propertyOutcome(result: PropertyResult, plan: string): Outcome {
  const spent = `${count(result.runs, 'case')}, ${count(result.spent.calls, 'call')}, ${count(result.spent.rows, 'row')}${result.stoppedByBudget ? ' (stopped by the budget)' : ''}`;
  if (result.status === 'skipped') return { status: 'skipped', id: result.id, plan, detail: result.reason ?? 'skipped' };
  if (result.failure) return { status: 'broken', id: result.id, plan, detail: `${spent}: ${short(result.failure.message)}` };
  return { status: 'held', id: result.id, plan, detail: spent };
}

export function ruleOutcome(result: RuleResult, calls: number, plan: string): Outcome {
  const id = `rule ${result.id}`;
  if (!result.violations) return { status: 'held', id, plan, detail: `${count(calls, 'call')} checked` };
  return { status: 'broken', id, plan, detail: `${count(result.violations, 'violation')} in ${count(calls, 'call')}: ${short(result.examples[0] ?? '')}` };
}

export class PropertyLines implements Reporter {
  private vitest?: Vitest;
  private readonly options: { header?: string; plans?: boolean; viaVitest?: boolean };

  /**
   * `header`: the line that opens the run, once it has started (a run that cannot start says so
   * in one line, and nothing else). `plans`: the run has a suite per key, so each line names the
   * plan. `viaVitest`: write through vitest's logger (with --verbose, whose terminal summary is
   * redrawn below the lines), else straight to stdout (vitest's own output then goes nowhere).
   */
  constructor(options: { header?: string; plans?: boolean; viaVitest?: boolean } = {}) {
    this.options = options;
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(): void {
    if (this.options.header) this.say(this.options.header);
  }

  onTestCaseResult(testCase: TestCase): void {
    const outcome = (testCase.meta() as Record<string, unknown>)[outcomeKey] as Outcome | undefined;
    const { state } = testCase.result();
    // A rule is judged over every call at the end: only a broken one is worth a line of its own.
    if (outcome && !(outcome.id.startsWith('rule ') && outcome.status === 'held')) this.line(outcome);
    // No outcome: not selected with --only (no line), or it failed before it got one.
    else if (!outcome && state === 'failed') this.line({ status: 'broken', id: testCase.name.split(':')[0]!, plan: '', detail: errorText(testCase.result().errors ?? []) });
  }

  /** A hook that failed (a suite that could not get ready) fails its tests with no outcome: said once here. */
  onTestSuiteResult(testSuite: TestSuite): void {
    if (testSuite.errors().length) this.say(`  could not run ${testSuite.name}: ${errorText(testSuite.errors())}`);
  }

  onTestModuleEnd(testModule: TestModule): void {
    if (testModule.errors().length) this.say(`  could not load the suite: ${errorText(testModule.errors())}`);
  }

  onTestRunEnd(_modules: readonly TestModule[], unhandled: readonly SerializedError[]): void {
    if (unhandled.length) this.say(`  an error outside any test: ${errorText(unhandled)}`);
  }

  private line({ status, id, plan, detail }: Outcome): void {
    // With a suite per key, the key's plan is a column of its own.
    const key = this.options.plans ? `${plan.padEnd(10)} ` : '';
    this.say(`  ${status.padEnd(8)} ${key}${id.padEnd(17)} ${detail}`);
  }

  private say(line: string): void {
    if (this.options.viaVitest && this.vitest) this.vitest.logger.log(line);
    else process.stdout.write(`${line}\n`);
  }
}

/** Errors as one line: the first line of the first (whole: nothing else will say it), and how many more. */
function errorText(errors: readonly { message?: string }[]): string {
  const first = (errors[0]?.message ?? 'no message').split('\n')[0]!;
  return errors.length > 1 ? `${first} (and ${errors.length - 1} more)` : first;
}
