/**
 * What may be written down of a request or an answer: logs, reports and JUnit files get paths and
 * excerpts through here, so no key reaches them in any form. A key is found three ways: by the
 * parameter that carries it (key, token, ...), by the kit's own key form (igk_...), and by the look
 * of a secret (a long run of letters and digits, which slugs, dates and short ids are not), each
 * after percent-decoding, so `igk%5F...` is caught as `igk_...` is.
 */

const secretParameter = /^(key|api[-_]?key|apikey|token|access[-_]?token|auth|authorization|password|secret|signature|sig)$/i;
const kitKey = /igk_[A-Za-z0-9_]+/g;
/** A run of letters, digits and underscores (found in one linear pass: no lookahead to backtrack on). */
const run = /[A-Za-z0-9_]+/g;
/** 24+ letters, digits or underscores with both letters and digits: a generated secret's shape; slugs (hyphens), dates and short ids are not. */
const looksSecret = (word: string): boolean => word.length >= 24 && /\d/.test(word) && /[A-Za-z]/.test(word);
/** `text` with every secret-shaped run replaced by `by`. */
const blankSecrets = (text: string, by: string): string => text.replace(run, (word) => (looksSecret(word) ? by : word));

/** The key of an `Authorization: Bearer KEY` header, of whatever form: a request's own key, to blank wherever else it sent it. */
export function bearerOf(header: string | null | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}

/**
 * Percent-decoding until nothing changes (a key encoded twice is a key), at most six times; text
 * that still decodes after that is taken for a key hidden deeper (null).
 */
function decode(text: string): string | null {
  let out = text;
  for (let i = 0; i < 7; i++) {
    if (i === 6) return null;
    let next: string;
    try {
      next = decodeURIComponent(out.replace(/\+/g, ' '));
    } catch {
      next = out.replace(/%([0-9a-f]{2})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Whether decoded text holds a key: the kit's form, a secret's shape, or one of `known` (preset keys of any form). */
function holdsKey(decoded: string | null, known: readonly string[]): boolean {
  if (decoded === null) return true;
  kitKey.lastIndex = 0;
  return kitKey.test(decoded) || blankSecrets(decoded, '\u0000') !== decoded || known.some((k) => k.length >= 8 && decoded.includes(k));
}

/** One path segment or query value as it may be shown. */
function redactValue(value: string, known: readonly string[]): string {
  return holdsKey(decode(value), known) ? '***' : value;
}

/**
 * Whether a target without a query has nothing redactPath would blank, told without splitting it:
 * nothing to decode (no `%` or `+`), no `igk_`, no run long enough to look secret, no known key.
 * Most problems echo such a path (profiled: splitting and decoding it was about a sixth of a 401).
 */
function plainPath(target: string, known: readonly string[]): boolean {
  return !/[?%+]|igk_|[A-Za-z0-9_]{24}/.test(target) && !known.some((k) => k.length >= 8 && target.includes(k));
}

/**
 * A request target (path and query) as it may be logged or echoed: cursors shortened, anything
 * key-like blanked, in any encoding, under any parameter. `known` are keys of forms no pattern
 * knows (preset ones, the request's own).
 */
export function redactPath(target: string, known: readonly string[] = []): string {
  if (plainPath(target, known)) return target;
  const at = target.indexOf('?');
  const path = (at === -1 ? target : target.slice(0, at)).split('/').map((segment) => redactValue(segment, known)).join('/');
  if (at === -1) return path;
  const query = target.slice(at + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    if (secretParameter.test(decode(name) ?? '')) return `${name}=***`;
    // A cursor is opaque and long by design: its start is enough to tell two apart; a key sent
    // as one is blanked whole.
    if (decode(name) === 'cursor') {
      const decoded = decode(value);
      kitKey.lastIndex = 0;
      if (decoded === null || kitKey.test(decoded) || known.some((k) => k.length >= 8 && decoded.includes(k))) return `${name}=***`;
      return `${name}=${value.slice(0, 16)}${value.length > 16 ? '...' : ''}`;
    }
    return eq === -1 ? redactValue(pair, known) : `${redactValue(name, known)}=${redactValue(value, known)}`;
  });
  return `${path}?${query.join('&')}`;
}

/** A problem's detail with keys blanked: the kit's form and `known` ones (a slug-shaped preset key echoed in it). */
export function redactKeys(text: string, known: readonly string[] = []): string {
  let out = text.replace(kitKey, 'igk_***');
  for (const k of known) if (k.length >= 8) out = out.split(k).join('***');
  return out;
}

/** Free text (a body excerpt) with every key-like run blanked, whatever its form, and `known` keys. */
export function redactText(text: string, known: readonly string[] = []): string {
  let out = blankSecrets(
    text
      .replace(/igk(?:_|%5F|\\u005f)[A-Za-z0-9_%]+/gi, 'igk_***')
      .replace(/("(?:key|api_key|token|access_token|password|secret)"\s*:\s*")[^"]*"/gi, '$1***"'),
    '***',
  );
  for (const k of known) if (k.length >= 8) out = out.split(k).join('***');
  return out;
}

/**
 * A log line's text with every control character (newline, CR, ESC, ...) shown escaped, so no text
 * from a request or an answer can start a line of its own or drive a terminal; and every
 * bidirectional control, which would reorder the line around it.
 */
export function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
