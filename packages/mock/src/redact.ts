/**
 * What may be written down of a request or an answer: logs, reports and JUnit files get paths and
 * excerpts through here, so no key reaches them in any form. A key is found three ways: by the
 * parameter that carries it (key, token, ...), by the kit's own key form (igk_...), and by the look
 * of a secret (a long run of letters and digits, which slugs, dates and short ids are not), each
 * after percent-decoding, so `igk%5F...` is caught as `igk_...` is.
 */

const secretParameter = /^(key|api[-_]?key|apikey|token|access[-_]?token|auth|authorization|password|secret|signature|sig)$/i;
const kitKey = /igk_[A-Za-z0-9_]+/g;
/** 24+ letters, digits or underscores with both letters and digits: a generated secret's shape; slugs (hyphens), dates and short ids are not. */
const secretLooking = /(?=[A-Za-z0-9_]*\d)(?=[A-Za-z0-9_]*[A-Za-z])[A-Za-z0-9_]{24,}/g;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** One path segment or query value as it may be shown. */
function redactValue(value: string): string {
  const decoded = decode(value);
  return decoded.replace(kitKey, 'igk_***').replace(secretLooking, '***') === decoded ? value : '***';
}

/** A request target (path and query) as it may be logged: cursors shortened, anything key-like blanked. */
export function redactPath(target: string): string {
  const at = target.indexOf('?');
  const path = (at === -1 ? target : target.slice(0, at)).split('/').map(redactValue).join('/');
  if (at === -1) return path;
  const query = target.slice(at + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    if (secretParameter.test(decode(name))) return `${name}=***`;
    // A cursor is opaque and long by design: its start is enough to tell two apart.
    if (decode(name) === 'cursor') return `${name}=${value.slice(0, 16)}${value.length > 16 ? '...' : ''}`;
    return eq === -1 ? redactValue(pair) : `${redactValue(name)}=${redactValue(value)}`;
  });
  return `${path}?${query.join('&')}`;
}

/** Free text (a body excerpt) with every key-like run blanked, whatever its form. */
export function redactText(text: string): string {
  return text
    .replace(/igk(?:_|%5F|\\u005f)[A-Za-z0-9_%]+/gi, 'igk_***')
    .replace(/("(?:key|api_key|token|access_token|password|secret)"\s*:\s*")[^"]*"/gi, '$1***"')
    .replace(secretLooking, '***');
}
