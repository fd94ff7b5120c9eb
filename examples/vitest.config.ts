import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'examples', testTimeout: 180_000, hookTimeout: 600_000 },
});
