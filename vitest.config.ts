import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'load', 'examples'],
    // Screenshots and other files tests attach (context.annotate) land beside the JUnit file.
    attachmentsDir: 'test-results/attachments',
    reporters: ['default', ['junit', { outputFile: 'test-results/junit.xml' }], ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
