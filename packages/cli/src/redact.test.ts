import { expect, test } from 'vitest';
import { redactPath, redact } from './redact.ts';

const key = 'igk_team_u5gMaPea1WrYK9fMYU0C9caUagKi3mzn';

test(
  'a key in a query is blanked in every form: as sent, ' +
    'percent-encoded, under a key-ish name, or of another format',
  () => {
    for (const target of [
      `/api/v1/firms?key=${key}`,
      `/api/v1/firms?limit=1&x=${encodeURIComponent(key).replace('_', '%5F')}`,
      `/api/v1/firms?api_key=short`,
      '/api/v1/firms?token=sk_live_4eC39HqLyjWDarjtT1zdp7dc',
      `/api/v1/firms/${key}`,
    ]) {
      const shown = redactPath(target);
      expect(shown, target).not.toMatch(/u5gMaPea|4eC39HqL|short/);
      expect(shown).toContain('***');
    }
  },
);

test('what identifies a request stays: paths, slugs, limits, dates, and the start of a cursor', () => {
  expect(redactPath('/api/v1/firms/harbor-lane-capital/portfolio?limit=50')).toBe(
    '/api/v1/firms/harbor-lane-capital/portfolio?limit=50',
  );
  expect(redactPath('/api/v1/changes?since=2026-11-01T00:00:00Z&include=rows')).toBe(
    '/api/v1/changes?since=2026-11-01T00:00:00Z&include=rows',
  );
  expect(redactPath('/api/v1/firms?cursor=eyJhIjoxLCJiIjoyfQ.c2lnbmF0dXJlc2lnbmF0dXJl')).toBe(
    '/api/v1/firms?cursor=eyJhIjoxLC...',
  );
  expect(redactPath('/api/v1/firms/stonebridge-crest-corporate-ventures-2/funds')).toBe(
    '/api/v1/firms/stonebridge-crest-corporate-ventures-2/funds',
  );
});

test('an excerpt loses every key it holds: the trial answer, an escaped one, a bearer header echoed back', () => {
  const text = JSON.stringify({
    key,
    note: `${key.replace('_', '\\u005f')} and Bearer ${key}`,
    other: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  });
  const shown = redact(text);
  expect(shown).not.toMatch(/u5gMaPea|4eC39HqL/);
  expect(redact('{"name":"Harbor Lane Capital","slug":"harbor-lane-capital"}')).toBe(
    '{"name":"Harbor Lane Capital","slug":"harbor-lane-capital"}',
  );
});

test('a path with nothing key-like comes back as it is, and one that holds a key of any form still loses it', () => {
  for (const plain of [
    '/api/v1/firms',
    '/api/v1/firms/harbor-lane-capital',
    '/',
    '',
    `/api/v1/firms/${'a'.repeat(23)}`,
  ])
    expect(redactPath(plain)).toBe(plain);
  // Each of these once passed the quick look: a key's form, a secret's length, a known key, an escape, a '+'.
  expect(redactPath(`/api/v1/firms/${key}`)).toBe('/api/v1/firms/***');
  expect(redactPath(`/api/v1/firms/${'a1'.repeat(12)}`)).toBe('/api/v1/firms/***');
  expect(redactPath('/api/v1/firms/my-own-preset-key', ['my-own-preset-key'])).toBe('/api/v1/firms/***');
  expect(redactPath(`/api/v1/firms/${encodeURIComponent(key).replace('_', '%5F')}`)).toBe('/api/v1/firms/***');
  expect(redactPath(`/api/v1/firms/igk+${key.slice(4)}`)).toBe('/api/v1/firms/***');
  // And each caught by one check alone: a short key of the kit's form,
  // one hidden by escapes, a preset one sent with '+' for its spaces.
  expect(redactPath('/api/v1/firms/igk_ab')).toBe('/api/v1/firms/***');
  expect(redactPath('/api/v1/firms/%69gk_ab')).toBe('/api/v1/firms/***');
  expect(redactPath('/api/v1/firms/my+preset+key', ['my preset key'])).toBe('/api/v1/firms/***');
});

test('a plain query comes back as sent, and one naming a secret or a cursor is still rewritten, in any case', () => {
  for (const plain of ['/api/v1/firms?limit=20&sort=name', '/api/v1/firms?keyword=x&tokens=2', '/a&key=1'])
    expect(redactPath(plain)).toBe(plain);
  expect(redactPath('/api/v1/firms?limit=1&Token=abc')).toBe('/api/v1/firms?limit=1&Token=***');
  expect(redactPath('/api/v1/firms?password=x&limit=1')).toBe('/api/v1/firms?password=***&limit=1');
  expect(redactPath('/api/v1/firms?key')).toBe('/api/v1/firms?key=***');
  expect(redactPath('/api/v1/firms?limit=1&cursor=abcdefghijklmn')).toBe('/api/v1/firms?limit=1&cursor=***');
});
