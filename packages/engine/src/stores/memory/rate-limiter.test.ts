import { expect, test } from 'vitest';
import { MemoryRateLimiter } from './rate-limiter.ts';

test('a bucket holds its capacity, refills at its rate on the time it is given, and says how long to wait', () => {
  let now = 0;
  const limiter = new MemoryRateLimiter(() => now);
  expect(limiter.take('key', 'k', 2, 2)).toEqual({ wait: 0, left: 1 });
  expect(limiter.take('key', 'k', 2, 2)).toEqual({ wait: 0, left: 0 });
  expect(limiter.take('key', 'k', 2, 2).wait).toBe(1);
  now += 500;
  expect(limiter.take('key', 'k', 2, 2).wait).toBe(0);
  // peek takes nothing.
  now += 500;
  expect(limiter.peek('failed-auth', 'a', 1, 1)).toBe(0);
  expect(limiter.peek('failed-auth', 'a', 1, 1)).toBe(0);
});

test('limits off: every bucket is always full', () => {
  const limiter = new MemoryRateLimiter(() => 0, false);
  for (let i = 0; i < 10; i++) expect(limiter.take('key', 'k', 1, 1).wait).toBe(0);
  expect(limiter.peek('failed-auth', 'a', 0, 1)).toBe(0);
});
