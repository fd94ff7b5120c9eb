/**
 * What every step of a request reads: where the request came from (given by the adapter), and a
 * data call once its key is known. Types only, so the steps and control.ts import them without
 * importing engine.ts (which imports them all).
 */
import type { PlanId, PlanRule } from '@investor-graph/contract/plans';
import type { Delivery } from './answer.ts';
import type { KeyRecord } from './stores/key-store.ts';
import type { RouteMatch } from './http/router.ts';

export interface RequestContext {
  /** The client's address, for the open trial call's rate bucket. */
  clientAddress?: string;
  /** True when the request came over loopback (or in-process, as with MSW). */
  loopback?: boolean;
  /** The request never crossed a network (MSW): the control plane has nothing to guard. */
  inProcess?: boolean;
  /** Host names besides the loopback ones that name this mock, for the control plane's Host check. */
  allowedHosts?: readonly string[];
  /** The server in front compresses JSON as Accept-Encoding asks, so data answers vary by it. */
  compresses?: boolean;
  /** Given by the journal's wrapper (journal/wrapper.ts): the id the answer carries. */
  requestId?: string;
  /** Given by the journal's wrapper: what the steps learn of the call, for its entry. */
  note?: CallNote;
  /** Given by an adapter that traces calls (the mock's operate/): the steps mark where each begins and ends. */
  trace?: CallTrace;
  /**
   * Given by the incidents' wrapper (incidents/wrapper.ts), which authenticated the call to know whom
   * it matches: the steps take this key rather than authenticate twice. The boundary drops one given outside it.
   */
  authenticated?: KeyRecord;
}

/** The steps a trace shows of a data call, as they come (the journal's last). */
export type TracedStep =
  'incident' | 'authenticate' | 'validate' | 'rate' | 'admit' | 'read' | 'charge' | 'envelope' | 'journal';

/**
 * Where a tracing adapter learns a call's steps: `step` as one begins, the function it gives back
 * as it ends. A step that throws never calls it: the adapter ends whatever is open with the call, as failed.
 */
export interface CallTrace {
  step(name: TracedStep): () => void;
}

/** A call of the data API whose key is known: who calls, on which plan, for what. */
export interface Call {
  requestId: string;
  url: URL;
  route: RouteMatch;
  query: Map<string, string>;
  /** The key as stored: inside the store's transaction, as it is now. */
  key: KeyRecord;
  plan: PlanRule;
}

/**
 * What the steps of a data call note of it as they learn it, for the request journal (engine.ts
 * writes the entry once the call is answered): each member is left out until a step knows it.
 */
export interface CallNote {
  /** The contract's operationId, once routed. */
  operation?: string;
  /** The key's id and plan (never the key), once authenticated. */
  keyId?: string;
  plan?: PlanId;
  /** The problem's code, when the answer is one. */
  problem?: string;
  rowsServed?: number;
  /** Counted against the quota, and rows charged to a balance: set once charged, taken back with a refund. */
  counted?: boolean;
  rowsCharged?: number;
  /** The incident that changed the call (incidents/), and how it has the answer delivered. */
  incident?: string;
  delivery?: Delivery;
  /** The trace the adapter answered it in (its log line's trace id), when it traces calls. */
  traceId?: string;
}
