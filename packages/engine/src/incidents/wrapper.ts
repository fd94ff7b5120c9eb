/**
 * The incidents as a wrapper around the data API's steps (engine.ts lists it inside the boundary,
 * request/boundary.ts, which answers what it throws as it answers the steps'): a call meets the
 * newest incident it matches once routed and its key known, before anything is read, counted or
 * charged (apply.ts). An open operation meets them with no key; a keyed one is authenticated here
 * as the steps would, and its key handed over to them (`context.authenticated`): a call with a bad
 * key is refused before it meets any, and spends its address's failed-auth budget once.
 */
import type { PlanId } from '@investor-graph/contract/plans';
import type { Answer } from '../answer.ts';
import type { CallNote, RequestContext } from '../context.ts';
import { parseUrl } from '../http/query.ts';
import { ProblemError } from '../problems.ts';
import { authenticate, routed, type EngineParts, type Routed } from '../request/steps.ts';
import type { Handler, Wrapper } from '../wrapper.ts';
import { meetIncident } from './apply.ts';
import type { CallFacts, IncidentStore } from './store.ts';

/** Meets `incidents` with each data call `next` answers, as the steps found it; OPTIONS and the like go on. */
export function incidentsWrapper(parts: EngineParts, incidents: IncidentStore): Wrapper {
  return (next) =>
    (request, context = {}) =>
      // None in force: nothing to meet, for the cheap check `any` is. A traced call goes the whole
      // way all the same: its trace has shown an incident step after authenticate on every call.
      (!incidents.any && !context.trace) || request.method === 'OPTIONS'
        ? next(request, context)
        : throughIncidents(parts, incidents, next, request, context);
}

/** A call found as the steps find it, then met with the incident it matches, if any, before `next`. */
async function throughIncidents(
  parts: EngineParts,
  incidents: IncidentStore,
  next: Handler,
  request: Request,
  context: RequestContext,
): Promise<Answer> {
  const note: CallNote = context.note ?? {};
  const url = parseUrl(request);
  const found = routedCall(parts, request, url, note);
  // The steps answer these as ever, meeting no incident: a route or query they refuse, a Prefer example.
  if (!found) return next(request, context);
  const facts = { operation: found.route.operationId, method: request.method, path: url.pathname };
  if (found.operation.open) {
    const instead = await meet(parts, incidents, { ...facts, keyId: null, plan: null }, context, note);
    return instead ?? next(request, context);
  }
  // A key refused here (401, or 429 once the address's budget is gone) is so before any incident is met.
  const key = await authenticate(parts, request, context);
  note.keyId = key.keyId;
  note.plan = key.plan;
  const instead = await meet(parts, incidents, { ...facts, keyId: key.keyId, plan: key.plan }, context, note);
  return instead ?? next(request, { ...context, authenticated: key });
}

/** The call as the steps route it, or null when they answer it before any operation (or refuse it). */
function routedCall(parts: EngineParts, request: Request, url: URL, note: CallNote): Routed | null {
  try {
    const found = routed(parts, request, url, note);
    return 'route' in found ? found : null;
  } catch (error) {
    if (error instanceof ProblemError) return null;
    throw error;
  }
}

/** The incident step, as a trace shows it: the answer to give instead, or null to go on (apply.ts). */
async function meet(
  parts: EngineParts,
  incidents: IncidentStore,
  call: CallFacts & { plan: PlanId | null },
  context: RequestContext,
  note: CallNote,
): Promise<Answer | null> {
  const meeting = context.trace?.step('incident');
  const instead = await meetIncident(incidents, call, parts.clock.now(), note);
  meeting?.();
  return instead;
}
