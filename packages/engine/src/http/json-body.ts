/**
 * Request bodies read as JSON strictly: JSON.parse keeps the last of a member given twice
 * (`{"email": "a", "email": "b"}`), so what a client meant is ambiguous and a check may judge one
 * value while another is used. A member given twice is refused instead (DECISIONS.md#problem-body).
 */
import { ProblemError } from '../problems.ts';

/**
 * The 415 for a body in a content coding (gzip, br, deflate...): bodies are read as sent, never
 * decoded (DECISIONS.md#status-codes), and RFC 7694 names what is taken in `Accept-Encoding`. Null
 * for none or `identity`. The Node server asks before it reads the body; the engine asks again, so
 * MSW and any other adapter answer alike.
 */
export function codedBody(contentEncoding: string | null | undefined): ProblemError | null {
  if (
    contentEncoding === null ||
    contentEncoding === undefined ||
    contentEncoding.split(',').every((c) => /^\s*(?:identity)?\s*$/i.test(c))
  )
    return null;
  return new ProblemError(
    'unsupported_media_type',
    'Request bodies are read as sent: Content-Encoding may be identity or left out; this server decodes no gzip, ' +
      'br or deflate.',
    { headers: { 'accept-encoding': 'identity' } },
  );
}

/** A JSON pointer's segment (RFC 6901). */
const segment = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON pointer of the first member given twice in one object of JSON text (valid JSON), or null. */
export function repeatedMember(text: string): string | null {
  const frames: { names: Set<string> | null; at: string; index: number }[] = [];
  let member = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      let next = end + 1;
      while (next < text.length && ' \t\r\n'.includes(text[next]!)) next++;
      const top = frames.at(-1);
      // A string followed by a colon in an object is a member's name.
      if (top?.names && text[next] === ':') {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.names.has(name)) return `${top.at}/${segment(name)}`;
        top.names.add(name);
        member = name;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      const top = frames.at(-1);
      const at = top ? `${top.at}/${segment(top.names ? member : String(top.index))}` : '';
      frames.push({ names: c === '{' ? new Set() : null, at, index: 0 });
    } else if (c === '}' || c === ']') {
      frames.pop();
    } else if (c === ',' && frames.at(-1)?.names === null) {
      frames.at(-1)!.index++;
    }
  }
  return null;
}

/**
 * The body's JSON value, or the 400 `invalid_body` that says why not: not JSON (`notJson`, the
 * detail to give), or a member given twice (naming it by its pointer).
 */
export function parseJsonBody(text: string, notJson: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProblemError('invalid_body', notJson, { extra: { errors: [{ pointer: '', detail: 'not valid JSON' }] } });
  }
  const repeated = repeatedMember(text);
  if (repeated !== null) {
    throw new ProblemError('invalid_body', `The member ${repeated} is given more than once; give each member once.`, {
      extra: { errors: [{ pointer: repeated, detail: 'given more than once' }] },
    });
  }
  return value;
}
