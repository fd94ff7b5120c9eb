import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'dataset-tools', setupFiles: ['../../scripts/unit-tier.ts'], testTimeout: 120_000 },
});
