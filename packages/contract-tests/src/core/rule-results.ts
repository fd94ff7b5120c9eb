/** The single-response rules' results of a run: each rule, how often a call broke it, and examples. */
import type { ShownExchange } from '../report/calls-shown.ts';
import { withoutKeys } from '../report/failure-text.ts';
import type { SuiteContext } from './context.ts';
import { allRules, type AnyRuleId } from './judges.ts';
import { basisOf } from './run.ts';

export interface RuleResult {
  id: AnyRuleId;
  title: string;
  basis: 'documented' | 'assumed';
  spec: string | null;
  assumed: string[];
  violations: number;
  examples: string[];
  /** The call of each example, in the same order. */
  exchanges?: ShownExchange[];
}

/** Every single-response rule over every call the run made. */
export function ruleResults(ctx: SuiteContext): RuleResult[] {
  return (Object.keys(allRules) as AnyRuleId[]).map((id) => {
    const found = ctx.ledger.findings.filter((f) => f.rule === id);
    const info = allRules[id];
    return {
      id,
      title: info.title,
      basis: info.spec ? basisOf(info.assumed) : 'assumed',
      spec: info.spec,
      assumed: info.assumed,
      violations: found.length,
      examples: found.slice(0, 5).map((f) => withoutKeys(`${f.call} (during ${f.check}): ${f.message}`)),
      exchanges: found.slice(0, 5).map((f) => f.exchange),
    };
  });
}
