import { expect, test } from 'vitest';
import { cutBody } from './cut-body.ts';

const page = JSON.stringify({
  data: Array.from({ length: 40 }, (_, i) => ({ slug: `firm-${i}`, name: `Firm ${i}`, tags: ['vc', 'seed'] })),
  next_cursor: null,
});

test('a body that fits is shown whole, with no note', () => {
  expect(cutBody('{"data":[]}', 300)).toBe('{"data":[]}');
});

test('a nested JSON page is cut after the last whole row that fits, brackets closed, counting bytes left out', () => {
  const kept =
    '{"data":[{"slug":"firm-0","name":"Firm ' +
    '0","tags":["vc","seed"]},{"slug":"firm-1","name":"Firm 1","tags":["vc","seed"]}';
  expect(page.startsWith(kept)).toBe(true);
  expect(cutBody(page, 120)).toBe(`${kept},…]} (${(page.length - kept.length).toLocaleString('en')} more bytes)`);
});

test('a row too long to show whole is cut after its last whole member, never inside a value', () => {
  const long = JSON.stringify({ data: [{ slug: 'a', description: 'x'.repeat(500), name: 'A' }] });
  expect(cutBody(long, 100)).toBe(`{"data":[{"slug":"a",…}]} (${long.length - 20} more bytes)`);
});

test('a long string at the top is left out whole, its place said', () => {
  const problem = JSON.stringify({ detail: 'y'.repeat(400), status: 400 });
  expect(cutBody(problem, 100)).toBe(`{…} (${problem.length - 1} more bytes)`);
});

test('numbers, literals and escaped quotes end where they end', () => {
  const text = JSON.stringify({ a: 12345, b: true, c: 'say "hi"', d: null, e: 'z'.repeat(300) });
  const kept = '{"a":12345,"b":true,"c":"say \\"hi\\"","d":null';
  expect(cutBody(text, 60)).toBe(`${kept},…} (${text.length - kept.length} more bytes)`);
});

test('a body that is not JSON is cut between characters, an emoji never split, with the same note', () => {
  const html = `<html>${'😀'.repeat(200)}</html>`;
  const shown = cutBody(html, 9);
  // 813 bytes: the tags' 13 and 200 emoji of 4; 10 shown.
  expect(shown).toBe('<html>😀… (803 more bytes)');
  // Invalid JSON (a gateway's truncated answer) is not dressed up as JSON.
  expect(cutBody(`{"data":[${'1,'.repeat(200)}`, 10)).toBe(`{"data":[1… (${9 + 400 - 10} more bytes)`);
});
