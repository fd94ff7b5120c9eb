/**
 * Text as XML 1.0 character data or a quoted attribute value, for the JUnit files the kit's tools
 * write (the contract diff's, the validation proxy's). What a service sent can hold anything: the
 * characters XML 1.0 forbids (control characters, a lone surrogate, U+FFFE and U+FFFF) are dropped,
 * since a CI server's strict JUnit reader refuses the whole file over one of them.
 */
export function xmlText(text: string): string {
  // `u`: a surrogate pair is one character (kept); a lone surrogate matches on its own (dropped).
  return text
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
