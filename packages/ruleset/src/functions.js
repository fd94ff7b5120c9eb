// @ts-check
/**
 * The custom functions of the Investor Graph ruleset, built with createRulesetFunction. Each reads
 * the resolved document (`given: '$'`) and reports results at the exact path that breaks the rule.
 */
// One module per concern under functions/; this file is the one entry index.js and the build read
// (build-vocabulary.mjs inlines the people vocabulary into it).
export * from './functions/shapes.js';
export * from './functions/access.js';
export * from './functions/people.js';
export * from './functions/values.js';
export * from './functions/decisions.js';
