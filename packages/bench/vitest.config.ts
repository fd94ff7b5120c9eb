import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'bench', setupFiles: ['../../scripts/unit-tier.ts'], testTimeout: 180_000, hookTimeout: 60_000 },
});
