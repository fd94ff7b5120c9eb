/**
 * The gauges of the mock's metrics read from the engine at each scrape (metrics.ts `watch`): keys
 * by plan, the journal, incidents in force, whether the state store answers. Read when Prometheus
 * asks, never on a call's path, where metrics.ts counts each call as it is answered.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Engine } from '@investor-graph/engine/adapter';

/** Registers on `registry` the gauges that read `engine` at each scrape; `prefix` names them (metrics.ts). */
export function watchEngine(registry: Registry, engine: Engine, prefix: string): void {
  const registers = [registry];
  new Gauge({
    name: `${prefix}keys`,
    help: 'Keys the state store holds, by plan.',
    labelNames: ['plan'],
    registers,
    async collect() {
      this.reset();
      const keys = await engine.accounts.list().catch(() => []);
      const byPlan = new Map<string, number>();
      for (const key of keys) byPlan.set(key.plan, (byPlan.get(key.plan) ?? 0) + 1);
      for (const [plan, n] of byPlan) this.set({ plan }, n);
    },
  });
  new Gauge({
    name: `${prefix}journal_entries`,
    help: 'Calls the request journal holds (on Redis, the journal every mock on it shares).',
    registers,
    async collect() {
      const view = await Promise.resolve(engine.journal.snapshot()).catch(() => null);
      if (view) this.set(view.entries().length);
    },
  });
  new Gauge({
    name: `${prefix}incidents_active`,
    help: 'Incidents in force (on Redis, those every mock on it shares).',
    registers,
    async collect() {
      // A shared store's copy is refreshed by calls; a scrape of an idle replica reads the server.
      await engine.incidents.refresh?.(engine.clock.now()).catch(() => undefined);
      this.set(engine.incidents.list(engine.clock.now()).length);
    },
  });
  new Gauge({
    name: `${prefix}state_store_up`,
    help: 'Whether the state store answers (1) or not (0), by store.',
    labelNames: ['store'],
    registers,
    collect() {
      const info = engine.accounts.store.describe();
      this.reset();
      this.set({ store: info.store }, info.reachable ? 1 : 0);
    },
  });
}
