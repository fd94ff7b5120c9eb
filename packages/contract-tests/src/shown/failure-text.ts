/**
 * How every failure of the contract tests is said: what the rule expects, then what the service
 * did, after where it happened. "Content-Length is the length of the GET's body" read as a
 * statement, so that a reader could not tell the rule from the finding. Every such text passes
 * through here, and so does the blanking of keys: a service that echoes the request (a gateway's
 * debug page, a problem quoting its header) must not put the run's key into stdout, JUnit or the report.
 */
import { escapeBidi } from '@investor-graph/cli';
import { shellWord } from '@investor-graph/cli/html-page';
import { cutBody } from './cut-body.ts';

/** The run's keys, as the suites learn them (context.ts): blanked wherever failure text is made. */
const runKeys = new Set<string>();

/** Adds `key` to the keys no failure text may show. */
export function hideKey(key: string): void {
  if (key) runKeys.add(key);
}

/**
 * The key in an answer of the call that hands keys out (the trial call's), whatever its status. It
 * is hidden from every later text at once, whatever its form, since the run cannot tell it by its
 * look. A key under 8 characters (no real one) is left: blanking it would blank every word holding it.
 */
export function keyHandedOut(operationId: string | undefined, body: unknown): string | null {
  if (operationId !== 'createTrialKey' || !body || typeof body !== 'object') return null;
  const key = (body as { key?: unknown }).key;
  return typeof key === 'string' && key.length >= 8 ? key : null;
}

/**
 * `text` with the run's keys, any key of the kit's form (igk_...) and any bearer credential
 * replaced by `<key>`. The run's own keys go first: a key of the service's own form has no look to
 * find it by. Bidirectional controls are shown as their escapes here too, since every failure text
 * passes through: a served name holding one would reorder the line it is shown in.
 */
export function withoutKeys(text: string): string {
  let out = escapeBidi(text);
  for (const key of runKeys) out = out.split(key).join('<key>');
  return out.replace(/igk_[A-Za-z0-9_]+/g, '<key>').replace(/(Bearer\s+)(?!<key>)[^\s"',;]+/gi, '$1<key>');
}

/** `where: expected <what the rule says>, got <what the service did>` (no `where: ` without one). */
export function expectedGot(where: string, expected: string, got: string): string {
  return withoutKeys(`${where ? `${where}: ` : ''}expected ${expected}, got ${got}`);
}

/**
 * An answer as a failure shows it: its status, and its body cut at a JSON boundary (cut-body.ts).
 * A body read as bytes (a dump file, `raw`) has no text: it is decoded when it says it is JSON or
 * text, else only counted.
 */
export function answerShown(
  answer: { status: number; text: string; bytes?: Uint8Array; headers?: Headers },
  max = 300,
): string {
  const type = answer.headers?.get('content-type') ?? '';
  const bytes = answer.bytes ?? new Uint8Array();
  const text = answer.text || (bytes.length && /json|^text\//i.test(type) ? Buffer.from(bytes).toString('utf8') : '');
  if (text) return `${answer.status} ${cutBody(withoutKeys(text), max)}`;
  return bytes.length
    ? `${answer.status} with a body of ${bytes.length.toLocaleString('en')} ` +
        `byte${bytes.length === 1 ? '' : 's'}${type ? ` (${type})` : ''}`
    : `${answer.status} with no body`;
}

/** A value as a failure shows it: JSON, cut the same way. */
export function valueShown(value: unknown, max = 200): string {
  return value === undefined ? 'nothing' : cutBody(withoutKeys(asText(value)), max);
}

/** JSON, or for what JSON has no text for (a function, a symbol) the value as JavaScript writes it. */
const asText = (value: unknown): string => JSON.stringify(value) ?? String(value);

/**
 * The contract tests' command that runs a failing case again, as it runs pasted where the failed run
 * ran (`replay` is the failure's own --only, --seed and --path): the key stays in INVESTOR_GRAPH_KEY,
 * never on the line.
 */
export function rerunLine(
  run: { base_url: string; plan: string; use_control?: boolean | undefined },
  replay: string,
): string {
  return withoutKeys(
    `npx --no -- investor-graph-contract-tests --base-url ${shellWord(run.base_url)} ` +
      `--plan ${run.plan} ${replay}${run.use_control ? ' --use-control' : ''}`,
  );
}
