import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'load', setupFiles: ['../scripts/unit-tier.ts'], testTimeout: 120_000, hookTimeout: 600_000 },
});
