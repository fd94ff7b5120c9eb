/**
 * Which check catches each deliberate fault of the kit's mock: the property that runs against it,
 * and whether the property itself fails, a single-response rule finds it, or both.
 * broken-servers.test.ts runs every one; rule-matrix.test.ts holds each row's faults to its checks
 * with it, so a row is only "shown to fail" by a fault that one of its own checks catches.
 */
import type { AnyRuleId } from '../judges/judges.ts';
import type { FaultName } from '@investor-graph/mock';
import type { PlanId } from '@investor-graph/contract';

export interface Catcher {
  property: string;
  rule?: AnyRuleId;
  propertyFails?: boolean;
  /** The key the run needs to meet the fault (Enterprise by default). */
  plan?: PlanId;
}

export const catchers: Record<FaultName, Catcher> = {
  'drop-actions': { property: 'auth', rule: 'actions', propertyFails: true },
  'drop-retry-after': { property: 'rate', rule: 'retry-after', propertyFails: true },
  'leak-email': { property: 'conforms', rule: 'no-people' },
  'ignore-limit': { property: 'pagination', rule: 'page-limit', propertyFails: true },
  'repeat-row': { property: 'pagination', rule: 'cursor-continuity', propertyFails: true },
  'wrong-status': { property: 'auth', rule: 'contract', propertyFails: true },
  'server-error-on-bad-input': { property: 'bad-input', rule: 'bad-input-no-5xx', propertyFails: true },
  'accept-bad-cursor': { property: 'cursor-tamper', propertyFails: true },
  'unstable-updated-at': { property: 'stability', propertyFails: true },
  'unordered-changes': { property: 'changes', rule: 'changes-order', propertyFails: true },
  'ignore-announced-since': { property: 'filters', rule: 'announced-since', propertyFails: true },
  // The run cannot even get its samples: it says so (setupError), and the rules judge the calls made.
  'wrong-content-type': { property: 'conforms', rule: 'contract' },
  'ignore-if-none-match': { property: 'conditional', propertyFails: true },
  'stale-openapi': { property: 'openapi', propertyFails: true },
  'refuse-head': { property: 'http-conventions', propertyFails: true },
  'frozen-usage': { property: 'envelope', propertyFails: true },
  'refuse-exports': { property: 'plan-features', propertyFails: true },
  'quota-as-429': { property: 'trial-runs-out', propertyFails: true },
  'statistics-down': { property: 'conforms', propertyFails: true },
  'head-without-auth': { property: 'http-conventions', propertyFails: true },
  'strict-if-none-match': { property: 'conditional', propertyFails: true },
  'rate-limit-policy-wrong': { property: 'conforms', rule: 'rate-limit-headers' },
  'echo-key': { property: 'account', rule: 'key-not-echoed', propertyFails: true },
  'account-counted': { property: 'account', propertyFails: true },
  'query-before-auth': { property: 'auth', propertyFails: true },
  'cursor-ignores-filters': { property: 'cursor-tamper', propertyFails: true },
  'refuse-over-cap': { property: 'bad-input', propertyFails: true },
  'bounds-ignored': { property: 'bad-input', propertyFails: true },
  'first-seen-follows-update': { property: 'changes', propertyFails: true },
  'stale-include-rows': { property: 'changes', propertyFails: true },
  'expired-trial-as-401': { property: 'trial-runs-out', propertyFails: true },
  'manifest-wrong-sha': { property: 'exports', propertyFails: true },
  'drop-service-url': { property: 'conforms', rule: 'contract' },
  'unknown-evidence-tier': { property: 'conforms', rule: 'contract' },
  'cors-closed': { property: 'http-conventions', propertyFails: true },
  'shared-cache': { property: 'http-conventions', rule: 'cache-headers', propertyFails: true },
  'drop-request-id': { property: 'http-conventions', rule: 'request-id', propertyFails: true },
  'drop-www-authenticate': { property: 'http-conventions', propertyFails: true },
  'delete-not-405': { property: 'http-conventions', propertyFails: true },
  'plan-mislabelled': { property: 'envelope', propertyFails: true },
  'as-of-goes-back': { property: 'envelope', propertyFails: true },
  'since-z-only': { property: 'timestamps', propertyFails: true },
  'trial-feed-open': { property: 'plan-features', propertyFails: true, plan: 'trial' },
  'problem-without-code': { property: 'auth', rule: 'problem' },
  'endless-cursor': { property: 'pagination', propertyFails: true },
  'statistics-off-by-one': { property: 'statistics', propertyFails: true },
  'unknown-statistic-400': { property: 'statistics', propertyFails: true },
  'trial-lives-long': { property: 'account', propertyFails: true, plan: 'trial' },
  'long-url-as-400': { property: 'bad-input', propertyFails: true },
  'default-limit-10': { property: 'conforms', propertyFails: true },
  'revoked-as-403': { property: 'key-states', propertyFails: true },
  'quota-actions-trimmed': { property: 'key-states', propertyFails: true },
  'unsorted-pages': { property: 'pagination', propertyFails: true },
  'ignore-unknown-parameter': { property: 'bad-input', propertyFails: true },
  'first-of-repeated-parameter': { property: 'bad-input', propertyFails: true },
  'lenient-include': { property: 'bad-input', propertyFails: true },
  'trial-statuses-as-400': { property: 'trial-call', propertyFails: true },
  'head-counted-twice': { property: 'billing', propertyFails: true },
  'errors-counted': { property: 'billing', propertyFails: true },
  'feed-charge-misreported': { property: 'billing', propertyFails: true, plan: 'payg' },
  'trial-needs-card': { property: 'trial-runs-out', propertyFails: true },
  'trial-key-cacheable': { property: 'trial-runs-out', propertyFails: true },
  'short-trial-keys': { property: 'trial-runs-out', propertyFails: true },
  'sources-without-url': { property: 'conforms', rule: 'contract' },
  'unknown-change-kind': { property: 'changes', rule: 'contract' },
  'paid-feed-refused': { property: 'plan-features', propertyFails: true },
  'fractional-amounts': { property: 'conforms', rule: 'contract' },
  'fund-id-uppercase': { property: 'conforms', rule: 'contract' },
  'slug-with-capitals': { property: 'conforms', rule: 'contract' },
  'list-member-missing': { property: 'conforms', propertyFails: true },
  'bad-dump-date-404': { property: 'exports', propertyFails: true },
  'bad-request-without-errors': { property: 'bad-input', propertyFails: true },
  'unknown-statistic-without-allowed': { property: 'statistics', propertyFails: true },
  'weak-dump-etag': { property: 'exports', propertyFails: true },
  'cached-304': { property: 'conditional', propertyFails: true },
  'quota-item-wrong': { property: 'conforms', rule: 'rate-limit-headers' },
  'download-counted-twice': { property: 'billing', propertyFails: true },
  'links-missing': { property: 'openapi', propertyFails: true },
  'servers-elsewhere': { property: 'openapi', propertyFails: true },
  'trial-call-unlimited': { property: 'trial-call', propertyFails: true },
  'insufficient-balance-charged': { property: 'key-states', propertyFails: true },
  'lag-ignored': { property: 'filters', rule: 'round-lag', propertyFails: true, plan: 'trial' },
  'route-moved': { property: 'conforms', propertyFails: true },
  'periods-from-the-15th': { property: 'envelope', propertyFails: true },
  'failed-auth-unlimited': { property: 'failed-auth', propertyFails: true },
  'bare-limit-answers': { property: 'admission', propertyFails: true },
  'limiter-on-clock': { property: 'service-clock', propertyFails: true },
  'prepaid-rows-expire': { property: 'service-clock', propertyFails: true },
  'unpublished-still-listed': { property: 'unpublished', propertyFails: true },
  'revocation-forgotten': { property: 'key-states', propertyFails: true },
  'ended-trials-kept': { property: 'key-states', propertyFails: true },
  'lagged-totals': { property: 'derived', propertyFails: true, plan: 'trial' },
  'portfolio-counts-edges': { property: 'derived', propertyFails: true },
  'nested-lag-ignored': { property: 'derived', rule: 'round-lag', propertyFails: true, plan: 'trial' },
  'trial-codes-swapped': { property: 'trial-runs-out', propertyFails: true },
  'payg-minimum-ignored': { property: 'envelope', propertyFails: true, plan: 'payg' },
  'last-page-cursor': { property: 'pagination', rule: 'walk-order', propertyFails: true },
  'cursor-unchanged': { property: 'pagination', rule: 'walk-order', propertyFails: true },
  'feed-skips-company-updates': { property: 'feed', propertyFails: true },
  'stage-median-as-mean': { property: 'statistics', propertyFails: true },
  'quota-left-stuck': { property: 'conforms', rule: 'usage-counters', propertyFails: true },
  'lag-skips-edges': { property: 'derived', propertyFails: true, plan: 'trial' },
};

/** The checks (as the matrix names them) that catch a fault. */
export function catchingChecks(catcher: Catcher): string[] {
  return [...(catcher.propertyFails ? [catcher.property] : []), ...(catcher.rule ? [`rule:${catcher.rule}`] : [])];
}
