import { expect, test } from 'vitest';
import { retryDelay } from './app-client.ts';

test("the app waits Retry-After's seconds, as the mock and the service send it", () => {
  expect(retryDelay('2', 0)).toBe(2_000);
  expect(retryDelay(' 0 ', 3)).toBe(0);
});

test('a Retry-After given as an HTTP date is waited until, and one already past is not waited at all', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  expect(retryDelay('Fri, 27 Nov 2026 12:00:30 GMT', 0, now)).toBe(30_000);
  expect(retryDelay('Fri, 27 Nov 2026 11:59:00 GMT', 0, now)).toBe(0);
});

test('without a Retry-After the app backs off 1 s, 2 s, 4 s', () => {
  expect([0, 1, 2].map((attempt) => retryDelay(null, attempt))).toEqual([1_000, 2_000, 4_000]);
  expect(retryDelay('soon', 1)).toBe(2_000);
});
