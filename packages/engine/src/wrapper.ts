/**
 * The engine's one shape of call, and of everything around it, as hono composes its middleware: a
 * `Handler` takes a Request (and what the adapter knows of it) and gives the answer record; a
 * `Wrapper` takes the next Handler and gives one around it. The docs page, the faults, the control
 * plane, the journal, the data API's boundary and the incidents are each a Wrapper, in one ordered
 * list (engine.ts), on every adapter.
 */
import type { Answer } from './answer.ts';
import type { RequestContext } from './context.ts';

/** A call answered as a record: the engine's steps, or any wrapper around them. */
export type Handler = (request: Request, context?: RequestContext) => Promise<Answer>;

/** One layer around the next handler: answers some calls itself, or changes what goes in or comes out. */
export type Wrapper = (next: Handler) => Handler;

/** `handler` inside `wrappers`, the first outermost: `compose([a, b], h)` is `a(b(h))`. */
export function compose(wrappers: readonly Wrapper[], handler: Handler): Handler {
  return wrappers.reduceRight<Handler>((next, wrap) => wrap(next), handler);
}
