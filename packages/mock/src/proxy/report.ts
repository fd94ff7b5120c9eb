/**
 * What the proxy saw, for the files it writes on exit: counts per rule and the first violations
 * with their excerpts. Bounded, so a proxy left running for days holds a fixed amount.
 */
import { xmlText } from '@investor-graph/cli/xml';
import { rules, type RuleId } from '@investor-graph/contract';
import type { ExchangeRecord, ProxyViolation } from './proxy.ts';

const KEEP = 1_000;

export interface ProxyReportJson {
  upstream: string;
  started_at: string;
  ended_at: string;
  exchanges: number;
  exchanges_with_violations: number;
  by_rule: Record<string, number>;
  violations: (ExchangeRecord & { violations: ProxyViolation[] })[];
  violations_left_out: number;
}

/** The kit's one XML escaper (@investor-graph/cli), shared with the contract diff's JUnit. */
const xml = xmlText;

/** What the proxy judges beside the contract's rules, by the name its violations carry. */
export const proxyChecks = {
  upstream: 'the service was reachable and answered in time',
  not_validated: 'every answer was checked (none passed on unchecked)',
  request: 'requests sent through the proxy conform to the contract',
} as const;

export class ProxyReport {
  readonly upstream: string;
  readonly startedAt = new Date().toISOString();
  exchanges = 0;
  withViolations = 0;
  readonly byRule = new Map<string, number>();
  readonly kept: ExchangeRecord[] = [];
  leftOut = 0;

  constructor(upstream: string) {
    this.upstream = upstream;
  }

  add(record: ExchangeRecord): void {
    this.exchanges += 1;
    if (!record.violations.length) return;
    this.withViolations += 1;
    for (const v of record.violations) this.byRule.set(v.rule, (this.byRule.get(v.rule) ?? 0) + 1);
    // Past the exchange's budget: counted, though not kept.
    for (const [rule, n] of Object.entries(record.more ?? {})) this.byRule.set(rule, (this.byRule.get(rule) ?? 0) + n);
    if (this.kept.length < KEEP) this.kept.push(record);
    else this.leftOut += 1;
  }

  get responseViolations(): number {
    return [...this.byRule.entries()].filter(([rule]) => rule !== 'request').reduce((sum, [, n]) => sum + n, 0);
  }

  toJSON(): ProxyReportJson {
    return {
      upstream: this.upstream,
      started_at: this.startedAt,
      ended_at: new Date().toISOString(),
      exchanges: this.exchanges,
      exchanges_with_violations: this.withViolations,
      by_rule: Object.fromEntries(this.byRule),
      violations: this.kept,
      violations_left_out: this.leftOut,
    };
  }

  /** One test case per rule (and one for the requests clients sent), failed when it was broken. */
  toJUnit(): string {
    const cases: { name: string; rule: string }[] = [
      ...(Object.keys(rules) as RuleId[]).map((id) => ({ name: `rule ${id}: ${rules[id].title}`, rule: id })),
      ...Object.entries(proxyChecks).map(([rule, name]) => ({ name, rule })),
    ];
    // The client's own bad requests are listed but fail nothing: the proxy judges the service.
    const failures = cases.filter((c) => c.rule !== 'request' && this.byRule.has(c.rule)).length;
    const body = cases
      .map((c) => {
        const count = this.byRule.get(c.rule);
        if (!count) return `    <testcase classname="validation proxy" name="${xml(c.name)}"/>`;
        const examples = this.kept
          .flatMap((r) =>
            r.violations
              .filter((v) => v.rule === c.rule)
              .map((v) => `${r.method} ${r.path} -> ${r.status}: ${v.message}`),
          )
          .slice(0, 20);
        const inner =
          c.rule === 'request'
            ? `<system-out>${xml(examples.join('\n'))}</system-out>`
            : `<failure message="${xml(`${count} violations in ${this.exchanges} exchanges`)}">` +
              `${xml(examples.join('\n'))}</failure>`;
        return `    <testcase classname="validation proxy" name="${xml(c.name)}">\n      ${inner}\n    </testcase>`;
      })
      .join('\n');
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="investor-graph validation proxy" ` +
      `tests="${cases.length}" failures="${failures}">\n` +
      `  <testsuite name="${xml(`validation proxy in front of ${this.upstream}`)}" tests="${cases.length}" ` +
      `failures="${failures}" errors="0" skipped="0" timestamp="${this.startedAt}">\n${body}\n  </testsuite>\n` +
      `</testsuites>\n`
    );
  }
}
