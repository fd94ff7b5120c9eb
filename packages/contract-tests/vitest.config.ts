import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'contract-tests',
    setupFiles: ['../../scripts/unit-tier.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
