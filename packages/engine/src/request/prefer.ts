/**
 * Prism's habit, kept for clients that rely on it: `Prefer: code=NNN` and/or `example=NAME` answer
 * an example the contract documents, as is, before anything else is looked at.
 */
import { operationById, resolveRef } from '@investor-graph/contract/document';
import type { Answer } from '../answer.ts';
import { challenge, ProblemError } from '../problems.ts';

type Documented = { content?: Record<string, { examples?: Record<string, unknown> }> };

/** The documented example a `Prefer` header asks for, or null when it asks for none. */
export function preferredExample(request: Request, operationId: string): Answer | null {
  const prefer = request.headers.get('prefer');
  if (!prefer) return null;
  const wants = Object.fromEntries(
    prefer
      .split(/[,;]/)
      .map((p) =>
        p
          .trim()
          .split('=')
          .map((s) => s.trim().replace(/^"|"$/g, '')),
      )
      .filter((p): p is [string, string] => p.length === 2),
  );
  if (!wants.code && !wants.example) return null;
  const op = operationById(operationId);
  const code = wants.code ?? Object.keys(op.responses).find((c) => c.startsWith('2'))!;
  const response = op.responses[code] === undefined ? undefined : (resolveRef(op.responses[code]) as Documented);
  if (!response) {
    throw new ProblemError(
      'invalid_parameter',
      `Prefer: code=${code} is not documented for ${operationId}; documented: ${Object.keys(op.responses).join(', ')}.`,
      { extra: { errors: [{ parameter: 'Prefer', detail: 'undocumented status' }] } },
    );
  }
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  const examples = media?.examples ?? {};
  const name = wants.example ?? Object.keys(examples)[0];
  const example = name ? examples[name] : undefined;
  if (wants.example && !example) {
    throw new ProblemError(
      'invalid_parameter',
      `Prefer: example=${wants.example} is not an example of ${operationId} ` +
        `${code}; there are: ${Object.keys(examples).join(', ') || 'none'}.`,
      { extra: { errors: [{ parameter: 'Prefer', detail: 'unknown example' }] } },
    );
  }
  const headers: Record<string, string> = { 'preference-applied': prefer };
  if (mediaType) headers['content-type'] = mediaType;
  // The contract requires Retry-After on both: a forced one carries it as a real one would.
  if (code === '429' || code === '503') headers['retry-after'] = '1';
  // A forced 401 asks for a key as a real one does (the example is of a call without one).
  if (code === '401') Object.assign(headers, challenge('missing_key'));
  const value = example ? (resolveRef(example) as { value: unknown }).value : undefined;
  return { status: Number(code), headers, body: code === '304' || value === undefined ? null : JSON.stringify(value) };
}
