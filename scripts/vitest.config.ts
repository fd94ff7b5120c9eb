import { defineProject } from 'vitest/config';

// The repository's own scripts (the test runner's unit-tier guard), not a published package.
export default defineProject({
  test: { name: 'scripts', setupFiles: ['./unit-tier.ts'], testTimeout: 60_000 },
});
