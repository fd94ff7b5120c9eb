import { expect, test } from 'vitest';
import { redactPath, redactText } from './redact.ts';

const key = 'igk_team_u5gMaPea1WrYK9fMYU0C9caUagKi3mzn';

test('a key in a query is blanked in every form: as sent, percent-encoded, under a key-ish name, or of another format', () => {
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
});

test('what identifies a request stays: paths, slugs, limits, dates, and the start of a cursor', () => {
  expect(redactPath('/api/v1/firms/harbor-lane-capital/portfolio?limit=50')).toBe('/api/v1/firms/harbor-lane-capital/portfolio?limit=50');
  expect(redactPath('/api/v1/changes?since=2026-11-01T00:00:00Z&include=rows')).toBe('/api/v1/changes?since=2026-11-01T00:00:00Z&include=rows');
  expect(redactPath('/api/v1/firms?cursor=eyJhIjoxLCJiIjoyfQ.c2lnbmF0dXJlc2lnbmF0dXJl')).toBe('/api/v1/firms?cursor=eyJhIjoxLCJiIjoy...');
  expect(redactPath('/api/v1/firms/stonebridge-crest-corporate-ventures-2/funds')).toBe('/api/v1/firms/stonebridge-crest-corporate-ventures-2/funds');
});

test('an excerpt loses every key it holds: the trial answer, an escaped one, a bearer header echoed back', () => {
  const text = JSON.stringify({ key, note: `${key.replace('_', '\\u005f')} and Bearer ${key}`, other: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' });
  const shown = redactText(text);
  expect(shown).not.toMatch(/u5gMaPea|4eC39HqL/);
  expect(redactText('{"name":"Harbor Lane Capital","slug":"harbor-lane-capital"}')).toBe('{"name":"Harbor Lane Capital","slug":"harbor-lane-capital"}');
});
