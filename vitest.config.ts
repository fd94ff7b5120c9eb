import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'load'],
    reporters: ['default', ['junit', { outputFile: 'test-results/junit.xml' }], ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
