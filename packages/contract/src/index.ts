export {
  openapiDocument,
  operations,
  operationById,
  parameterEnum,
  resolveRef,
  type OperationInfo,
  type OpenApiDocument,
} from './document.ts';
export {
  plans,
  planIds,
  defaultLimit,
  trialKeysPerMinute,
  trialKeyKeptDays,
  failedAuth,
  isPlanId,
  nextPlanUp,
  firstPlanWith,
  type PlanId,
  type PlanRule,
} from './plans.ts';
export {
  checkExchange,
  checkRule,
  findPeople,
  parseBody,
  queryOf,
  rowIdentity,
  see,
  PageTracker,
  rules,
  type RuleId,
  type RuleInfo,
  type Rule,
  type Seen,
  type Finding,
  type Exchange,
} from './rules.ts';
export { matchOperation, methodsAt, operationFor, type OperationMatch } from './router.ts';
export {
  isPersonFieldName,
  isPersonSchema,
  isPersonValue,
  nameWords,
  personFieldNames,
  personNamePairs,
  personNameWords,
  personValuePatterns,
} from './people.ts';
export {
  createContractValidator,
  type ContractValidator,
  type Violation,
  type HttpRequestLike,
  type HttpResponseLike,
} from './validator.ts';
export type { paths, components, operations as operationTypes } from './generated/api.ts';

/** The shape of one schema of the contract, by name: `Schema<'Firm'>`. */
export type Schema<Name extends keyof import('./generated/api.ts').components['schemas']> =
  import('./generated/api.ts').components['schemas'][Name];
