/** An answer as the client gives it to the properties: what came, and what the rules found in it. */
import type { AnyRuleId, Judged } from '../judges/judges.ts';
import type { Ledger } from './ledger.ts';

export interface Answer {
  status: number;
  headers: Headers;
  // As it came: the properties, which read untyped JSON (eslint.config.js), assert each field they read.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- what a service sent, untyped until read
  body: any;
  text: string;
  /** The body's bytes as served, when asked for with `raw` (a dump file). */
  bytes?: Uint8Array;
  findings: { rule: AnyRuleId; message: string }[];
}

/** A call as sent, for a judge beside the rules: the path, headers and key, and whether its body was read whole. */
export interface SentCall {
  path: string;
  headers: Record<string, string>;
  key: string | null;
  body?: string | undefined;
  whole: boolean;
}

/**
 * The model as the client holds it (model/run-model.ts makes it): a judge of every answer beside
 * the rules, told of the control calls a run makes; the client knows no more of it.
 */
export interface AnswerModel {
  judge(
    judged: Judged,
    sent: SentCall,
    ledger: Ledger,
    unpaced?: boolean,
  ): Promise<{ rule: 'model'; message: string }[]>;
  mirrorControl(method: string, path: string, body: unknown, answer: unknown): Promise<void>;
  /**
   * For a request that sends a service's `next_cursor` back with its query: whether the model holds
   * its own next page (`own`), had none of its own (`none`) or never saw the cursor (model/cursors.ts).
   */
  follows?(path: string): 'own' | 'none' | 'unseen';
}
