/**
 * What the model may not judge, and the sentence behind what it does (issue #65). The rows of
 * `allowedDifferences` are DECISIONS.md#model-comparison's: each says which differences it lets
 * pass and why, and the report lists them. Every other difference names the sentence of the spec
 * or DECISIONS.md that fixes the value (`sentenceOf`, ids of the rule matrix), or is the kit's
 * reading of an open point: a warning, never a failure.
 */
import { sentences } from '../rule-matrix/generated/sentences.ts';
import type { Difference } from './compare.ts';

export interface Judging {
  operationId: string | undefined;
  /** The model holds the service's data as of the answer's `as_of`. */
  hasData: boolean;
  /** The service's problem code, when it answered one. */
  serviceCode?: string | undefined;
}

export interface AllowedDifference {
  id: string;
  why: string;
  /** Whether it lets this difference pass. */
  allows(d: Difference, on: Judging): boolean;
}

/** What differs with the data: rows and their pages, tags, and what a pay-as-you-go call costs (its rows). */
const dataPointer = (p: string): boolean =>
  p === '/as_of' ||
  p === '/next_cursor' ||
  p.startsWith('/data') ||
  p === 'header:etag' ||
  p.startsWith('/usage/rows_charged') ||
  p.startsWith('/usage/balance_rows') ||
  p.startsWith('/balance/');
/** Whether a record is there, or a page's rows cost more than a balance holds: what the data decides. */
const foundOrNot = (d: Difference, on: Judging): boolean =>
  d.pointer === 'status' &&
  ([200, 304, 404].includes(d.service as number) || on.serviceCode === 'insufficient_balance') &&
  [200, 304, 404].includes(d.model as number);
/** Operations whose data is history the model is never given: a dump holds rows, not their changes or other days. */
const history = new Set(['listChanges', 'getExportManifest', 'getExportFile']);

/** DECISIONS.md#model-comparison, one row each. */
export const allowedDifferences: readonly AllowedDifference[] = [
  {
    id: 'no-data',
    why:
      'the model holds no data of the service (no dump readable with this key, no --data), or the ' +
      "service's as_of has moved past the data the model holds: rows, pages, tags, found-or-not and what " +
      'rows cost (a balance too short for them) are not judged',
    allows: (d, on) => !on.hasData && (dataPointer(d.pointer) || foundOrNot(d, on)),
  },
  {
    id: 'no-history',
    why: 'the changes feed and the dumps are history, which a dump does not hold: their data is not judged',
    allows: (d, on) => history.has(on.operationId ?? '') && (dataPointer(d.pointer) || foundOrNot(d, on)),
  },
];

/** The differences no row of the table lets pass. */
export function behaviourOnly(found: Difference[], on: Judging): Difference[] {
  return found.filter((d) => !allowedDifferences.some((row) => row.allows(d, on)));
}

/** Which section's sentence fixes what a pointer names, and a word of that sentence. */
const pointerSentences: readonly [RegExp, string, string][] = [
  [/^status$/, 'status-codes', ''],
  [/^\/(code|type|title|status)$/, 'problem-body', 'stable machin'],
  [/^\/errors/, 'problem-body', 'errors'],
  [/^\/actions/, 'actions', 'non-empty'],
  [/^\/allowed/, 'statistics-shapes', 'allowed'],
  [/^header:www-authenticate$/, 'failed-authentication', ''],
  [/^header:(ratelimit-policy|retry-after)$/, 'rate-limit-headers', 'RateLimit-Policy'],
  [/^header:etag$/, 'conditional-requests', 'ETag'],
  [/^header:content-type$/, 'problem-body', 'problem+json'],
  [/^header:/, 'http-conventions', ''],
  [/^\/plan/, 'plan-and-usage-in-the-envelope', '`plan` is'],
  [/^\/usage\/(rows_charged|balance_rows)/, 'pay-as-you-go-billing', 'rows_charged'],
  [/^\/usage\//, 'plan-and-usage-in-the-envelope', 'counts the call'],
  [/^\/balance\//, 'pay-as-you-go-billing', 'rows_charged'],
  [/^\/as_of$/, 'spec 2', '`as_of`'],
  [/^\/next_cursor$/, 'cursor', 'null'],
  [/^\/data\/(name|rows)/, 'statistics-shapes', 'computed over'],
  [/^\/data\/plan/, 'account', 'data: {plan'],
  [/^\/data\/length$/, 'filters-and-sort-order', 'ascending order'],
  [/^\/data/, 'resource-fields', ''],
];

const said = (found: { id: string; text: string }): string =>
  `${found.id}: "${found.text.length > 90 ? `${found.text.slice(0, 87)}...` : found.text}"`;

/**
 * The id and words of the sentence that fixes what `pointer` names (a status by the line of
 * DECISIONS.md#status-codes for the status the model gave); null when none does.
 */
export function sentenceOf(pointer: string, operationId: string | undefined, model?: unknown): string | null {
  if (pointer === 'status' && typeof model === 'number') {
    const line = sentences.find((s) => s.id.startsWith('status-codes.') && s.text.startsWith(`${model} `));
    if (line) return said(line);
  }
  const statistics = operationId === 'getStatistic' && pointer.startsWith('/data/');
  for (const [pattern, section, word] of pointerSentences) {
    if (!pattern.test(pointer) && !(statistics && section === 'statistics-shapes')) continue;
    const found = sentences.find(
      (s) => (s.id.startsWith(`${section}.`) || s.section.startsWith(section)) && s.text.includes(word),
    );
    if (found) return said(found);
  }
  return null;
}
