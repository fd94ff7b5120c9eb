/**
 * Text a server sent, shown in a terminal or on a page: a control character cannot start a line or
 * drive the terminal, and a bidirectional control cannot reorder what is shown around it.
 */
import { expect, test } from 'vitest';
import { escapeBidi, printable } from './printable.ts';

// A served name that shows as `exe.txt` once its override reorders it.
const spoofed = 'report\u202etxt.exe';

test('every bidirectional embedding, override and isolate is shown as its escape, the rest of the text kept', () => {
  expect(escapeBidi(spoofed)).toBe('report\\u202etxt.exe');
  expect(escapeBidi('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069')).toBe(
    '\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069',
  );
  expect(escapeBidi('a\nb \u00e9 \u05d0\u05d1')).toBe('a\nb \u00e9 \u05d0\u05d1');
});

test('printable text shows control characters as \\xNN and bidirectional controls as \\uNNNN', () => {
  expect(printable(`a\nb\u001b[31m\u0085${spoofed}`)).toBe('a\\x0ab\\x1b[31m\\x85report\\u202etxt.exe');
});
