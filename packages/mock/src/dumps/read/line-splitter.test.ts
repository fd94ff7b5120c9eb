import { expect, test } from 'vitest';
import { LineSplitter } from './line-splitter.ts';

/** The lines `splitter` tells of `chunks`, with their numbers; a line past the bound ends them with its number. */
function split(chunks: Buffer[], bound?: number): (string | number)[][] {
  const lines: (string | number)[][] = [];
  const tooLong = (number: number): never => {
    throw new Error(`line ${number} too long`);
  };
  const splitter = new LineSplitter((text, number) => lines.push([number, text]), tooLong, bound);
  try {
    for (const chunk of chunks) splitter.push(chunk);
    splitter.end();
  } catch (error) {
    lines.push(['refused', (error as Error).message]);
  }
  return lines;
}

/** `bytes` cut every `size` bytes. */
const cut = (bytes: Buffer, size: number): Buffer[] =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

test('lines cut into chunks of any size, characters split between chunks, come out whole and numbered', () => {
  const text = 'first €\n\nthird 😀 é\n{"name":"ünïcödé"}\nlast, with no newline';
  const expected = text.split('\n').map((line, i) => [i + 1, line]);
  for (let size = 1; size <= text.length + 1; size++)
    expect(split(cut(Buffer.from(text), size)), `${size}`).toEqual(expected);
});

test('a text that ends in a newline has no empty last line', () => {
  expect(split([Buffer.from('a\nb\n')])).toEqual([
    [1, 'a'],
    [2, 'b'],
  ]);
});

test('a line past the bound is told by its number as soon as its bytes pass it, before its end comes', () => {
  const chunks = [Buffer.from('0123\n0123456'), Buffer.from('789')];
  // Refused on the first chunk's bytes: the second never needed.
  expect(split(chunks, 5)).toEqual([
    [1, '0123'],
    ['refused', 'line 2 too long'],
  ]);
  expect(split([Buffer.from('01234\n'), Buffer.from('012345\n')], 5)).toEqual([
    [1, '01234'],
    ['refused', 'line 2 too long'],
  ]);
});
