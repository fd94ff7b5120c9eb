/** What the control client's cases (client-case-list.test-support.ts) work with, and the adapters give them. */
import type { ControlClient, ControlFetch } from './client.ts';

export interface ControlTarget {
  /** Where the mock is (with MSW: the intercepted origin). */
  baseUrl: string;
  /** How calls reach the mock's control plane: fetch over a port, or the engine in-process. */
  transport: ControlFetch;
  /** The client as the adapter's users get it (`createControlClient` over HTTP, `api.control`). */
  native: ControlClient;
  /** A call of the data API through the adapter, with a key when given. */
  data(path: string, key?: string): Promise<Response>;
  close(): Promise<void>;
}

export type ControlSetup = (options: { now: string }) => Promise<ControlTarget>;

/** What each case works with. */
export interface ControlCaseContext {
  it(title: string, body: () => Promise<void>): void;
  /** The client the cases drive, over the target's transport, every exchange validated. */
  readonly control: ControlClient;
  readonly target: ControlTarget;
  /** Takes out the findings of requests sent off the document on purpose, and returns them. */
  sentOffDocument(): string[];
  /** Every key text a case was shown (the answers of createKey): no other answer or error may hold one. */
  issued: string[];
  /** Every answer's text but createKey's, and every error's message, for the last case to search. */
  shown: string[];
}
