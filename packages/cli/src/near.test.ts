import { expect, test } from 'vitest';
import { editDistance, nearest, nearestFlag } from './near.ts';

test('a typo within two edits finds the known name, anything further finds none', () => {
  expect(nearest('limt', ['cursor', 'limit'])).toBe('limit');
  expect(nearest('--sclae', ['--seed', '--scale'])).toBe('--scale');
  expect(nearest('--colour', ['--port', '--host'])).toBeUndefined();
});

test('the distance is Levenshtein, capped one past the limit', () => {
  expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  expect(editDistance('a', 'abcdef')).toBe(3);
  expect(editDistance('same', 'same')).toBe(0);
});

test('a flag mistyped in its first word finds the longer flag it opens; a short or far one finds none', () => {
  const flags = ['--base-url', '--budget-calls', '--budget-rows', '--no-rate-burst', '--verbose'];
  expect(nearestFlag('--bugdet', flags)).toBe('--budget-calls');
  expect(nearestFlag('--bugdet-rows', flags)).toBe('--budget-rows');
  expect(nearestFlag('--no-rate', flags)).toBe('--no-rate-burst');
  expect(nearestFlag('--verbos', flags)).toBe('--verbose');
  expect([nearestFlag('--no', flags), nearestFlag('--colour', flags)]).toEqual([undefined, undefined]);
});
