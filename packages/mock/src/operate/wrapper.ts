/**
 * The Node server's operating wrapper (start-mock.ts lists it outermost): it counts every data call
 * once answered, from what the engine's steps noted (the journal's `CallNote`), and gives the control
 * plane what it answers `/__control/readyz` and `/__control/metrics` with.
 */
import type { Engine, RequestContext, Wrapper } from '@investor-graph/engine/adapter';
import { pathUnder } from '@investor-graph/engine/adapter';
import type { MockMetrics } from './metrics.ts';
import type { Tracing } from './tracing.ts';

export type { Tracing };

const CONTROL_URL = pathUnder('/__control');

/** Why this mock cannot take calls, or null: its dataset is loaded once `ready`, its store answers or not. */
export function readiness(engine: Engine): () => Promise<string | null> {
  let loaded = false;
  void engine.ready.then(() => (loaded = true));
  return () => {
    if (!loaded) return Promise.resolve('the dataset is still loading');
    const info = engine.accounts.store.describe();
    return Promise.resolve(info.reachable ? null : `the state store (${info.store}) does not answer`);
  };
}

/** Counts the data API's calls into `metrics` (none given: counts nothing) and serves the probes' answers. */
export function operateWrapper(engine: Engine, metrics: MockMetrics | undefined): Wrapper {
  const operate = {
    readiness: readiness(engine),
    ...(metrics ? { metrics: () => metrics.scrape() } : {}),
  };
  return (next) =>
    async (request, context = {}) => {
      if (CONTROL_URL.test(request.url)) {
        const operated: RequestContext & { operate: typeof operate } = { ...context, operate };
        return next(request, operated);
      }
      if (!metrics) return next(request, context);
      const started = performance.now();
      const note: NonNullable<RequestContext['note']> = context.note ?? {};
      const answer = await next(request, { ...context, note });
      metrics.observe(request.method, answer.status, note, (performance.now() - started) / 1000);
      return answer;
    };
}

/** The operating wrappers, outermost first: the traces when on (their spans time the metrics too), the metrics. */
export function operateWrappers(
  engine: Engine,
  metrics: MockMetrics | undefined,
  tracing: Tracing | undefined,
): Wrapper[] {
  const operated = operateWrapper(engine, metrics);
  return tracing ? [tracing.wrapper(engine.accounts.known), operated] : [operated];
}
