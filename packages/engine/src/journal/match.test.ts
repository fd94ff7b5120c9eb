import { expect, test } from 'vitest';
import { parseIncident } from '../incidents/parse.ts';
import { globMatches, PATTERN_MAX_LENGTH, PATTERN_MAX_STARS } from './match.ts';
import { parseExpectation, parsePageQuery } from './parse.ts';

/** The reading every glob engine agrees on: `*` as `.*`, the rest as itself (used here on short texts only). */
const reference = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );

/** Every string of `alphabet` up to `length` characters, the empty one first. */
function allStrings(alphabet: string[], length: number): string[] {
  const out = [''];
  for (let from = 0; out[from]!.length < length; from++) for (const c of alphabet) out.push(out[from] + c);
  return out;
}

test('a glob names the same texts as the regular expression it stands for, on every short pattern and text', () => {
  const texts = allStrings(['a', 'b', '/'], 6);
  const differ: string[] = [];
  for (const pattern of allStrings(['a', 'b', '*'], 5)) {
    const regex = reference(pattern);
    for (const text of texts) if (globMatches(pattern, text) !== regex.test(text)) differ.push(`${pattern} ~ ${text}`);
  }
  expect(differ).toEqual([]);
});

test('a path pattern keeps its meaning: a prefix, a suffix, parts in order, and the text itself without a star', () => {
  expect(globMatches('/api/v1/firms/*', '/api/v1/firms/harbor-lane')).toBe(true);
  expect(globMatches('/api/v1/firms/*', '/api/v1/firms')).toBe(false);
  expect(globMatches('*/portfolio', '/api/v1/firms/harbor-lane/portfolio')).toBe(true);
  expect(globMatches('/api/*/firms/*/funds', '/api/v1/firms/a/funds')).toBe(true);
  expect(globMatches('/api/*/funds/*/firms', '/api/v1/firms/a/funds')).toBe(false);
  expect(globMatches('*ab*ba*', 'aba')).toBe(false);
  expect(globMatches('/api/v1/firms', '/api/v1/firms')).toBe(true);
  expect(globMatches('', '')).toBe(true);
  expect(globMatches('*', '')).toBe(true);
});

// Regression: each `*` was `.*` in a regular expression, and "*a*a*a*b" over a 1,014-character path
// had not finished after 10 s (the mock frozen for every key meanwhile). The match is now linear.
test('a pattern of many stars over a long path that nearly matches is answered, not backtracked', () => {
  const path = `/api/v1/firms/${'a'.repeat(6000)}`;
  const hostile = `*${'a*'.repeat(PATTERN_MAX_STARS - 1)}b`;
  expect(globMatches(hostile, path)).toBe(false);
  expect(globMatches(`*${'a*'.repeat(PATTERN_MAX_STARS - 1)}a`, path)).toBe(true);
  for (let i = 0; i < 12_000; i++) globMatches('*a*b', path);
});

test('a pattern past its bounds is refused naming the member: a verification, a journal page, an incident', () => {
  const starry = `/api/v1/*${'*'.repeat(PATTERN_MAX_STARS)}`;
  const long = `/api/v1/${'a'.repeat(PATTERN_MAX_LENGTH)}`;
  expect(parseExpectation({ pattern: { path: starry } })).toEqual({
    ok: false,
    errors: [{ pointer: '/pattern/path', detail: `may hold at most ${PATTERN_MAX_STARS} *` }],
  });
  expect(parseExpectation({ pattern: { path: long } })).toMatchObject({
    ok: false,
    errors: [{ pointer: '/pattern/path', detail: `must be at most ${PATTERN_MAX_LENGTH} characters` }],
  });
  expect(parsePageQuery(new URLSearchParams({ path: starry }))).toMatchObject({
    ok: false,
    errors: [{ parameter: 'path', detail: `may hold at most ${PATTERN_MAX_STARS} *` }],
  });
  expect(parsePageQuery(new URLSearchParams({ operation: 'x'.repeat(501) }))).toMatchObject({ ok: false });
  expect(parseIncident({ kind: 'outage', match: { path: starry } })).toMatchObject({
    ok: false,
    errors: [{ pointer: '/match/path', detail: `may hold at most ${PATTERN_MAX_STARS} *` }],
  });
  const most = `/api/v1/${'*'.repeat(PATTERN_MAX_STARS)}`;
  expect(parseExpectation({ pattern: { path: most } }).ok).toBe(true);
  expect(parseIncident({ kind: 'outage', match: { path: most } }).ok).toBe(true);
});
