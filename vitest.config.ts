import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The install test (publish to a local registry, npm install, then its checks) runs for minutes on
 * one worker; started first, it overlaps everything else instead of ending the run alone.
 */
class InstallTestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => f.moduleId.endsWith('/examples/installed/installed.test.ts');
    return [...sorted.filter(first), ...sorted.filter((f) => !first(f))];
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
    sequence: { sequencer: InstallTestFirst },
    // Screenshots and other files tests attach (context.annotate) land beside the JUnit file.
    attachmentsDir: 'test-results/attachments',
    reporters: [
      'default',
      ['junit', { outputFile: 'test-results/junit.xml' }],
      ['json', { outputFile: 'test-results/vitest.json' }],
    ],
  },
});
