/**
 * The journal's control endpoints (the mock's README, "Asking the mock what your app did"): a page
 * of it, filtered (`GET /__control/journal`), clearing it (`DELETE`), and a verification
 * (`POST /__control/journal/verify`). What they read is parsed by journal/parse.ts, which the MSW
 * API uses too, so a wrong member is named the same way wherever a test sends it. The journal is
 * read through its store, which may be on a server (every mock on one Redis shares one): a store
 * that does not answer makes these 503 `state_unavailable`, as every other read of shared state.
 */
import { redactJson } from '@investor-graph/cli/redact';
import { json, type Answer } from '../answer.ts';
import type { JournalStore } from '../journal/journal-store.ts';
import { parseExpectation, parsePageQuery, type InputError } from '../journal/parse.ts';
import { verify } from '../journal/verify.ts';
import { ProblemError } from '../problems.ts';

/**
 * Every wrong member at once, as the control API's 400s carry them (`errors`, each with its pointer
 * or parameter): the journal's and the incidents' (incident-routes.ts).
 */
export function refused(code: 'invalid_parameter' | 'invalid_body', errors: InputError[]): ProblemError {
  const detail = errors.map((e) => `${(e.parameter ?? e.pointer?.slice(1)) || 'body'}: ${e.detail}`).join('; ');
  return new ProblemError(code, detail, { extra: { errors } });
}

/**
 * A control answer that shows what a test sent (a pattern, an incident's match) with every key it
 * holds blanked, in any encoding, as the journal's entries already are.
 */
export const shownJson = (status: number, value: unknown, known: readonly string[]): Answer =>
  json(status, redactJson(value, known));

/** The answer of a journal route (`METHOD /path`), or null for a route that is not the journal's. */
export async function journalRoute(
  route: string,
  url: URL,
  journal: JournalStore,
  body: () => Promise<Record<string, unknown>>,
  known: readonly string[],
): Promise<Answer | null> {
  switch (route) {
    case 'GET /__control/journal': {
      const asked = parsePageQuery(url.searchParams);
      if (!asked.ok) throw refused('invalid_parameter', asked.errors);
      const { filter, limit, cursor } = asked.value;
      return shownJson(200, await journal.page(filter, limit, cursor), known);
    }
    case 'DELETE /__control/journal':
      return json(200, { cleared: await journal.clear(), capacity: journal.capacity });
    case 'POST /__control/journal/verify': {
      const asked = parseExpectation(await body());
      if (!asked.ok) throw refused('invalid_body', asked.errors);
      return json(200, verify(await journal.snapshot(), asked.value.pattern, asked.value.count, known));
    }
    default:
      return null;
  }
}
