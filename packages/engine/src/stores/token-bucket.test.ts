import { expect, test } from 'vitest';
import { bucketStep } from './token-bucket.ts';

test('a full bucket gives a token, and an empty one says how many whole seconds until the next', () => {
  expect(bucketStep({ tokens: 5, elapsedMs: 0 }, 5, 5, 1)).toEqual({ wait: 0, left: 4, fullAfterMs: 1200 });
  expect(bucketStep({ tokens: 0, elapsedMs: 0 }, 2, 0.5, 1)).toEqual({ wait: 2, left: 0, fullAfterMs: 5000 });
  expect(bucketStep({ tokens: 0.5, elapsedMs: 0 }, 10, 10, 1).wait).toBe(1);
});

test('a bucket refills for the time since it was filled, never past its capacity, never backwards', () => {
  expect(bucketStep({ tokens: 0, elapsedMs: 500 }, 10, 10, 0)).toMatchObject({ wait: 0, left: 5 });
  expect(bucketStep({ tokens: 9, elapsedMs: 60_000 }, 10, 10, 0)).toMatchObject({ left: 10 });
  expect(bucketStep({ tokens: 3, elapsedMs: -5_000 }, 10, 10, 0)).toMatchObject({ left: 3 });
});

test('a token given back fills the bucket by one, up to its capacity; a look takes nothing', () => {
  expect(bucketStep({ tokens: 3, elapsedMs: 0 }, 10, 10, -1).left).toBe(4);
  expect(bucketStep({ tokens: 10, elapsedMs: 0 }, 10, 10, -1).left).toBe(10);
  expect(bucketStep({ tokens: 0.2, elapsedMs: 0 }, 10, 1, 0)).toMatchObject({ wait: 1, left: 0.2 });
});
