import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file this long (its last run's time) is started among the first, whatever its project. */
const LONG_MS = 30_000;

/**
 * The long files first, longest first, whatever their project: vitest orders files by project
 * (alphabetically) and only then by how long they took last time, so a long file of a late project
 * (the ruleset's OWASP test, a minute) started near the end and ended the run alone. The install
 * test (publish to a local registry, npm install, then its checks) goes first even with no times
 * yet, as on a fresh clone: it runs for minutes on one worker. The rest keep vitest's order, so a
 * worker (one process for many files) mostly moves on within its project.
 */
class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const install = (f: TestSpecification) => f.moduleId.endsWith('/examples/installed/installed.test.ts');
    const took = (f: TestSpecification) =>
      install(f) ? Infinity : (this.ctx.cache.getTestSpecificationResult(f)?.duration ?? 0);
    const long = sorted.filter((f) => took(f) >= LONG_MS).sort((a, b) => took(b) - took(a));
    return [...long, ...sorted.filter((f) => took(f) < LONG_MS)];
  }
}
export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'load',
      'examples',
      'scripts',
      // The README's MSW example again where front-end tests run it, with the XHR example beside it
      // (*.dom-test.ts: it needs a DOM, so the node project's default include leaves it out).
      ...(['jsdom', 'happy-dom'] as const).map((environment) => ({
        extends: './examples/vitest.config.ts',
        test: {
          name: `examples-${environment}`,
          root: './examples',
          environment,
          include: ['integrator/with-msw.test.ts', 'integrator/*.dom-test.ts'],
        },
      })),
    ],
    // A test file that starts a server, a process, a browser or a registry says so in its first line
    // (`// @module-tag servers`); `pnpm test:unit` leaves those out and its guard (scripts/unit-tier.ts)
    // fails a file that starts one without saying so.
    tags: [{ name: 'servers', description: 'starts a server, a process, a browser or a registry' }],
    sequence: { sequencer: LongFilesFirst },
    // Screenshots and other files tests attach (context.annotate) land beside the JUnit file.
    attachmentsDir: 'test-results/attachments',
    reporters: [
      'default',
      ['junit', { outputFile: 'test-results/junit.xml' }],
      ['json', { outputFile: 'test-results/vitest.json' }],
    ],
  },
});
