/**
 * The data API's boundary, a wrapper (engine.ts lists it): what every data call is answered in,
 * whichever wrapper inside it answers. Each call gets its id and its note (the journal's, when the
 * journal gave them); the clock is brought up to date and due rebuilds applied (answered.ts); a
 * ProblemError thrown inside (by the steps or by a wrapper such as the incidents') is its
 * problem+json, anything else the kit's own 500; then HTTP's conventions (CORS, caching headers,
 * HEAD) and the delivery an incident asked for. The control plane keeps its own rules (control.ts).
 */
import type { Answer } from '../answer.ts';
import type { CallNote } from '../context.ts';
import type { Wrapper } from '../wrapper.ts';
import { answered } from './answered.ts';
import { finish } from './http-conventions.ts';
import type { EngineParts } from './parts.ts';

/** A problem as `answered` makes it, which is already a record (the control plane's too). */
export const same = (answer: Answer): Answer => answer;

/** The wrapper every handler of a data call runs inside; `requestIdOf` names a call the journal did not. */
export function boundary(parts: EngineParts, requestIdOf: (request: Request) => string): Wrapper {
  return (next) =>
    async (request, context = {}) => {
      const requestId = context.requestId ?? requestIdOf(request);
      // What the handlers inside learn of the call (operation, key, charge, problem), for its journal entry.
      const note: CallNote = context.note ?? {};
      // A key is handed over inside the boundary only (the incidents' wrapper's): one from outside is none.
      const inner = { ...context, requestId, note, authenticated: undefined };
      const made = await answered(parts, request, requestId, () => next(request, inner), same, note);
      const finished = finish(request, made, parts.corsOrigins, context.compresses);
      return note.delivery ? { ...finished, delivery: note.delivery } : finished;
    };
}
