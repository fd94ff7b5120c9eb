/**
 * How a key is found in text (redact.ts blanks what these find): by the kit's own key form
 * (igk_...), by the look of a secret, by the keys the caller knows of or any 12 characters of one,
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

/**
 * How many characters of a known key in a row are blanked as the key: enough to be worth stealing
 * (a key's half, its first 28 characters), too many for a word of the kit's own (`instance`) to be one.
 */
export const PART = 12;
/** 31^PART in 32 bits: what the character leaving a rolling hash's window weighed. */
const GONE = Array.from({ length: PART }).reduce<number>((power) => Math.imul(power, 31), 1);

/**
 * Calls `found` with the hash of each PART characters in a row of `text` and where they
 * start, by a rolling hash (one pass, nothing allocated), until it says true.
 */
function someGram(text: string, found: (hash: number, at: number) => boolean): boolean {
  let hash = 0;
  for (let i = 0; i < text.length; i++) {
    hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
    if (i >= PART) hash = (hash - Math.imul(text.charCodeAt(i - PART), GONE)) | 0;
    if (i >= PART - 1 && found(hash, i - PART + 1)) return true;
  }
  return false;
}

/** Each known key's grams' hashes, made once a key (a few keys per process; bounded all the same). */
const gramsOfKey = new Map<string, Set<number>>();
function gramsOf(key: string): Set<number> {
  let grams = gramsOfKey.get(key);
  if (!grams) {
    if (gramsOfKey.size >= 4096) gramsOfKey.clear();
    const made = new Set<number>();
    // The kit's `igk_<plan>_` is shown with every key (the account's `prefix`): its words are no secret.
    someGram(key.replace(/^igk_[a-z]+_/, ''), (hash) => void made.add(hash) === undefined && false);
    gramsOfKey.set(key, (grams = made));
  }
  return grams;
}

/**
 * Whether `text` holds a known key, or any PART characters of one in a row past the kit's
 * `igk_<plan>_` (a plan's name is no secret: "Enterprise" stays), anywhere; a key shorter than
 * that, whole.
 */
export function holdsKnown(text: string, known: readonly string[]): boolean {
  if (text.length < KNOWN_FROM) return false;
  for (const key of known) {
    if (key.length < KNOWN_FROM) continue;
    // No grams: a key whose secret part is shorter than PART, looked for whole.
    const grams = gramsOf(key);
    if (grams.size === 0) {
      if (text.includes(key)) return true;
      continue;
    }
    // A hash may be another gram's too: the characters themselves decide.
    if (someGram(text, (hash, at) => grams.has(hash) && key.includes(text.slice(at, at + PART)))) return true;
  }
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
    // Unpadded is base64 too (atob reads it), but for a lone last character, which no byte needs.
    const rest = standard.slice(from);
    const blocks = rest.length % 4 === 1 ? rest.slice(0, -1) : rest;
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

/** An upper-case letter: in the base64 of any eight characters all but surely; in a slug or a path, never. */
const upper = /[A-Z]/;

/** Eight printable characters in a row: the least a key, or a part of one worth blanking, reads as. */
const printable = /[\x21-\x7e]{8}/;

export const base64Holds = (run: string, known: readonly string[]): boolean =>
  // Most runs are slugs and paths (no capital), or read as bytes of no text: told by a look, not three.
  upper.test(run) && base64Readings(run).some((reading) => printable.test(reading) && holdsKeyAsSent(reading, known));

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
  return !mayHoldKey(text) && !holdsKnown(text, known) && !base64Hides(text, known);
}

/**
 * Whether `text` has `%`, `+` or a backslash, `igk` in any case, or a run of 24 letters, digits or
 * underscores: one pass over its characters (a regular expression of the same was most of `plain`).
 */
function mayHoldKey(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 37 || c === 43 || c === 92) return true;
    const lower = c | 32;
    if (lower === 105 && (text.charCodeAt(i + 1) | 32) === 103 && (text.charCodeAt(i + 2) | 32) === 107) return true;
    const word = (lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) || c === 95;
    run = word ? run + 1 : 0;
    if (run >= 24) return true;
  }
  return false;
}
