import { expect, test } from 'vitest';
import { xmlText } from './index.ts';

test('markup characters are escaped, for character data and for a quoted attribute alike', () => {
  expect(xmlText('a < b && "c" > d')).toBe('a &lt; b &amp;&amp; &quot;c&quot; &gt; d');
});

test(`what XML 1.0 forbids is dropped: control characters, lone surrogates, U+FFFE and U+FFFF; tabs and line breaks \
stay`, () => {
  expect(xmlText('a\x00b\x07c\x1bd\x7f\te\nf\rg')).toBe('abcd\x7f\te\nf\rg');
  expect(xmlText('x\ud800y\udc00z\ufffe\uffff')).toBe('xyz');
});

test('characters beyond the Basic Multilingual Plane (a surrogate pair) are kept whole', () => {
  expect(xmlText('rocket 🚀 and 𝔘')).toBe('rocket 🚀 and 𝔘');
});
