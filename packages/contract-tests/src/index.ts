export { defineContractSuite, type SuiteOptions } from './suite.ts';
export { properties, type Property } from './properties.ts';
export { prepare, type SuiteConfig, type SuiteContext } from './context.ts';
export { runProperty, ruleResults, type PropertyResult, type RuleResult } from './run.ts';
export { buildReport, formatReport, type Report } from './report.ts';
export { ApiClient, BudgetExhausted, Ledger, type Budget, type Spending } from './client.ts';
