import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'ruleset', testTimeout: 60_000 },
});
