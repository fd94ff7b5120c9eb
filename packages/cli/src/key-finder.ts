/**
 * How a key is found in text (redact.ts blanks what these find): by the kit's own key form
 * (igk_...), by the look of a secret, by the keys the caller knows of or any 8 characters of one,
 * after undoing every encoding a request can carry it in, base64 included.
 */

export const kitKey = /igk_[A-Za-z0-9_]+/;
/** A run of letters, digits and underscores (found in one linear pass: no lookahead to backtrack on). */
export const run = /[A-Za-z0-9_]+/g;
/**
 * 24+ letters, digits or underscores with both letters and digits: a
 * generated secret's shape; slugs (hyphens), dates and short ids are not.
 */
export const looksSecret = (word: string): boolean => word.length >= 24 && /\d/.test(word) && /[A-Za-z]/.test(word);
/** Known keys shorter than this are not looked for: they would blank ordinary words. */
export const KNOWN_FROM = 8;
/**
 * Every encoding undone until nothing changes (a key encoded twice is a key), at most six times:
 * text that still decodes after that is taken for a key hidden deeper (null).
 */
export function decode(text: string): string | null {
  let out = text;
  for (let i = 0; i < 7; i++) {
    if (i === 6) return null;
    let next = out
      .replace(/\\u([0-9a-f]{4})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\+/g, ' ');
    try {
      next = decodeURIComponent(next);
    } catch {
      next = next.replace(/%([0-9a-f]{2})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Whether `text` holds a known key, or any `KNOWN_FROM` characters of one in a row, anywhere. */
export function holdsKnown(text: string, known: readonly string[]): boolean {
  if (text.length < KNOWN_FROM) return false;
  for (const key of known)
    for (let at = 0; at + KNOWN_FROM <= key.length; at++)
      if (text.includes(key.slice(at, at + KNOWN_FROM))) return true;
  return false;
}

/** A run that may be base64 or base64url (both alphabets, padding), long enough to hide 8 characters. */
export const base64Run = /[A-Za-z0-9+/_-]{12,}={0,2}/g;

/**
 * What a run says as base64, read from each of the four places a block may start (what came
 * before it in the run may be text, not base64); '' where it reads as none.
 */
function base64Readings(run: string): string[] {
  const standard = run.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const out: string[] = [];
  for (let from = 0; from < 4 && standard.length - from >= 12; from++) {
    const blocks = standard.slice(from, from + Math.floor((standard.length - from) / 4) * 4);
    try {
      out.push(atob(blocks));
    } catch {
      // Not base64 from here: nothing to find.
    }
  }
  return out;
}

/** Whether some base64 run of `text` reads as a key (the kit's form, a secret's shape, a known one). */
export const base64Hides = (text: string, known: readonly string[]): boolean =>
  (text.match(base64Run) ?? []).some((run) => base64Holds(run, known));

export const base64Holds = (run: string, known: readonly string[]): boolean =>
  base64Readings(run).some((reading) => holdsKeyAsSent(reading, known));

/** Whether text as it stands (no decoding) holds a key: the kit's form, a secret's shape, or a known one. */
function holdsKeyAsSent(text: string, known: readonly string[]): boolean {
  if (kitKey.test(text) || holdsKnown(text, known)) return true;
  for (const word of text.match(run) ?? []) if (looksSecret(word)) return true;
  return false;
}

/** Whether decoded text holds a key: the kit's form, a secret's shape, or one of `known`, as sent or in base64. */
export function holdsKey(decoded: string | null, known: readonly string[]): boolean {
  if (decoded === null) return true;
  return holdsKeyAsSent(decoded, known) || base64Hides(decoded, known);
}

/**
 * Whether `text` has nothing `redact` would blank, told without cutting it: nothing encoded (no
 * `%`, `+` or backslash), no `igk`, no run long enough to look secret, no known key or part of
 * one, no base64 that reads as a key. Most strings are such (profiled: cutting and decoding every
 * problem's path was a sixth of a 401's time).
 */
export function plain(text: string, known: readonly string[]): boolean {
  return !/[%+\\]|igk|[A-Za-z0-9_]{24}/i.test(text) && !holdsKnown(text, known) && !base64Hides(text, known);
}
