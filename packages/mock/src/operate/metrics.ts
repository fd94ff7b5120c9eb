/**
 * The mock's Prometheus metrics, with prom-client (the Node client Prometheus's own docs list, kept
 * by its community since 2015, no dependency but a histogram helper, its text output what every
 * scraper reads). One registry per running mock, so several mocks in one process (tests) count apart.
 * Every label's values are a bounded set: operationIds of the contract, five methods and `other`,
 * status classes, plan ids, problem codes of the engine's table; never a key, a path or a request id.
 * What is counted as it happens is here; the gauges read from the engine at a scrape: engine-gauges.ts.
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Engine } from '@investor-graph/engine/adapter';
import { watchEngine } from './engine-gauges.ts';

/** Every metric this module exports is named with this prefix (the process's own are prom-client's defaults). */
export const metricPrefix = 'investor_graph_mock_';

/** What the steps of a data call noted of it (the engine's `CallNote`), as far as metrics read it. */
export interface NotedCall {
  operation?: string;
  plan?: string;
  problem?: string;
  rowsServed?: number;
  counted?: boolean;
  rowsCharged?: number;
}

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);
/** Latency buckets (seconds): the mock answers in well under a millisecond, an incident's latency in seconds. */
const latencyBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class MockMetrics {
  readonly registry = new Registry();
  private readonly calls: Counter<'operation' | 'method' | 'status_class' | 'plan' | 'problem'>;
  private readonly latency: Histogram<'operation'>;
  private readonly rowsServed: Counter<'operation' | 'plan'>;
  private readonly rowsCharged: Counter<'operation' | 'plan'>;
  private readonly refused: Counter<'plan' | 'status'>;
  /** Proxy: exchanges by operation and status class, violations by rule and operation. */
  readonly exchanges: Counter<'operation' | 'status_class'>;
  readonly violations: Counter<'rule' | 'operation'>;
  /** The state store's health: errors by kind, commands' time (Redis), reconnects (Redis). */
  private readonly storeErrors: Counter<'store' | 'kind'>;
  private readonly storeLatency: Histogram<'store' | 'command'>;
  private readonly storeReconnects: Counter<'store'>;

  constructor() {
    const registers = [this.registry];
    this.calls = new Counter({
      name: `${metricPrefix}calls_total`,
      help: 'Calls of the data API answered, by operation, method, status class, plan and problem code.',
      labelNames: ['operation', 'method', 'status_class', 'plan', 'problem'],
      registers,
    });
    this.latency = new Histogram({
      name: `${metricPrefix}call_duration_seconds`,
      help: 'Time to answer a call of the data API (the engine and its wrappers), by operation.',
      labelNames: ['operation'],
      buckets: latencyBuckets,
      registers,
    });
    this.rowsServed = new Counter({
      name: `${metricPrefix}rows_served_total`,
      help: 'Rows served in data answers, by operation and plan.',
      labelNames: ['operation', 'plan'],
      registers,
    });
    this.rowsCharged = new Counter({
      name: `${metricPrefix}rows_charged_total`,
      help: 'Rows charged to prepaid balances (pay-as-you-go), by operation and plan.',
      labelNames: ['operation', 'plan'],
      registers,
    });
    this.refused = new Counter({
      name: `${metricPrefix}refusals_total`,
      help: 'Calls refused for a rate (429) or a quota, feature or balance (402), by plan and status.',
      labelNames: ['plan', 'status'],
      registers,
    });
    this.exchanges = new Counter({
      name: `${metricPrefix}proxy_exchanges_total`,
      help: 'Exchanges the validation proxy forwarded, by operation and status class.',
      labelNames: ['operation', 'status_class'],
      registers,
    });
    this.violations = new Counter({
      name: `${metricPrefix}proxy_violations_total`,
      help: 'Violations the validation proxy found, by rule and operation.',
      labelNames: ['rule', 'operation'],
      registers,
    });
    this.storeErrors = new Counter({
      name: `${metricPrefix}state_store_errors_total`,
      help: 'Errors of the state store, by store and kind (unavailable, command, connection; busy, file, error).',
      labelNames: ['store', 'kind'],
      registers,
    });
    this.storeLatency = new Histogram({
      name: `${metricPrefix}state_store_command_duration_seconds`,
      help: "Time of the state store's commands (on Redis: each script by name, `command` for the rest).",
      labelNames: ['store', 'command'],
      buckets: latencyBuckets,
      registers,
    });
    this.storeReconnects = new Counter({
      name: `${metricPrefix}state_store_reconnects_total`,
      help: 'Times the connection to the state store was lost and made again, by store.',
      labelNames: ['store'],
      registers,
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** What a state store tells of its health (stores/redis/connection.ts's RedisWatcher; SQLite's errors). */
  storeWatcher(store: 'redis' | 'sqlite') {
    return {
      command: (command: string, seconds: number) => this.storeLatency.observe({ store, command }, seconds),
      error: (kind: string) => this.storeErrors.inc({ store, kind }),
      reconnect: () => this.storeReconnects.inc({ store }),
    };
  }

  /** Counts one answered call of the data API from what its steps noted. */
  observe(method: string, status: number, note: NotedCall, seconds: number): void {
    const operation = note.operation ?? 'none';
    const plan = note.plan ?? 'none';
    this.calls.inc({
      operation,
      method: methods.has(method) ? method : 'other',
      status_class: statusClass(status),
      plan,
      problem: note.problem ?? 'none',
    });
    this.latency.observe({ operation }, seconds);
    if (note.rowsServed) this.rowsServed.inc({ operation, plan }, note.rowsServed);
    if (note.rowsCharged) this.rowsCharged.inc({ operation, plan }, note.rowsCharged);
    if (status === 429 || status === 402) this.refused.inc({ plan, status: String(status) });
  }

  /** The gauges read from the engine at each scrape: keys by plan, the journal, incidents, the state store. */
  watch(engine: Engine): void {
    watchEngine(this.registry, engine, metricPrefix);
  }

  /** The scrape: the text format and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** `2xx`, `4xx`...; `0xx` for a call cut with nothing written. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;
