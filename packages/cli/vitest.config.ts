import { defineProject } from 'vitest/config';

export default defineProject({
  // Its tests start headless Chromium, which on a loaded 2-CPU machine took past vitest's 5 s default (as the other
  // packages' do, a bound, not a timed assertion).
  test: { name: 'cli', setupFiles: ['../../scripts/unit-tier.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
