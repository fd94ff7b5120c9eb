/** The validation proxy's shapes: its options, what it records of an exchange, and the proxy itself. */
import type { ContractValidator, RuleId } from '@investor-graph/contract';
import type { WalkLimits, WalkPage, WalkTracker } from './walks.ts';

export interface ProxyViolation {
  /** `request`: the client sent what the contract rejects; `response`: the service broke a rule. */
  side: 'request' | 'response';
  /**
   * `not_validated`: a check the proxy gave up, with why: an answer too large to hold or with no
   * room left to hold it, a check out of time or failed, a walk it could not follow, a stop mid-exchange.
   */
  rule: RuleId | 'request' | 'upstream' | 'not_validated';
  message: string;
}

export interface ExchangeRecord {
  at: string;
  method: string;
  /** Path and query, cursors shortened. Never a header: keys stay out of every record. */
  path: string;
  /** The request carried an Authorization header (never its value): a replay sends the key only then. */
  keyed?: true;
  /** The service's status; 0 when the proxy stopped before the service answered. */
  status: number;
  ms: number;
  violations: ProxyViolation[];
  /** The first bytes of the response body, keys blanked; only for exchanges with violations. */
  excerpt?: string;
  /** Why checks were given up, when `allowUnvalidated` makes that a note rather than a violation. */
  notValidated?: string;
  /** Violations past the exchange's budget, by rule: counted, not kept. */
  more?: Record<string, number>;
}

export interface ProxyOptions {
  /** The live service, e.g. https://api.example.com (a path prefix is kept). */
  upstream: string;
  validator: ContractValidator;
  /** Answer a response that breaks a rule with a 502 problem instead of passing it on. */
  errors?: boolean;
  /** Per request, answer body included; a slow upstream becomes a 504 problem. */
  timeoutMs?: number;
  /** Bodies up to this many bytes are held and checked; a larger one streams on unchecked (32 MiB). */
  maxValidatedBytes?: number;
  /**
   * Bytes held for checking across all exchanges at once; an
   * answer past it streams on unchecked (twice maxValidatedBytes).
   */
  maxHeldBytes?: number;
  /**
   * Checks answers over `offloadBytes` (a process of their own:
   * proxy/checker/process.ts); without it they are checked here, a rule at a time.
   */
  checker?: Checker;
  /** 256 KiB: a rule on a smaller answer takes a few ms at most. */
  offloadBytes?: number;
  /** Bounds of the walks followed for the walk's rule (walks.ts). */
  walks?: Partial<WalkLimits>;
  /**
   * A check given up (`not_validated`: an answer streamed on unchecked, a walk forgotten, ...) is a
   * violation of its own, counted in the report and the exit code; with this, it is only noted
   * (`notValidated` in the record).
   */
  allowUnvalidated?: boolean;
  /** Violations kept per exchange; the rest are counted by rule ("N more"). 100. */
  maxViolations?: number;
  fetch?: typeof globalThis.fetch;
  /** Called once per exchange, after it is checked. */
  onExchange?(record: ExchangeRecord): void;
  /** Counters of exchanges and violations (counted.ts), as the CLI's metrics give them; none by default. */
  counters?: ExchangeCounters;
}

/** What the proxy counts into (prom-client's Counters): exchanges by operation and status class, violations by rule. */
export interface ExchangeCounters {
  exchanges: { inc(labels: { operation: string; status_class: string }): void };
  violations: { inc(labels: { rule: string; operation: string }, value?: number): void };
}

export interface ValidationProxy {
  fetch(request: Request): Promise<Response>;
  /**
   * Records every exchange still in flight as given up, saying `why`
   * (the proxy is stopping), so a report written next holds them.
   */
  abandon(why: string): void;
  /** The walks followed, within their bounds. */
  readonly walks: WalkTracker;
}

export interface CheckJob {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  status: number;
  /** The answer's headers, names in lower case (as a Headers object gives them). */
  headers: Record<string, string>;
  body: Uint8Array;
  /** A rule not started this long after the checks began is not run, and that is said. */
  timeoutMs: number;
  /** Rows of a page handed back for the walk's rule. */
  maxRows: number;
}

export interface CheckResult {
  violations: ProxyViolation[];
  /** The answer as a page of a walk, for the proxy's walks; null when it is none. */
  page: WalkPage | null;
}

/** Checks the whole job; given it runs on a lot of data, what does so elsewhere is handed it. */
export type Checker = (job: CheckJob) => Promise<CheckResult>;
