/**
 * The journal as a wrapper around the data API's steps (engine.ts lists it): each call is written
 * once answered, from what the steps noted of it (`CallNote`), which it hands them in the context.
 */
import type { CallNote } from '../context.ts';
import type { Wrapper } from '../wrapper.ts';
import type { JournalStore } from './journal-store.ts';

export interface JournalWrapperDeps {
  /** The request id the call's answer carries (the client's own when well-formed). */
  requestIdOf(request: Request): string;
  /** The key texts to blank in the call's target besides the ones any pattern finds. */
  known(request: Request): readonly string[];
  /** The simulated clock's now (ms), the entry's service time. */
  now(): number;
}

/** Writes every call `next` answers into `journal` (none when its capacity is 0). */
export function journalWrapper(journal: JournalStore, deps: JournalWrapperDeps): Wrapper {
  return (next) =>
    async (request, context = {}) => {
      if (journal.capacity <= 0) return next(request, context);
      const started = performance.now();
      const at = Date.now();
      const requestId = context.requestId ?? deps.requestIdOf(request);
      const note: CallNote = context.note ?? {};
      const answer = await next(request, { ...context, requestId, note });
      const journaling = context.trace?.step('journal');
      // A journal on a server is written before the answer goes out: a read through another replica finds the call.
      const written = journal.record({
        target: request.url.slice(request.url.indexOf('/', request.url.indexOf('//') + 2)),
        known: deps.known(request),
        method: request.method,
        requestId,
        status: answer.status,
        body: answer.body,
        note,
        at,
        serviceTime: deps.now(),
        durationMs: performance.now() - started,
      });
      if (written) await written;
      journaling?.();
      return answer;
    };
}
