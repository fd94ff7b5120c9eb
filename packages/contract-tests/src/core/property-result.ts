/** What a run says of one property: its status, the cases it ran, what it spent, and its failure. */
import type { ShownExchange } from '../shown/calls-shown.ts';
import type { Spending } from '../client/client.ts';
import type { AnyRuleId } from '../judges/judges.ts';

/** How much of a property a run checked: all its boundary cases and some generated ones, part of them, or none. */
export type Coverage = 'every case' | 'some cases' | 'not reached';

export interface PropertyResult {
  id: string;
  title: string;
  status: 'passed' | 'failed' | 'skipped';
  /** documented: rests on the spec alone; assumed: also on decisions in DECISIONS.md. */
  basis: 'documented' | 'assumed';
  spec: string[];
  assumed: string[];
  runs: number;
  plannedRuns: number;
  /** The cases run: boundary (of those it has) and generated (of those --runs asked for). */
  cases: { boundary: number; boundaryTotal: number; generated: number; generatedWanted: number };
  coverage: Coverage;
  spent: Spending;
  seed: number;
  reason?: string;
  /** `exchanges`: the calls of the failing case that show it (its findings' calls, or its last calls). */
  failure?: {
    message: string;
    counterexample: string;
    path: string | null;
    replay: string;
    /** The whole command that replays it, pasted as it is (the key from INVESTOR_GRAPH_KEY). */
    rerun?: string;
    exchanges?: ShownExchange[];
    /** The rules whose findings alone broke it (its own check held on the case): the failure is theirs. */
    rules?: AnyRuleId[];
  };
  /** The case ran out of budget partway and was counted as not run. */
  stoppedByBudget?: boolean;
}

export function basisOf(assumed: readonly string[]): 'documented' | 'assumed' {
  return assumed.length ? 'assumed' : 'documented';
}

/** Every boundary case and, unless it has none, a generated one: checked on every case; fewer: some cases. */
export function coverageOf(
  status: PropertyResult['status'],
  cases: PropertyResult['cases'],
  stoppedByBudget = false,
): Coverage {
  if (status === 'skipped') return 'not reached';
  const everyBoundary = cases.boundary >= cases.boundaryTotal;
  return everyBoundary && (cases.generatedWanted === 0 || cases.generated > 0) && !stoppedByBudget
    ? 'every case'
    : 'some cases';
}
