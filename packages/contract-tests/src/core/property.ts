/** What a property is, and how one fails: the run (run.ts) and the plan (plan.ts) take properties of this shape. */
/* eslint-disable @typescript-eslint/no-explicit-any -- a case is what each property's own arbitrary makes */
import type fc from 'fast-check';
import type { Spending } from '../client/client.ts';
import type { SuiteContext } from './context.ts';

export interface Property {
  id: string;
  title: string;
  spec: string[];
  assumed: string[];
  /** Why it cannot run here (plan, flags, budget), or null. */
  skip(ctx: SuiteContext): string | null;
  /** The most one generated case can spend. */
  cost(ctx: SuiteContext): Spending;
  /** The most one given case (a boundary case) can spend, when less than `cost` (plan.ts prices each). */
  caseCost?(ctx: SuiteContext, input: any): Spending;
  /** One generated case; throws on a broken property. */
  arbitrary(ctx: SuiteContext): fc.Arbitrary<any>;
  /**
   * The boundary and example cases every run opens with, in order of importance (the budget may
   * cut the list short), before generated ones: a broken server is caught on every seed.
   */
  examples?(ctx: SuiteContext): any[];
  check(ctx: SuiteContext, input: any): Promise<void>;
  /**
   * One case a run: what it reads is the same every time (the account, the description), and each
   * read spends the budget.
   */
  once?: boolean;
  /**
   * It does not use the run's key (the address's admission, the description, the trial call, keys
   * the control API makes): its calls spend none of the key's quota, and it runs once a run.
   */
  keyless?: boolean;
  /**
   * A failing case is shrunk, within a share of the budget (core/run.ts), to the smallest that still
   * fails: a sequence of calls, whose shortest form is what a reader needs. Others replay as found.
   */
  shrinks?: boolean;
  /** Work begun as the run starts, judged in the property's turn (a request the server answers only after 10 s). */
  start?(ctx: SuiteContext): void;
}

export class PropertyFailure extends Error {
  override name = 'PropertyFailure';
}

/** A call found wrong by a rule or the model, ending a case early: the run says the findings (core/run.ts). */
export class FindingsSeen extends Error {
  override name = 'FindingsSeen';
}
