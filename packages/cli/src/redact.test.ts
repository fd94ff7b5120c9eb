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

/** `text` in base64, and base64url without its padding. */
const base64 = (text: string) => btoa(text);
const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

// Regression (issue #66): base64 was not undone, so a problem holding a key so encoded reached stderr as sent.
test('a key in base64 or base64url is blanked, alone, after other text, inside a Basic header or in a path', () => {
  const custom = 'my-own-team-key-1234';
  for (const [text, known] of [
    [base64(key), []],
    [base64url(key), []],
    [`the service said: ${base64(`Bearer ${key}`)}`, []],
    [`Basic ${base64(`user:${key}`)}`, []],
    [`/api/v1/firms/${base64url(key)}/portfolio`, []],
    [base64(custom), [custom]],
    [`x${base64url(`a${custom}`)}`, [custom]],
    // Too short for a secret's shape once encoded: found only by reading the base64.
    [base64('pass-w0rd!'), ['pass-w0rd!']],
    [`Basic ${base64('ci:pass-w0rd!')}`, ['pass-w0rd!']],
  ] as const) {
    const shown = redact(text, known);
    expect(shown, text).toContain('***');
    for (const reading of [shown, ...(shown.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []).map((r) => safeAtob(r))])
      expect(reading, text).not.toMatch(/u5gMaPea|own-team|w0rd/);
  }
  expect(redactPath(`/api/v1/firms/${base64url(key)}`)).toBe('/api/v1/firms/***');
});

const safeAtob = (run: string): string => {
  try {
    return atob(run.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return '';
  }
};

// Regression (issue #66): half a key split across two query parameters (22 characters, under the
// 24-character secret shape) survived in the journal, and a key's first 28 characters reached stderr.
test("a part of a known key is blanked as the key is: its halves, its prefix, the end of the kit's form", () => {
  const custom = 'Zq4-custom-team-key-of-forty-characters!';
  expect(redactPath(`/api/v1/firms?a=${custom.slice(0, 20)}&b=${custom.slice(20)}`, [custom])).not.toMatch(
    /custom-team|forty-char/,
  );
  expect(redact(`refused: ${custom.slice(0, 28)}`, [custom])).toBe('refused: ***');
  expect(redact(`the key ended ${key.slice(-21)}`, [key])).toBe('the key ended ***');
  expect(redactPath(`/api/v1/firms?a=${key.slice(0, 22)}&b=${key.slice(22)}`, [key])).not.toMatch(/u5gMaPea|i3mzn/);
  // What no key holds stays: fewer than 12 of its characters in a row, text a key does not share, and
  // the kit's public prefix (an Enterprise key's plan, in a line that names the plan).
  const enterprise = 'igk_enterprise_Q3vX8mL2pR7tY1wZ5nB9cD4fG6h';
  expect(redact('the Enterprise plan: enterprise keys', [enterprise])).toBe('the Enterprise plan: enterprise keys');
  expect(redact(`refused ${enterprise.slice(0, 24)}`, [enterprise])).toBe('refused ***');
  expect(redact('the custom-team', [custom])).toBe('the custom-team');
  // A word of the kit's own that a key holds is not a part of it worth blanking (a problem's `instance`).
  expect(redact('{"instance":"/api/v1/firms"}', ['igk_team_instance_check_key_000001'])).toBe(
    '{"instance":"/api/v1/firms"}',
  );
  expect(redact('/api/v1/firms/harbor-lane-capital', [custom])).toBe('/api/v1/firms/harbor-lane-capital');
});

test('base64-looking text that reads as no key stays as it is: slugs, digests, dates, a cursor of the kit', () => {
  for (const text of [
    '/api/v1/firms/stonebridge-crest-corporate-ventures-2/funds',
    'W/"3f9a0c1b2d4e5f60"',
    '/api/v1/changes?since=2026-11-01T00:00:00Z&include=rows',
    'harbor-lane-capital-partners-fund-two',
  ])
    expect(redact(text, [key])).toBe(text);
});
