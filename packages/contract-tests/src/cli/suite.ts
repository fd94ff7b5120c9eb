/**
 * The properties as vitest tests: one test per property, then one per single-response rule over
 * every call the run made. The CLI runs this against any base URL; this repo runs it against the
 * mock. The JSON report is written when the suite ends.
 */
import { afterAll, beforeAll, describe, test } from 'vitest';
import { prepare, type SuiteConfig, type SuiteContext } from '../core/context.ts';
import { allRules, type AnyRuleId } from '../judges/judges.ts';
import { properties } from '../properties.ts';
import { planRun } from '../core/plan.ts';
import { coverageText, outcomeKey, planOutcome, propertyOutcome, ruleOutcome } from '../report/property-lines.ts';
import { buildReport, writeReport, type Report } from '../report/report.ts';
import { formatReport, ruleFailureText } from '../report/report-text.ts';
import { runProperty, type PropertyResult } from '../core/run.ts';
import { ruleResults } from '../core/rule-results.ts';

export interface SuiteOptions {
  /** A name for the describe block (the JUnit suite). */
  name?: string;
  /** Print the report when the suite ends. */
  print?: boolean;
  onReport?(report: Report): void;
}

export function defineContractSuite(
  config: SuiteConfig | (() => SuiteConfig | Promise<SuiteConfig>),
  options: SuiteOptions = {},
): void {
  describe(options.name ?? 'contract tests', () => {
    let ctx: SuiteContext;
    let selected: string[] = [];
    const results: PropertyResult[] = [];
    let started = 0;

    beforeAll(async () => {
      const resolved = typeof config === 'function' ? await config() : config;
      const unknown = (resolved.only ?? []).filter((id) => !properties.some((p) => p.id === id));
      if (unknown.length)
        throw new Error(
          `[contract-tests] no property ${unknown.join(', ')}; the properties are ` +
            `${properties.map((p) => p.id).join(', ')}`,
        );
      selected = properties.map((p) => p.id).filter((id) => !resolved.only?.length || resolved.only.includes(id));
      started = performance.now();
      ctx = await prepare(resolved);
      if (!ctx.setupError)
        for (const property of properties)
          if (selected.includes(property.id) && property.start && !property.skip(ctx)) property.start(ctx);
    });

    afterAll(() => {
      if (!ctx) return;
      const report = buildReport(ctx, results, performance.now() - started);
      if (ctx.config.reportFile) writeReport(ctx.config.reportFile, report);
      if (options.print) console.log(formatReport(report));
      options.onReport?.(report);
    });

    // What the run will spend, before it spends it: every property's boundary cases first (plan.ts).
    test('plan: the cases each property runs within the budget', (t) => {
      const chosen = properties.filter((p) => selected.includes(p.id));
      const plan = planRun(ctx, chosen, ctx.client.remaining, ctx.config.runs);
      ctx.plan = plan;
      Object.assign(t.task.meta, { [outcomeKey]: planOutcome(plan, ctx.config) });
    });

    for (const property of properties) {
      test(`${property.id}: ${property.title}`, async (t) => {
        if (!selected.includes(property.id)) t.skip('not selected with --only');
        const later = properties.filter((p) => selected.includes(p.id)).slice(selected.indexOf(property.id) + 1);
        const result = await runProperty(ctx, property, later);
        results.push(result);
        await t.annotate(
          `${coverageText(result)}, ${result.spent.calls} calls, ${result.spent.rows} rows; ` +
            `${result.basis}${result.assumed.length ? ` (${result.assumed.join(', ')})` : ''}`,
        );
        // The CLI's progress line (property-lines.ts) reads it.
        Object.assign(t.task.meta, { [outcomeKey]: propertyOutcome(result, ctx.config.plan) });
        if (result.status === 'skipped') t.skip(`not reached: ${result.reason}`);
        if (result.failure) {
          // A failure before any case ran (the run could not get ready) has no case to show.
          const { message, counterexample, replay, rerun, rules } = result.failure;
          // Broken by a rule's findings alone: the rule's own case counts them, once for the run.
          const whose = rules?.length
            ? `\n\nits own check held on this case; the findings of rule ${rules.join(', ')} alone broke it`
            : '';
          throw new Error(
            counterexample
              ? `${message}${whose}\n\ncounterexample: ${counterexample}\nreplay: ${rerun ?? replay}`
              : message,
          );
        }
      });
    }

    for (const id of Object.keys(allRules) as AnyRuleId[]) {
      test(`rule ${id}: ${allRules[id].title}`, (t) => {
        const result = ruleResults(ctx).find((r) => r.id === id)!;
        Object.assign(t.task.meta, { [outcomeKey]: ruleOutcome(result, ctx.ledger.exchanges, ctx.config.plan) });
        if (result.violations) throw new Error(ruleFailureText(result, ctx.ledger.exchanges));
      });
    }
  });
}
