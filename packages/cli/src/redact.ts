/**
 * What may be written down of a request or an answer. Every string the kit shows that a request
 * could have put there (a problem's members, a request id, a log line, a report's excerpt, a
 * journal entry) goes through `redact`, so no key reaches it in any form. A key is found three
 * ways: by the kit's own key form (igk_...), by the look of a secret (a long run of letters and
 * digits, which slugs, dates and short ids are not), and by the keys the caller knows of (presets,
 * keys made through the control API, the request's own), each after undoing every encoding a
 * request can carry it in (percent-escapes up to six deep, `+` for a space, JSON's `\u` escapes,
 * base64 and base64url). A known key is found by any 12 characters of it in a row, so a key cut in
 * two, shortened, or cut around by the pieces below is still found.
 * `redactPath` is the same for a request target, knowing which parameters carry secrets and
 * keeping the start of a cursor.
 */

const secretNames = 'key|api[-_]?key|apikey|token|access[-_]?token|auth|authorization|password|secret|signature|sig';
const secretParameter = new RegExp(`^(${secretNames})$`, 'i');
/**
 * A query naming a parameter whose value `redactPath` rewrites whatever it holds (a secret's, a
 * cursor's): a plain target (`plain`) without one comes out of it as it went in.
 */
const rewrittenParameter = new RegExp(`[?&](${secretNames}|cursor)([=&]|$)`, 'i');
import {
  base64Hides,
  base64Holds,
  base64Run,
  decode,
  holdsKey,
  holdsKnown,
  kitKey,
  KNOWN_FROM,
  plain,
} from './key-finder.ts';

/** A cursor of the kit's form: base64url payload and signature, joined by a dot. */
const cursorForm = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16,}$/;
/** How much of a cursor is shown: enough to tell two apart, too little to be a secret's worth. */
const CURSOR_SHOWN = 10;
/** Where a string is cut into the pieces judged one by one: what no encoded key holds unencoded. */
const piece = /[^\s"'/?&=,;:()<>[\]{}|]+/g;

/** The key of an `Authorization: Bearer KEY` header (the scheme in any case, RFC 6750), of whatever form. */
export function bearerOf(header: string | null | undefined): string | undefined {
  return /^Bearer[ \t]+(\S+)$/i.exec(header?.trim() ?? '')?.[1];
}

/**
 * The one redaction: `text` with every piece that holds a key, in any encoding, replaced by `***`,
 * and a JSON member named like a secret (`"token": "..."`)
 * blanked. A known key that spans pieces (one holding a space or
 * a slash) leaves nothing of the text.
 */
export function redact(text: string, known: readonly string[] = []): string {
  if (plain(text, known)) return text;
  const out = text
    .replace(/("(?:key|api_key|apikey|token|access_token|password|secret)"\s*:\s*")[^"]*"/gi, '$1***"')
    // base64 first: its '/' and '=' are where the pieces below are cut, which would cut its blocks.
    .replace(base64Run, (run) => (base64Holds(run, known) ? '***' : run))
    .replace(piece, (part) => (holdsKey(decode(part), known) ? '***' : part));
  const whole = decode(out);
  return whole === null || holdsKnown(whole, known) || kitKey.test(whole) || base64Hides(whole, known) ? '***' : out;
}

/**
 * `text` cut to about `max` characters between pieces, never inside one: a key cut in two is no
 * longer found by `redact`, so what is echoed is cut where no key can be.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).replace(/[^\s"'/?&=,;:()<>[\]{}|]+$/, '')}...`;
}

/** Whether `text` holds a key in any form `redact` knows. */
export function holdsAnyKey(text: string, known: readonly string[] = []): boolean {
  return redact(text, known) !== text;
}

/**
 * Every string of a JSON value (a problem's body: its detail, instance, request id, each entry of
 * `errors`), and every member's name, through `redact`; the value itself when nothing changed.
 */
export function redactJson<T>(value: T, known: readonly string[] = []): T {
  if (typeof value === 'string') return redact(value, known) as T;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => redactJson(item, known));
    return items.some((item, i) => item !== value[i]) ? (items as T) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  const entries = Object.entries(value).map(([name, member]) => {
    const next = [redact(name, known), redactJson(member, known)] as const;
    changed ||= next[0] !== name || next[1] !== member;
    return next;
  });
  return changed ? (Object.fromEntries(entries) as T) : value;
}

/**
 * A request target (path and query) as it may be logged or echoed: cursors shortened, the values
 * of parameters named like secrets blanked, and every segment, name and value through `redact`.
 */
export function redactPath(target: string, known: readonly string[] = []): string {
  // Nothing encoded, no key-like run, no parameter rewritten: every step below would give it back as
  // it is (profiled: the steps were ~5 µs of every journaled call of a list with a query).
  if (plain(target, known) && !rewrittenParameter.test(target)) return target;
  const at = target.indexOf('?');
  const path = (at === -1 ? target : target.slice(0, at))
    .split('/')
    .map((segment) => redact(segment, known))
    .join('/');
  if (at === -1) return path === target ? target : guarded(path, known);
  const query = target
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      const value = eq === -1 ? '' : pair.slice(eq + 1);
      const shownName = redact(name, known);
      if (secretParameter.test(decode(name) ?? '')) return `${shownName}=***`;
      // A cursor is opaque and long by design: the start of one of the kit's form (payload and
      // signature joined by a dot) is enough to tell two apart; anything else sent as one is blanked whole.
      if (decode(name) === 'cursor') {
        const decoded = decode(value);
        if (decoded === null || !cursorForm.test(decoded) || kitKey.test(decoded) || holdsKnown(decoded, known))
          return `${shownName}=***`;
        return `${shownName}=${value.slice(0, CURSOR_SHOWN)}${value.length > CURSOR_SHOWN ? '...' : ''}`;
      }
      return eq === -1 ? shownName : `${shownName}=${redact(value, known)}`;
    });
  return guarded(`${path}?${query.join('&')}`, known);
}

/** A known key cut across segments or parameters (one holding `/` or `&`) leaves nothing of a target. */
function guarded(target: string, known: readonly string[]): string {
  const whole = decode(target);
  return whole === null || holdsKnown(whole, known) || base64Hides(whole, known) ? '***' : target;
}

/**
 * The keys the kit knows of that no pattern finds (preset with `--key`, made through the control
 * API with a text of the caller's own), shared by the engine, which adds them, and whatever writes
 * down what a request sent (the log, the journal). Kept in this process's memory only, as the
 * presets always were; bounded, the oldest forgotten first.
 */
export class KnownKeys {
  private readonly keys = new Set<string>();
  private list: readonly string[] = [];
  private readonly max: number;

  constructor(initial: Iterable<string> = [], max = 10_000) {
    this.max = max;
    for (const key of initial) this.add(key);
  }

  /** Remembers a key whose form no pattern finds; the kit's own form and a secret's shape need no place here. */
  add(key: string): void {
    if (key.length < KNOWN_FROM || this.keys.has(key) || (kitKey.test(key) && !/[^A-Za-z0-9_]/.test(key))) return;
    if (this.keys.size >= this.max) this.keys.delete(this.keys.values().next().value!);
    this.keys.add(key);
    this.list = [...this.keys];
  }

  /** The known keys, with `own` (a request's bearer key) among them when given. */
  with(own?: string): readonly string[] {
    return own ? [...this.list, own] : this.list;
  }
}

/**
 * A log line's text with every control character (newline, CR, ESC, ...) shown escaped, so no text
 * from a request or an answer can start a line of its own or drive a terminal; and every
 * bidirectional control, which would reorder the line around it.
 */
export function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
