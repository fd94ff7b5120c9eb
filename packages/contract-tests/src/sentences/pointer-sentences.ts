/**
 * Which sentence of the spec or DECISIONS.md fixes what a JSON pointer of an answer names (issue
 * #65): the model's findings name it, and the matrix counts a sentence of these sections as covered
 * by the model in a run that had one.
 */
import { sentences } from './generated/sentences.ts';

/** Which section's sentence fixes what a pointer names, and a word of that sentence. */
export const pointerSentences: readonly [RegExp, string, string][] = [
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
  [/^\/as_of$/, 'spec 1.31', '`as_of`'],
  // Where the service's own next_cursor, followed with its query, led (model/cursors.ts): the next page.
  [/^next-page$/, 'spec 1.30', 'next page'],
  [/^\/next_cursor$/, 'cursor', 'null'],
  [/^\/data\/(name|rows)/, 'statistics-shapes', 'computed over'],
  [/^\/data\/keys\//, 'account', '`keys` lists'],
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
  // The served contract of the model's version is the model's, member for member (DECISIONS.md#deprecation).
  if (operationId === 'getOpenApiDocument' && pointer.startsWith('/')) {
    const line = sentences.find((s) => s.id.startsWith('deprecation.') && s.text.includes('`info.version`'));
    if (line) return said(line);
  }
  const statistics = operationId === 'getStatistic' && pointer.startsWith('/data/');
  for (const [pattern, section, word] of pointerSentences) {
    if (!pattern.test(pointer) && !(statistics && section === 'statistics-shapes')) continue;
    const found = sentences.find(
      (s) =>
        (s.id === section || s.id.startsWith(`${section}.`) || s.section.startsWith(section)) && s.text.includes(word),
    );
    if (found) return said(found);
  }
  return null;
}

/** The sections (or single sentences: `spec 1.30`) whose sentences the model compares: those the table names. */
export const modelSections: ReadonlySet<string> = new Set(pointerSentences.map(([, section]) => section));
