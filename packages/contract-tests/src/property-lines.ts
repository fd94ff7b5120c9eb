/**
 * A vitest reporter for the CLI: one line per property as it finishes, with what it spent, in every
 * mode. vitest's default reporter prints a file's tests when the file ends, which in CI (no
 * terminal to redraw) means half a minute of nothing and then everything at once.
 */
import type { Reporter, TestCase, Vitest } from 'vitest/node';

export class PropertyLines implements Reporter {
  private vitest?: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestCaseResult(testCase: TestCase): void {
    const { state } = testCase.result();
    const [id] = testCase.name.split(':');
    // The rules are judged together at the end; only a broken one is worth a line of its own.
    if (id!.startsWith('rule ') && state !== 'failed') return;
    const label = state === 'passed' ? 'ok  ' : state === 'failed' ? 'FAIL' : 'skip';
    const spent = testCase.annotations().map((a) => a.message).join('; ');
    const line = `[contract-tests] ${label} ${id}${spent ? `: ${spent}` : ''}`;
    if (this.vitest) this.vitest.logger.log(line);
    else console.log(line);
  }
}
