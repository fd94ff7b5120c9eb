import { expect, test } from 'vitest';
import { BodySerialiser } from './serialise.ts';

const row = (slug: string, name: string) => ({ slug, name, stages: ['seed'], aum_usd: 1_500_000 });

test('a page serialises to exactly what JSON.stringify gives, remembered or not', () => {
  const s = new BodySerialiser();
  for (const body of [[row('a', 'A'), row('b', 'B')], row('c', 'C'), [], null, { name: 'x', rows: [1, 2] }]) {
    expect(s.serialise(body, true).json).toBe(JSON.stringify(body));
    expect(s.serialise(body, false).json).toBe(JSON.stringify(body));
  }
});

test('the tag follows the content: the same rows agree, a replaced row or another order differs', () => {
  const s = new BodySerialiser();
  const [a, b] = [row('a', 'A'), row('b', 'B')];
  const tag = s.serialise([a, b], true).tag;
  expect(s.serialise([a, b], true).tag).toBe(tag);
  expect(s.serialise([row('a', 'A'), row('b', 'B')], true).tag, 'equal content in new objects').toBe(tag);
  expect(s.serialise([b, a], true).tag).not.toBe(tag);
  // A rebuild replaces the object; the new one is serialised afresh.
  const renamed = { ...a, name: 'A renamed' };
  const after = s.serialise([renamed, b], true);
  expect(after.tag).not.toBe(tag);
  expect(after.json).toContain('A renamed');
});

test('past its bound it forgets the oldest rows and still answers right', () => {
  const s = new BodySerialiser(2);
  const rows = [row('a', 'A'), row('b', 'B'), row('c', 'C')];
  for (const r of rows) s.serialise(r, true);
  expect(s.serialise(rows, true).json).toBe(JSON.stringify(rows));
});

test('a body built per request is never remembered: the same object changed between calls serialises changed', () => {
  const s = new BodySerialiser();
  const stats = { name: 'rounds-by-year', rows: [{ year: 2025, rounds: 1 }] };
  const first = s.serialise(stats, false);
  stats.rows[0]!.rounds = 2;
  const second = s.serialise(stats, false);
  expect(second.json).toContain('"rounds":2');
  expect(second.tag).not.toBe(first.tag);
});

test(
  'a remembered page carries its UTF-8 bytes, the same as its ' +
    'JSON, and a page with one row replaced is serialised afresh',
  () => {
    const s = new BodySerialiser();
    const rows = [row('a', 'Ä'), row('b', 'B'), row('c', '€')];
    const first = s.serialise(rows, true);
    expect(new TextDecoder().decode(first.bytes)).toBe(JSON.stringify(rows));
    // The same rows in a new array: the remembered page.
    expect(s.serialise([...rows], true)).toBe(first);
    // Other page sizes from the same first row are pages of their own.
    expect(s.serialise(rows.slice(0, 2), true).json).toBe(JSON.stringify(rows.slice(0, 2)));
    const replaced = [rows[0]!, { ...rows[1]!, name: 'B renamed' }, rows[2]!];
    const after = s.serialise(replaced, true);
    expect(after.json).toBe(JSON.stringify(replaced));
    expect(new TextDecoder().decode(after.bytes)).toBe(JSON.stringify(replaced));
    expect(after.tag).not.toBe(first.tag);
  },
);

test('past its byte bound the page memory forgets the least recently used pages and still answers right', () => {
  const s = new BodySerialiser(50_000, 2_000);
  const pages = Array.from({ length: 20 }, (_, p) => Array.from({ length: 10 }, (_, i) => row(`p${p}-${i}`, 'N')));
  const first = pages.map((page) => s.serialise(page, true));
  // The newest page is still remembered (the same object back); the oldest was let go and is built afresh.
  expect(s.serialise(pages[19]!, true)).toBe(first[19]);
  expect(s.serialise(pages[0]!, true)).not.toBe(first[0]);
  for (const page of pages) expect(new TextDecoder().decode(s.serialise(page, true).bytes)).toBe(JSON.stringify(page));
});
