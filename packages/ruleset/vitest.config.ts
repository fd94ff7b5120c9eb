import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'ruleset', setupFiles: ['../../scripts/unit-tier.ts'], testTimeout: 60_000 },
});
