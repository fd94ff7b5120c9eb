export { defineContractSuite, type SuiteOptions } from './cli/suite.ts';
export { properties, type Property } from './properties.ts';
export { prepare, type SuiteConfig, type SuiteContext } from './core/context.ts';
export { runProperty, type PropertyResult } from './core/run.ts';
export { ruleResults, type RuleResult } from './core/rule-results.ts';
export { buildReport, type Report } from './report/report.ts';
export { formatReport } from './report/report-text.ts';
export { ApiClient, BudgetExhausted, Ledger, type Budget, type Spending } from './client/client.ts';
