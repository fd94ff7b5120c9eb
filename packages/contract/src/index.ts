export { openapiDocument, operations, operationById, resolveRef, type OperationInfo, type OpenApiDocument } from './document.ts';
export { plans, planIds, defaultLimit, trialKeysPerMinute, failedAuth, isPlanId, nextPlanUp, firstPlanWith, type PlanId, type PlanRule } from './plans.ts';
export { checkExchange, findPeople, operationFor, parseBody, queryOf, rowIdentity, PageTracker, rules, type RuleId, type RuleInfo, type Finding, type Exchange } from './rules.ts';
export { createContractValidator, type ContractValidator, type Violation, type HttpRequestLike, type HttpResponseLike } from './validator.ts';
export type { paths, components, operations as operationTypes } from './generated/api.ts';

/** The shape of one schema of the contract, by name: `Schema<'Firm'>`. */
export type Schema<Name extends keyof import('./generated/api.ts').components['schemas']> =
  import('./generated/api.ts').components['schemas'][Name];
