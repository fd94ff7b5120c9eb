/**
 * A body shown in a failure, cut to a length a reader can take in. A JSON body is cut after the
 * last complete value or member that fits, its open brackets closed again, so that what is shown
 * still reads as JSON (`{"data":[{"slug":"a"},…]}`); anything else is cut between characters.
 * Either way it says how many bytes were left out. A cut in the middle of a field (what
 * `text.slice(0, 300)` gave) showed half a value that looked like the service's own.
 */

/** `text` whole when it is at most `max` characters, else cut as above with `(N more bytes)`. */
export function cutBody(text: string, max = 300): string {
  if (text.length <= max) return text;
  const json = isJson(text) ? jsonCut(text, max) : null;
  const kept = json?.kept ?? text.slice(0, charBoundary(text, max));
  const shown = json ? `${kept}${json.tail}` : `${kept}…`;
  return `${shown} (${(byteLength(text) - byteLength(kept)).toLocaleString('en')} more bytes)`;
}

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

function isJson(text: string): boolean {
  if (!/^\s*[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `at`, or one less when it would split a surrogate pair (an emoji, say) in two. */
function charBoundary(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/**
 * Scans the JSON text for the places a cut leaves well-formed JSON but for the rest: after a
 * complete value or member inside a bracket, or, before any, after an opening bracket. The last
 * such place within `max` is where it is cut; `tail` is `…` (after a comma's place when more followed) and the
 * brackets still open there, closed.
 */
function jsonCut(text: string, max: number): { kept: string; tail: string } {
  const open: string[] = [];
  let cut = { at: 0, closers: '', whole: false };
  // Once a value is whole, a later opening bracket is no better a place: `[{"a":1},…]`, not `[{"a":1},{…}]`.
  const mark = (at: number, whole = true) => {
    if (at <= max && (whole || !cut.whole))
      cut = {
        at,
        closers: open
          .map((c) => (c === '{' ? '}' : ']'))
          .reverse()
          .join(''),
        whole,
      };
  };
  // In an object, a string is a key until its colon: only the value after it completes a member.
  let key = false;
  for (let i = 0; i < text.length && i <= max; i++) {
    const c = text[i]!;
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      i = end;
      if (!key) mark(i + 1);
    } else if (c === '{' || c === '[') {
      open.push(c);
      key = c === '{';
      mark(i + 1, false);
    } else if (c === '}' || c === ']') {
      open.pop();
      key = false;
      if (open.length) mark(i + 1);
    } else if (c === ',') key = open.at(-1) === '{';
    else if (c === ':') key = false;
    else if (/[-\d.eE+a-z]/.test(c) && !/[-\d.eE+a-z]/.test(text[i + 1] ?? '')) mark(i + 1);
  }
  const more = /^\s*,/.test(text.slice(cut.at));
  return { kept: text.slice(0, cut.at), tail: `${more ? ',' : ''}…${cut.closers}` };
}
