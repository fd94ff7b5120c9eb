import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'examples', setupFiles: ['../scripts/unit-tier.ts'], testTimeout: 180_000, hookTimeout: 600_000 },
});
