import { expect, test } from 'vitest';
import { editDistance, nearest } from './near.ts';

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
