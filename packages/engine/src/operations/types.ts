/**
 * The shapes of the operation table (operations.ts): what an operation serves, what it reads, and
 * the two kinds of entry, answered with a key (counted, charged, in the envelope) or without one.
 */
import type { ContractValidator } from '@investor-graph/contract';
import type { Accounts, Usage } from '../accounts/accounts.ts';
import type { Answer } from '../answer.ts';
import type { Call } from '../context.ts';
import type { Row } from '@investor-graph/dataset-tools';
import type { Dump, Dumps } from '../dumps/dumps.ts';
import type { KeyRecord } from '../stores/key-store.ts';
import type { Statistics } from '../data/statistics.ts';
import type { Store } from '../data/store.ts';

/** What an operation serves: the data of the envelope, or a file's bytes. */
export interface Served {
  body: unknown;
  /** Rows served: what a pay-as-you-go call is charged by. */
  rows: number;
  /** The key of the last row, when a next page may follow. */
  next?: string | null;
  /** A file's bytes (a dump): a Blob, which may live on disk and is streamed. */
  raw?: Blob;
  contentType?: string;
  etag?: string;
  /**
   * The body is the store's rows (or one row), which a rebuild replaces and never edits: their JSON may be remembered.
   */
  stored?: boolean;
  /** The envelope's data, made once the call is counted (the account shows the usage it comes with). */
  afterCharge?: (key: KeyRecord, usage: Usage) => unknown;
}

export interface OperationEnv {
  store: Store;
  statistics: Statistics;
  dumps: Dumps;
  accounts: Accounts;
  validator: ContractValidator;
  now: () => number;
  /** The base URL clients reach the mock at, for the absolute URLs it writes. */
  publicBase: () => string;
}

export interface ServeInput {
  call: Call;
  /** The key of the last row of the previous page, from the cursor (null on the first page). */
  afterKey: string | null;
  /** What `prepare` made ready, empty otherwise. */
  prepared: Prepared;
}

/** What an operation's `prepare` makes ready before the transaction: work that takes a while and must not block. */
export interface Prepared {
  /** The dumps a manifest or a file needs, by date (only dates that exist). */
  dumps?: Map<string, Dump>;
  /** A rollup's rows. */
  statistic?: Row[];
}

/** A call answered without a key: the trial key, the contract document. */
export interface OpenInput {
  request: Request;
  requestId: string;
  clientAddress: string;
}

export interface OpenOperation {
  /** The whole answer, before (and without) any key. */
  open: (input: OpenInput, env: OperationEnv) => Promise<Answer>;
}

export interface KeyedOperation {
  open?: undefined;
  /** What the request must also be, beyond the contract's schemas: the 4xx it earns otherwise. */
  check?: (call: Call) => void;
  /** The plan feature the call needs: without it, 402 before anything is served. */
  feature?: 'changes_feed' | 'exports';
  /** Counted against the quota (and charged, on pay as you go). */
  counted: boolean;
  prepare?: (call: Call, env: OperationEnv) => Promise<Prepared>;
  /** What the call serves; 404s are thrown here, before anything is counted. */
  serve: (input: ServeInput, env: OperationEnv) => Served;
}

export type Operation = OpenOperation | KeyedOperation;
