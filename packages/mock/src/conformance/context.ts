/**
 * What every conformance case works with: the target adapter, and the suite's helpers that call it
 * and hold every answer to every rule (suite.ts makes them, one set per run).
 */
import type { PageTracker, PlanId } from '@investor-graph/contract';

export const AS_OF = '2026-11-20T03:00:00Z';
export const DAY = 86_400_000;

export interface ConformanceTarget {
  /** Where the API is, e.g. http://127.0.0.1:4321 (with MSW: the intercepted origin). */
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

export interface ConformanceSetup {
  /** Starts a fresh mock on the default dataset with the clock frozen at `now`. */
  (options: { now: string }): Promise<ConformanceTarget>;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  bytes: Uint8Array;
}

type CallInit = RequestInit & { key?: string | null };

export interface ConformanceContext {
  /** A case, skipped (with its reason) where the adapter cannot run it. */
  it(title: string, body: () => Promise<void>, timeout?: number): void;
  /** A call through the adapter; its answer is held to every rule on the way. */
  call(path: string, init?: CallInit, on?: ConformanceTarget): Promise<Answer>;
  /** A control call that must succeed; its body. */
  control(path: string, body?: unknown, method?: string, on?: ConformanceTarget): Promise<any>;
  /** A fresh key of a plan: each case gets its own rate bucket and counters. */
  newKey(plan: PlanId, prepaidRows?: number, on?: ConformanceTarget): Promise<{ key: string; key_id: string }>;
  /** A call that honours 429 Retry-After as a well-behaved client does (at most three waits). */
  politely(path: string, init?: CallInit, on?: ConformanceTarget): Promise<Answer>;
  /** Walks a list to its end and returns every row. */
  walk(path: string, key: string, limit: number, on?: ConformanceTarget): Promise<any[]>;
  /** Starts another mock of the same adapter (a case that needs its own clock). */
  setup: ConformanceSetup;
  /** What the rules found, over every answer of the run. */
  findings: string[];
  walks: PageTracker;
  /** The run's mock, once started. */
  readonly target: ConformanceTarget;
}
