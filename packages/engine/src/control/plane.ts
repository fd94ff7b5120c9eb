/** The control plane as a wrapper (engine.ts lists it): a call under /__control is its, every other goes on. */
import type { Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import { pathUnder } from '../http/query.ts';
import type { Wrapper } from '../wrapper.ts';

/** Paths of the control plane, which the data API's conventions leave alone. */
const CONTROL_URL = pathUnder('/__control');

/** Answers the control plane's calls with `control`; the data API's go to the next handler. */
export function controlPlane(control: (request: Request, context: RequestContext) => Promise<Answer>): Wrapper {
  return (next) =>
    (request, context = {}) =>
      CONTROL_URL.test(request.url) ? control(request, context) : next(request, context);
}
