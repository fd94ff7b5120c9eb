/**
 * What a team operating the mock asks of it besides the control API: is it alive (`healthz`), may it
 * take calls (`readyz`), and what it counted (`metrics`, the adapter's to make: the Node server's
 * Prometheus registry). The two probes answer without the guard: they take no body, change
 * nothing and tell nothing but "alive" and "ready", so a kubelet, which names the pod by its
 * address and probes from the node, is let in (the mock's README, "Operating the mock").
 */
import { json, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import { ProblemError } from '../problems.ts';

/** What an adapter gives the control plane in the context of a call to answer these with. */
export interface Operate {
  /** Why the mock cannot take calls now (its dataset not loaded, its store not answering), or null when it can. */
  readiness?: () => Promise<string | null>;
  /** The metrics as the adapter exposes them, with their content type. */
  metrics?: () => Promise<{ contentType: string; text: string }>;
}

/** A call's context as an adapter that operates the mock gives it (the Node server's `operate` wrapper). */
export interface OperatedContext extends RequestContext {
  operate?: Operate;
}

/** The probes' paths, which need no guard. */
export const probePaths: ReadonlySet<string> = new Set(['/__control/healthz', '/__control/readyz']);

/** Answers `GET /__control/healthz` and `/__control/readyz`; null for any other call. */
export async function probe(method: string, path: string, context: OperatedContext): Promise<Answer | null> {
  if ((method !== 'GET' && method !== 'HEAD') || !probePaths.has(path)) return null;
  if (path === '/__control/healthz') return json(200, { status: 'alive' });
  const reason = await (context.operate?.readiness?.() ?? Promise.resolve(null)).catch(
    () => 'the readiness check failed',
  );
  return reason === null ? json(200, { status: 'ready' }) : json(503, { status: 'not_ready', reason });
}

/** `GET /__control/metrics`, once the guard let the call in. */
export async function metricsAnswer(context: OperatedContext): Promise<Answer> {
  const metrics = context.operate?.metrics;
  if (!metrics)
    throw new ProblemError(
      'route_not_found',
      'No metrics here: the Node server (investor-graph-mock) serves them, the MSW handlers do not.',
    );
  const { contentType, text } = await metrics();
  return { status: 200, headers: { 'content-type': contentType }, body: text };
}
