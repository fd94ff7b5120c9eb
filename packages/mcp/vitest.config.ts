import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'mcp', setupFiles: ['../../scripts/unit-tier.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
