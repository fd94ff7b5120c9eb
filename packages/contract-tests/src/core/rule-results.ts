/**
 * The single-response rules' results of a run: each rule, how often a call broke it, where the run
 * was when it did, and its findings grouped by kind, so that a rule broken on every call is one
 * broken rule with a few counted examples, not the same line for every call and property.
 */
import { operationFor } from '@investor-graph/contract';
import type { ShownExchange } from '../shown/calls-shown.ts';
import { withoutKeys } from '../shown/failure-text.ts';
import type { SuiteContext } from './context.ts';
import { allRules, type AnyRuleId } from '../judges/judges.ts';
import { basisOf } from './property-result.ts';

/** One kind of violation: the first call that showed it, and how many calls showed the same. */
export interface RuleExample {
  /** The first such call and what it got (`GET /api/v1/firms?limit=5 -> 200: ...`), keys blanked. */
  text: string;
  /** Calls that showed the same: the same rule, operation, status and message. */
  count: number;
  /** Where the run was when they did: the set-up, or the properties whose calls they were. */
  during: string[];
}

export interface RuleResult {
  id: AnyRuleId;
  title: string;
  basis: 'documented' | 'assumed';
  spec: string | null;
  assumed: string[];
  violations: number;
  /** The set-up and the properties whose calls broke it, in the order the run met them. */
  during?: string[];
  /** The first kinds of its violations (at most five), each once with its count. */
  examples: RuleExample[];
  /** How many kinds its violations come in (`examples` shows the first five). */
  kinds?: number;
  /** The first call of each example, in the same order. */
  exchanges?: ShownExchange[];
}

/** What the run keeps of a call that broke a rule (the ledger's findings). */
export interface Finding {
  rule: AnyRuleId;
  message: string;
  check: string;
  call: string;
  exchange: ShownExchange;
}

/** A group of findings of one kind: the first, and all of them. */
export interface FindingGroup {
  first: Finding;
  count: number;
  during: string[];
}

/**
 * Findings grouped by kind, in the order their kinds were first met. A kind is the rule, the
 * operation (its path template: `/api/v1/companies/{slug}`, not each slug), the method and status,
 * and the message with the call's own X-Request-Id left out (the one thing every call's message differs by).
 */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const f of findings) {
    const x = f.exchange;
    const pathname = new URL(x.path, 'http://service.invalid').pathname;
    const shape = `${x.method} ${operationFor(x.method === 'HEAD' ? 'GET' : x.method, pathname)?.path ?? pathname}`;
    const id = x.request_headers['x-request-id'];
    const said = id ? f.message.split(id).join('<id>') : f.message;
    const kind = `${f.rule}\n${shape} -> ${x.status}\n${said}`;
    const group = groups.get(kind);
    if (!group) groups.set(kind, { first: f, count: 1, during: [f.check] });
    else {
      group.count += 1;
      if (!group.during.includes(f.check)) group.during.push(f.check);
    }
  }
  return [...groups.values()];
}

/** How many of a kind, as a line ends with it: nothing for one, ` (×5)` for five. */
export const timesSaid = (count: number): string => (count > 1 ? ` (×${count.toLocaleString('en')})` : '');

/** Every single-response rule over every call the run made. */
export function ruleResults(ctx: SuiteContext): RuleResult[] {
  return (Object.keys(allRules) as AnyRuleId[]).map((id) => {
    const found = ctx.ledger.findings.filter((f) => f.rule === id);
    const groups = groupFindings(found);
    const info = allRules[id];
    return {
      id,
      title: info.title,
      basis: info.spec ? basisOf(info.assumed) : 'assumed',
      spec: info.spec,
      assumed: info.assumed,
      violations: found.length,
      during: [...new Set(found.map((f) => f.check))],
      examples: groups.slice(0, 5).map((g) => ({
        text: withoutKeys(`${g.first.call}: ${g.first.message}`),
        count: g.count,
        during: g.during,
      })),
      kinds: groups.length,
      exchanges: groups.slice(0, 5).map((g) => g.first.exchange),
    };
  });
}
