/**
 * Text a server sent, made safe to show in a terminal or on a page. A control character could
 * start a line of its own or drive the terminal; a bidirectional embedding, override or isolate
 * (U+202A-U+202E, U+2066-U+2069) reorders what is shown around it, so that a served name can read
 * as another (`report\u202etxt.exe` shows as `reportexe.txt`). Browser-safe (no Node module).
 */

/** Every bidirectional embedding, override and isolate. */
const bidiControls = /[\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each bidirectional control shown as its escape (`\u202e`), every other character kept. */
export function escapeBidi(text: string): string {
  return text.replace(bidiControls, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** `text` on one line: control characters (C0, DEL, C1) as `\xNN`, bidirectional controls as `\uNNNN`. */
export function printable(text: string): string {
  return escapeBidi(
    text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`),
  );
}
