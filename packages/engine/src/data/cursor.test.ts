import { expect, test } from 'vitest';
import { CursorCodec } from './cursor.ts';
import { ProblemError } from '../problems.ts';

const codec = new CursorCodec('a-secret-of-this-engine');

async function refusal(cursor: string, operationId = 'listFirms', filters = 'f1'): Promise<string> {
  const error = await codec.decode(cursor, operationId, filters).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  expect((error as ProblemError).code).toBe('invalid_cursor');
  return (error as ProblemError).detail;
}

test('a cursor gives back the last key it was made with, for the same endpoint and filters', async () => {
  const cursor = await codec.encode('listFirms', 'f1', 'harbor-lane-capital');
  expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  expect(await codec.decode(cursor, 'listFirms', 'f1')).toBe('harbor-lane-capital');
});

test('a cursor is refused on another endpoint or with other filters, saying which', async () => {
  const cursor = await codec.encode('listFirms', 'f1', 'k');
  expect(await refusal(cursor, 'listCompanies')).toMatch(/another endpoint/);
  expect(await refusal(cursor, 'listFirms', 'f2')).toMatch(/other filters/);
});

test("a changed payload, a cut signature or another engine's cursor is refused", async () => {
  const cursor = await codec.encode('listFirms', 'f1', 'k');
  const [payload, signature] = cursor.split('.') as [string, string];
  const forged = Buffer.from(JSON.stringify({ v: 1, o: 'listFirms', f: 'f1', k: 'zzz' })).toString('base64url');
  expect(await refusal(`${forged}.${signature}`)).toMatch(/altered/);
  expect(await refusal(`${payload}.${signature.slice(0, -2)}`)).toMatch(/malformed/);
  expect(await refusal(await new CursorCodec('another secret').encode('listFirms', 'f1', 'k'))).toMatch(/altered/);
});

test(
  'a cursor whose last character differs only in bits the bytes ' +
    "do not use is refused (found by the contract tests' flip case)",
  async () => {
    const cursor = await codec.encode('listFirms', 'f1', 'k');
    // 16 signature bytes are 22 characters; the last one carries 2 bits of them and 4 unused ones.
    const last = cursor.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(await refusal(`${cursor.slice(0, -1)}${twin}`)).toMatch(/malformed|altered/);
  },
);

test('what is no cursor at all is malformed, never a crash', async () => {
  for (const text of [
    '',
    '.',
    'abc',
    'a.b.c',
    '!!!.???',
    `${Buffer.from('not json').toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`,
  ]) {
    expect(await refusal(text), text).toMatch(/malformed|altered/);
  }
});

test(
  'a cursor already proved genuine is held to its endpoint and filters ' +
    'on every later use, and its neighbours still fail (the memo)',
  async () => {
    const cursor = await codec.encode('listFirms', 'f1', 'remembered-key');
    expect(await codec.decode(cursor, 'listFirms', 'f1')).toBe('remembered-key');
    // Remembered now: still refused on another endpoint or filters, however often it is asked.
    for (let i = 0; i < 3; i++) {
      expect(await refusal(cursor, 'listCompanies')).toMatch(/another endpoint/);
      expect(await refusal(cursor, 'listFirms', 'f2')).toMatch(/other filters/);
    }
    // A text one character off the remembered one is proved afresh, and fails.
    const last = cursor.at(-1) === 'A' ? 'B' : 'A';
    expect(await refusal(`${cursor.slice(0, -1)}${last}`)).toMatch(/altered|malformed/);
    // The same cursor is issued again for the same page, and another engine's codec does not know it.
    expect(await codec.encode('listFirms', 'f1', 'remembered-key')).toBe(cursor);
    const other = new CursorCodec('another-engine-secret');
    const error = await other.decode(cursor, 'listFirms', 'f1').then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as ProblemError).code).toBe('invalid_cursor');
  },
);
