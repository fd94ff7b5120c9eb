/**
 * The CLI's progress: one line per property as it finishes (held, broken or skipped, with what it
 * spent or why), a line per broken rule, and whatever kept a suite from running. vitest's own
 * reporter (its tree, and each failure again with a stack) comes only with --verbose: with it on
 * by default, every result was said three times and a run was some 120 lines.
 */
import type { Reporter, SerializedError, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';
import type { SuiteConfig } from '../core/context.ts';
import type { RunPlan } from '../core/plan.ts';
import type { PropertyResult } from '../core/run.ts';
import type { RuleResult } from '../core/rule-results.ts';
import { exampleLine } from './report-text.ts';

/** What a test's progress line says, carried from the suite to this reporter in the test's meta. */
export interface Outcome {
  status: 'held' | 'broken' | 'skipped' | 'plan';
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

/**
 * A failure's first line with its expected part cut first when too long: what the service did is
 * the finding, and a long expectation (a set-up's) pushed it past the cut.
 */
function gotFirst(message: string, max = 220): string {
  const line = message.split('\n')[0]!;
  const at = line.indexOf(', got ');
  if (line.length <= max || at < 0) return line;
  const got = line.slice(at);
  const gotShown = got.length > max - 40 ? `${got.slice(0, max - 41)}…` : got;
  return `${line.slice(0, max - gotShown.length - 1)}…${gotShown}`;
}

/** How much of a property ran, in the terms the summary and reports use (run.ts's coverage). */
export function coverageText(result: Pick<PropertyResult, 'coverage' | 'cases' | 'runs' | 'status'>): string {
  // A result of a run that could not get ready ran no case (and one from an older report counts only its runs).
  if (!result.cases) return count(result.runs, 'case');
  const { boundary, boundaryTotal, generated } = result.cases;
  const boundaries =
    boundary === boundaryTotal
      ? count(boundary, 'boundary case')
      : `${boundary} of ${count(boundaryTotal, 'boundary case')}`;
  const cases = `${boundaries}, ${generated} generated`;
  if (result.status === 'failed') return result.runs ? `broken on case ${result.runs} (${cases})` : '0 cases';
  return `${result.coverage === 'every case' ? 'checked on every case' : 'checked on some cases'}: ${cases}`;
}

/** The plan's line, before the run spends anything (plan.ts). */
export function planOutcome(plan: RunPlan, config: Pick<SuiteConfig, 'plan' | 'budget' | 'budgetWhy'>): Outcome {
  const running = plan.properties.filter((p) => !p.skip);
  const boundary = running.reduce((n, p) => n + p.boundary, 0);
  const all = running.reduce((n, p) => n + p.boundaryTotal, 0);
  const generated = running.reduce((n, p) => n + p.generated, 0);
  const cut = running.filter((p) => p.boundary < p.boundaryTotal).map((p) => p.id);
  const budget =
    `${count(config.budget.calls, 'call')} and ` +
    `${count(config.budget.rows, 'row')}${config.budgetWhy ? ` (${config.budgetWhy})` : ''}`;
  const boundaries =
    boundary === all
      ? `every boundary case (${boundary})`
      : `${boundary} of ${all} boundary cases (cut: ${cut.join(', ')})`;
  const detail =
    `${running.length} propert${running.length === 1 ? 'y' : 'ies'}, ` +
    `${boundaries} ` +
    `and ${generated} generated, at most ${count(plan.spend.calls, 'call')} and ` +
    `${count(plan.spend.rows, 'row')} of the budget of ${budget}; ` +
    `${plan.properties.length - running.length} not reached`;
  return { status: 'plan', id: 'plan', plan: config.plan, detail };
}

export function propertyOutcome(result: PropertyResult, plan: string): Outcome {
  const spent =
    `${coverageText(result)}, ${count(result.spent.calls, 'call')}, ` +
    `${count(result.spent.rows, 'row')}${result.stoppedByBudget ? ' (stopped by the budget)' : ''}`;
  if (result.status === 'skipped')
    return { status: 'skipped', id: result.id, plan, detail: result.reason ?? 'skipped' };
  // A rule's findings alone: the rule's own line, at the run's end, counts them once.
  const by = result.failure?.rules?.length ? `by rule ${result.failure.rules.join(', ')} alone: ` : '';
  if (result.failure)
    return {
      status: 'broken',
      id: result.id,
      plan,
      detail: `${spent}: ${by}${short(gotFirst(result.failure.message))}`,
    };
  return { status: 'held', id: result.id, plan, detail: spent };
}

export function ruleOutcome(result: RuleResult, calls: number, plan: string): Outcome {
  const id = `rule ${result.id}`;
  if (!result.violations) return { status: 'held', id, plan, detail: `${count(calls, 'call')} checked` };
  return {
    status: 'broken',
    id,
    plan,
    detail:
      `${count(result.violations, 'violation')} in ${count(calls, 'call')}: ` +
      short(result.examples[0] ? exampleLine(result.examples[0]) : ''),
  };
}

export class PropertyLines implements Reporter {
  private vitest?: Vitest;
  private readonly options: { header?: string; plans?: boolean; viaVitest?: boolean };
  private headerSaid = false;
  /** Properties and rules that got a result: none means the run never started. */
  private results = 0;
  /** What kept a suite, the file or the run from going on, said at the run's end (or by startProblem). */
  private readonly problems: string[] = [];
  private modules = -1;

  /**
   * `header`: the line that opens the run, said before its first result (a run that cannot start
   * says so in one line, and nothing else). `plans`: the run has a suite per key, so each line names
   * the plan. `viaVitest`: write through vitest's logger (with --verbose, whose terminal summary is
   * redrawn below the lines), else straight to stdout (vitest's own output then goes nowhere).
   */
  constructor(options: { header?: string; plans?: boolean; viaVitest?: boolean } = {}) {
    this.options = options;
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestCaseResult(testCase: TestCase): void {
    const outcome = (testCase.meta() as Record<string, unknown>)[outcomeKey] as Outcome | undefined;
    const { state } = testCase.result();
    if (outcome) this.results += 1;
    // A rule is judged over every call at the end: only a broken one is worth a line of its own.
    if (outcome && !(outcome.id.startsWith('rule ') && outcome.status === 'held')) this.line(outcome);
    // No outcome: not selected with --only (no line), or it failed before it got one (its suite's
    // error says why, once).
    else if (!outcome && state === 'failed' && !testCase.parent.errors?.().length)
      this.line({
        status: 'broken',
        id: testCase.name.split(':')[0]!,
        plan: '',
        detail: errorText(testCase.result().errors ?? []),
      });
  }

  /**
   * A hook that failed (a suite that could not get ready, or could not write its report) fails its
   * tests with no outcome.
   */
  onTestSuiteResult(testSuite: TestSuite): void {
    if (testSuite.errors().length)
      this.problems.push(`could not run ${testSuite.name}: ${errorText(testSuite.errors())}`);
  }

  onTestModuleEnd(testModule: TestModule): void {
    if (testModule.errors().length) this.problems.push(`could not load the suite: ${errorText(testModule.errors())}`);
  }

  onTestRunEnd(modules: readonly TestModule[], unhandled: readonly SerializedError[]): void {
    this.modules = modules.length;
    if (unhandled.length) this.problems.push(`an error outside any test: ${errorText(unhandled)}`);
    // A run that started says what went wrong among its lines; one that never did leaves it to startProblem.
    if (this.results) for (const problem of this.problems) this.say(`  ${problem}`);
  }

  /**
   * Why the run produced no result at all (the suite did not load, its set-up threw, no suite file),
   * for the CLI's one line and exit 3; null when it produced some. vitest's own reporter, off by
   * default, was the only one that said this.
   */
  startProblem(suite: string): string | null {
    if (this.results) return null;
    if (this.modules === 0)
      return `the suite file ${suite} is missing (a broken install? reinstall @investor-graph/contract-tests)`;
    return this.problems.join('; ') || null;
  }

  private line({ status, id, plan, detail }: Outcome): void {
    // With a suite per key, the key's plan is a column of its own.
    const key = this.options.plans ? `${plan.padEnd(10)} ` : '';
    this.say(`  ${status.padEnd(8)} ${key}${id.padEnd(17)} ${detail}`);
  }

  private say(line: string): void {
    if (this.options.header && !this.headerSaid) {
      this.headerSaid = true;
      this.say(this.options.header);
    }
    if (this.options.viaVitest && this.vitest) this.vitest.logger.log(line);
    else process.stdout.write(`${line}\n`);
  }
}

/**
 * Errors as a line or two: the first non-empty lines of the first (whole, about 300 characters:
 * an esbuild error says what failed on its first line and where on the next), and how many more.
 */
export function errorText(errors: readonly { message?: string }[], max = 300): string {
  const lines = (errors[0]?.message ?? 'no message')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let first = lines[0] ?? 'no message';
  for (const next of lines.slice(1)) {
    if (first.length + next.length + 1 > max) break;
    first = `${first} ${next}`;
  }
  if (first.length > max) first = `${first.slice(0, max - 1)}…`;
  return errors.length > 1 ? `${first} (and ${errors.length - 1} more)` : first;
}
