/**
 * The frame every call is answered in (the control plane's too): the clock brought up to date and
 * due rebuilds applied before the call's own steps, and whatever they raise answered as
 * problem+json with no key of the request echoed in it, or, for anything but a problem, as the
 * kit's own failure (a 500 that says so).
 */
import { redact, redactJson, redactPath, bearerOf } from '@investor-graph/cli/redact';
import type { Answer } from '../answer.ts';
import type { CallNote } from '../context.ts';
import { ProblemError } from '../problems.ts';
import { parseUrl } from '../http/query.ts';
import type { EngineParts } from './parts.ts';

/**
 * A problem's answer with every key blanked in every member it echoes of the request (detail,
 * instance, each `errors` entry, the request id), as `redact` blanks them. A body with nothing
 * key-like in it stands as written (profiled: parsing and writing it again was a sixth of a 401's time).
 */
function withoutKeys(answer: Answer, known: readonly string[]): Answer {
  // The body is JSON text: a known key holding a quote or a backslash stands in it escaped.
  const inText = [...known, ...known.map((k) => JSON.stringify(k).slice(1, -1))];
  if (typeof answer.body !== 'string' || redact(answer.body, inText) === answer.body) return answer;
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  const shown = redactJson(body, known);
  return shown === body ? answer : { ...answer, body: JSON.stringify(shown) };
}

/** Keys of forms no pattern knows: the presets, custom keys made through control, and the one this request sent. */
export function knownKeys(parts: Pick<EngineParts, 'known'>, request: Request): readonly string[] {
  return parts.known.with(bearerOf(request.headers.get('authorization')));
}

/**
 * The steps every call starts with (the clock brought up to date, due rebuilds applied), then
 * `step`; a problem it raises is answered as problem+json (made an A by `problem`), anything else
 * is the kit's failure: a 500 that says so. The problem's code goes in `note` (the journal's).
 */
export async function answered<A>(
  parts: EngineParts,
  request: Request,
  requestId: string,
  step: (url: URL) => Promise<A>,
  problem: (answer: Answer) => A,
  note: CallNote = {},
): Promise<A> {
  let path = '/';
  // The path is echoed in problems' instance: a key sent in it (by mistake, or to probe) is not.
  // Blanked only when a problem is answered (profiled: 4% of a served call's time when done for every call).
  const instance = (): string => redactPath(path, knownKeys(parts, request));
  try {
    await parts.ready;
    const url = parseUrl(request);
    path = url.pathname;
    await parts.shared.sync();
    parts.store.applyDue(parts.clock.now());
    return await step(url);
  } catch (error) {
    note.problem = error instanceof ProblemError ? error.code : 'internal_error';
    // A key sent where a value goes (a slug, a parameter) is not echoed in the detail either.
    if (error instanceof ProblemError)
      return problem(withoutKeys(error.toAnswer(instance(), requestId), knownKeys(parts, request)));
    // The kit's own failure, with the request id to find the stack in the log; no message or path
    // in the answer, which is not the client's to read.
    console.error(`[investor-graph mock] internal error in ${requestId}:`, error);
    return problem(
      new ProblemError(
        'internal_error',
        `[investor-graph mock] internal error: the mock failed on this request; its log has the details under ` +
          `${requestId}.`,
      ).toAnswer(instance(), requestId),
    );
  }
}
