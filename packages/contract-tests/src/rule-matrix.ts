/**
 * The rule matrix: every rule of the spec (contracts/SPEC.md, each bullet, numbered item and table
 * row) and every decision of contracts/DECISIONS.md has a row here, with the properties and rules
 * that check it, or the reason it cannot be checked from outside. rule-matrix.test.ts fails when a
 * rule of either file has no row, or a row names a check that does not exist; the README's table
 * and the JSON report are made from it. Every check a row names is shown to fail: each property
 * against a fault of the mock (broken-servers.test.ts), each rule on a broken answer
 * (@investor-graph/contract's rules.test.ts).
 */
import { plans, planIds, rules, type PlanId, type RuleId } from '@investor-graph/contract';
import type { SuiteContext } from './context.ts';
import { properties, type Property } from './properties.ts';

export interface MatrixRow {
  id: string;
  /** Where it is written: a section of the spec, or DECISIONS.md alone. */
  source: string;
  /** The rule in a line. */
  rule: string;
  /** Text of the spec's rule lines this row covers (each found in contracts/SPEC.md). */
  spec?: string[];
  /** DECISIONS.md anchors this row covers. */
  decisions?: string[];
  /** Property ids, and `rule:<id>` for a single-response rule judged on every call the run makes. */
  checks?: string[];
  /** Why no run can check it from outside the service (a row with no checks). */
  notCheckable?: string;
  /** What part of the rule its checks leave unchecked, and why. */
  note?: string;
  /** Checkable from outside, but no property checks it yet: what is missing (counted against the score). */
  todo?: string;
}

const endpointRows = [
  'POST | `/api/v1/keys/trial`', 'GET | `/api/v1/firms` |', 'GET | `/api/v1/firms/{slug}` |', '`/api/v1/firms/{slug}/portfolio`', '`/api/v1/firms/{slug}/filings`',
  '`/api/v1/firms/{slug}/funds`', 'GET | `/api/v1/companies` |', 'GET | `/api/v1/companies/{slug}` |', '`/api/v1/companies/{slug}/rounds`', '`/api/v1/companies/{slug}/investors`',
  '`/api/v1/companies/{slug}/offerings`', '`/api/v1/rounds`', '`/api/v1/investments`', 'GET | `/api/v1/funds` |', '`/api/v1/funds/{id}`', '`/api/v1/filings`', '`/api/v1/offerings`',
  '`/api/v1/adv-funds`', 'GET | `/api/v1/lists` |', '`/api/v1/lists/{slug}`', '`/api/v1/changes`', 'GET | `/api/v1/exports` |', '`/api/v1/exports/{date}/{file}`',
  '`/api/v1/statistics/{name}`', '`/api/v1/account`',
];

export const matrix: readonly MatrixRow[] = [
  // ---- 1. What the service does
  { source: 'spec 1. What the service does', id: 'resources-served', rule: 'the service serves firms, companies, rounds, edges, funds, filings, offerings, ADV funds and lists', spec: ['The service serves data about investment firms', '| firm |', '| company |', '| round |', '| investment |', '| fund |', '| filing |', '| offering |', '| adv-fund |', '| list |', '| export |'], checks: ['conforms', 'rule:contract'] },
  { source: 'spec 1. What the service does', id: 'rebuild-cadence', rule: 'data is rebuilt daily, Form D rounds, edges and filings hourly', spec: ['Data is rebuilt every day'], notCheckable: 'the rebuild schedule is internal; a run sees only as_of, which the envelope property holds to one value per run' },
  { source: 'spec 1. What the service does', id: 'updated-at-on-change', rule: 'updated_at changes only when content changed', spec: ['Each published record is re-hashed on rebuild', '| `updated_at` |'], checks: ['stability'] },
  { source: 'spec 1. What the service does', id: 'no-people', rule: 'no people: rosters, founders, profile URLs, e-mails, phones, photos', spec: ['People are excluded on every plan'], checks: ['rule:no-people'] },
  { source: 'spec 1. What the service does', id: 'changes-feed-complete', rule: 'the changes feed lists every create, update and unpublish since a time, in order', spec: ['The `/changes` feed lists every create', 'A record can be created, updated or unpublished', 'The feed lists every create, update and unpublish', 'The service pushes no event messages'], decisions: ['changes-feed'], checks: ['changes', 'rule:changes-order'] },
  { source: 'spec 1. What the service does', id: 'nightly-dump', rule: 'a nightly gzip JSONL dump on Business and Enterprise', spec: ['A nightly full dump is offered', 'The `/exports` endpoints are restricted'], decisions: ['exports-manifest-and-files'], checks: ['plan-features', 'conforms'] },
  { source: 'spec 1. What the service does', id: 'statistics-by-name', rule: 'statistics rollups by name, four names', spec: ['Statistics rollups are available by name', '- `rounds-by-year`', '- `rounds-by-stage`', '- `most-active-investors`', '- `fund-returns-by-vintage`'], decisions: ['statistics-shapes'], checks: ['conforms', 'bad-input', 'rule:contract'] },
  { source: 'spec 1. What the service does', id: 'trial-one-call', rule: 'a trial key from one unauthenticated call, no browser, no card', spec: ['A trial key can be obtained by a single unauthenticated call', 'A trial key is obtained with `POST /api/v1/keys/trial`'], decisions: ['trial-key-response'], checks: ['auth'], note: 'the trial call itself is made (and must answer 201 with a key) when the run starts from an e-mail, --email' },
  { source: 'spec 1. What the service does', id: 'terms-of-use', rule: 'internal commercial use; no republishing or reselling', spec: ['Use is for internal commercial purposes'], notCheckable: 'a licence term, not behaviour of the API' },
  { source: 'spec 1. What the service does', id: 'edges-cite-sources', rule: 'every investor edge carries an evidence tier and names its sources with URLs', spec: ['Data sources named for the graph', 'Each investor edge carries an evidence tier and cited URLs', 'Evidence record structure and the set of tier values'], decisions: ['evidence-tiers-and-sources'], checks: ['conforms', 'rule:contract'] },
  // ---- 2. Resources and their fields
  { source: 'spec 2. Resources and their fields', id: 'common-fields', rule: 'every row has service_url, updated_at and first_seen_at', spec: ['| `service_url` |', '| `first_seen_at` |', 'Fields of each resource beyond the common ones'], decisions: ['resource-fields'], checks: ['conforms', 'rule:contract'] },
  { source: 'spec 2. Resources and their fields', id: 'envelope', rule: 'list and single answers are the envelope data, next_cursor, as_of, plan, usage', spec: ['| `data` |', '| `next_cursor` |', '| `as_of` |', '| `plan` |', '| `usage` |'], decisions: ['plan-and-usage-in-the-envelope'], checks: ['envelope', 'rule:envelope'] },
  { source: 'spec 2. Resources and their fields', id: 'fund-id', rule: 'funds are identified by {id}', spec: ['Format of the fund `{id}`'], decisions: ['fund-id-format', 'path-formats'], checks: ['conforms', 'bad-input'] },
  // ---- 3. States and transitions
  { source: 'spec 3. States and transitions', id: 'trial-lifetime', rule: 'a trial key lives 7 days or 1,000 calls', spec: ['A trial key lives for 7 days or 1,000 calls', '| Free trial |'], checks: ['trial-runs-out'] },
  { source: 'spec 3. States and transitions', id: 'states', rule: 'record and key states and their transitions', spec: ['States: not shown', 'Transitions: not shown'], decisions: ['record-and-key-states', 'transitions'], checks: ['changes', 'trial-runs-out', 'auth'] },
  // ---- 4. Endpoints
  { source: 'spec 4. Endpoints', id: 'endpoints', rule: 'every endpoint of the table answers as the contract says, under /api/v1', spec: endpointRows, checks: ['conforms', 'auth', 'rule:contract'] },
  { source: 'spec 4. Endpoints', id: 'cursor-pagination', rule: 'row pages are cursor-paginated through next_cursor', spec: ['Name of the request parameter that carries the cursor'], decisions: ['cursor'], checks: ['pagination', 'cursor-tamper', 'rule:cursor-continuity'] },
  { source: 'spec 4. Endpoints', id: 'limit', rule: 'limit sets the page size, capped by the plan', spec: ['| list endpoints (shown for `/rounds`) | `limit` |'], decisions: ['limit'], checks: ['pagination', 'bad-input', 'rule:page-limit'] },
  { source: 'spec 4. Endpoints', id: 'announced-since', rule: 'announced_since keeps rounds announced on or after the date', spec: ['| `/rounds` | `announced_since` |'], checks: ['filters', 'rule:announced-since'] },
  { source: 'spec 4. Endpoints', id: 'changes-since', rule: 'since starts the change window, include=rows adds the rows', spec: ['| `/changes` | `since` |', '| `/changes` | `include` |', 'Allowed values of `include` other than `rows`'], decisions: ['include-values'], checks: ['changes', 'bad-input'] },
  { source: 'spec 4. Endpoints', id: 'filters', rule: 'list filters and sort order beyond limit and announced_since', spec: ['Filter and sort parameters of list endpoints beyond'], decisions: ['filters-and-sort-order'], checks: ['pagination', 'bad-input'] },
  { source: 'spec 4. Endpoints', id: 'shapes', rule: 'shapes of the trial answer, account, exports, statistics and lists', spec: ['Response body of the trial key call', 'Response shapes of account, exports manifest'], decisions: ['account', 'list-shapes'], checks: ['conforms', 'envelope', 'rule:contract'] },
  { source: 'spec 4. Endpoints', id: 'path-formats', rule: 'formats of {slug}, {date} and {file}', spec: ['Formats of `{slug}`, `{date}` and `{file}`'], checks: ['bad-input', 'rule:bad-input-no-5xx'] },
  // ---- 5. Authentication
  { source: 'spec 5. Authentication', id: 'bearer-key', rule: 'data calls carry Authorization: Bearer <API_KEY>', spec: ['Data calls carry the header'], decisions: ['failed-authentication'], checks: ['auth'] },
  { source: 'spec 5. Authentication', id: 'website-keys', rule: 'keys can be created on the website', spec: ['Keys can also be created by a signed-in user'], notCheckable: 'the website is not part of the API' },
  { source: 'spec 5. Authentication', id: 'key-shown-once', rule: 'a key is shown once, at creation', spec: ['A key is shown once, at creation'], notCheckable: 'where else a key is shown is the service\'s to know; the kit\'s mock has its own tests that /account, logs and reports never hold one' },
  { source: 'spec 5. Authentication', id: 'account', rule: '/account lists keys, plan, usage and balance, free of rows', spec: ['`/api/v1/account` lists keys, plan, usage and balance'], decisions: ['account'], checks: ['conforms', 'rule:contract'] },
  { source: 'spec 5. Authentication', id: 'key-lifecycle', rule: 'key scopes, expiry and revocation', spec: ['Key scopes, key expiry for paid plans and key revocation'], decisions: ['key-scopes-expiry-and-revocation'], checks: ['auth'] },
  // ---- 6. Events
  { source: 'spec 6. Events', id: 'feed-plans', rule: 'the feed is not on the trial, included on every paid plan and pay as you go', spec: ['The feed is not available on the trial plan'], checks: ['plan-features', 'changes'] },
  { source: 'spec 6. Events', id: 'no-push', rule: 'no webhooks or push notifications', spec: ['Webhooks or other push notifications'], decisions: ['webhooks'], notCheckable: 'an absence of pushes cannot be observed by a client that polls' },
  // ---- 7. Errors
  { source: 'spec 7. Errors', id: 'actions', rule: 'every 401, 402 and 429 carries actions: trial key, prepaid rows, subscribe, book a call', spec: ['Every 401, 402 and 429 response from the API contains an `actions` array', 'The actions offered are'], decisions: ['actions'], checks: ['auth', 'plan-features', 'rate', 'rule:actions'] },
  { source: 'spec 7. Errors', id: 'website-crawl-limit', rule: 'the website has a bulk-crawl limiter', spec: ['The website (not the API) applies a bulk-crawl limiter'], notCheckable: 'the website is not part of the API' },
  { source: 'spec 7. Errors', id: 'problem-body', rule: 'the error body and the items of actions', spec: ['Shape of the items of `actions`'], decisions: ['problem-body'], checks: ['auth', 'rule:problem', 'rule:actions'] },
  { source: 'spec 7. Errors', id: 'status-codes', rule: 'status codes for a bad parameter, a missing record, a plan without a feature', spec: ['Status codes for other failures'], decisions: ['status-codes'], checks: ['bad-input', 'plan-features', 'cursor-tamper', 'rule:bad-input-no-5xx'] },
  // ---- 8. Limits
  { source: 'spec 8. Limits', id: 'plan-pages', rule: "each plan's rows per page", spec: ['| Team |', '| Business |', '| Enterprise |', 'Rows per page of pay as you go'], decisions: ['plan-numbers-the-spec-leaves-open'], checks: ['pagination', 'rule:page-limit'] },
  { source: 'spec 8. Limits', id: 'plan-rates', rule: "each plan's request rate; 429 past it", spec: ['Request rate of the trial and of pay as you go'], decisions: ['rate-limit-headers'], checks: ['rate', 'rule:retry-after'] },
  { source: 'spec 8. Limits', id: 'round-lag', rule: 'the trial sees rounds 75 days late, paid plans none', decisions: ['round-lag'], checks: ['filters', 'rule:round-lag'] },
  { source: 'spec 8. Limits', id: 'quota', rule: "a plan's monthly call quota, and what happens when it runs out", spec: ['Behaviour when a plan\'s monthly call quota is exhausted'], decisions: ['exhausted-quota'], checks: ['trial-runs-out', 'envelope'], note: 'a used-up paid quota (402 quota_exhausted) is not driven: it would take a month\'s calls or the mock\'s control API' },
  { source: 'spec 8. Limits', id: 'pay-as-you-go', rule: '$0.005 a row, $0.05 minimum a call, prepaid rows never expire', spec: ['| Pay as you go |', 'Pay as you go charges $0.005 per row'], decisions: ['pay-as-you-go-billing'], checks: ['envelope'] },
  { source: 'spec 8. Limits', id: 'billing-terms', rule: 'monthly billing, cancel any time, annual at 10x', spec: ['Billing is monthly and can be cancelled'], notCheckable: 'billing happens on the website, not in the API' },
  // ---- 9. Versioning
  { source: 'spec 9. Versioning', id: 'version-prefix', rule: 'the version is the /api/v1 prefix', spec: ['The version is in the path prefix'], checks: ['conforms'] },
  { source: 'spec 9. Versioning', id: 'openapi-document', rule: 'the machine-readable description is at /api/v1/openapi.json', spec: ['A machine-readable description with the full parameter reference'], checks: ['openapi'] },
  { source: 'spec 9. Versioning', id: 'deprecation', rule: 'the deprecation and compatibility policy', spec: ['Deprecation and compatibility policy'], decisions: ['deprecation'], notCheckable: 'a promise about future versions; one run sees one version' },
  // ---- decisions that no spec line above leads to
  { source: 'DECISIONS.md', id: 'conditional-requests', rule: 'a weak ETag, If-None-Match gives 304 counted but charging no rows', decisions: ['conditional-requests'], checks: ['conditional'] },
  { source: 'DECISIONS.md', id: 'http-conventions', rule: 'HEAD, OPTIONS, CORS, Cache-Control, Vary, request ids, WWW-Authenticate', decisions: ['http-conventions'], checks: ['http-conventions'], note: 'compression, the quota\'s RateLimit-Policy item and the served servers entry are the mock\'s own (its conformance suite checks them); a service behind another front may compress otherwise' },
];

/** A check named in the matrix: a property of this package or a single-response rule. */
export function checkExists(check: string): boolean {
  return check.startsWith('rule:') ? Object.hasOwn(rules, check.slice(5)) : properties.some((p) => p.id === check);
}

/** The plans whose key lets a property run (flags such as --use-control given). */
export function plansFor(property: Property): PlanId[] {
  return planIds.filter((plan) => property.skip(stubContext(plan)) === null);
}

/** The most calls one generated case of a property spends, on a plan. */
export function callsPerCase(property: Property, plan: PlanId): number {
  return property.cost(stubContext(plan)).calls;
}

/** What a property's skip and cost read of a run, for a plan, with every flag on. */
function stubContext(plan: PlanId): SuiteContext {
  return { config: { plan, allowRate: true, useControl: true }, control: true, client: { rowCost: (rows: number) => (plan === 'payg' ? Math.max(rows, plans.payg.min_rows_per_call!) : rows) } } as unknown as SuiteContext;
}

export const ruleIds = Object.keys(rules) as RuleId[];

const propertyOf = (check: string): Property | undefined => properties.find((p) => p.id === check);

/** The plans a row can be checked on: any, or those on which one of its properties runs. */
export function rowPlans(row: MatrixRow): PlanId[] {
  if (!row.checks) return [];
  // A rule judges whatever calls the run makes; a row with properties is checked where they run.
  const own = row.checks.map(propertyOf).filter((p): p is Property => !!p);
  if (!own.length) return [...planIds];
  return planIds.filter((plan) => own.some((p) => plansFor(p).includes(plan)));
}

/** The calls one case of each of a row's properties spends on a Team key (a rule's checks spend none of their own). */
export function rowCalls(row: MatrixRow): number {
  return (row.checks ?? []).map(propertyOf).filter((p): p is Property => !!p).reduce((sum, p) => sum + callsPerCase(p, 'team'), 0);
}

/** The matrix as the README shows it (between its rule-matrix markers). */
export function renderMatrix(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const plansCell = (row: MatrixRow) => {
    const on = rowPlans(row);
    return on.length === planIds.length ? 'any' : on.join(', ');
  };
  const checked = (row: MatrixRow) =>
    row.checks ? `${row.checks.map((c) => `\`${c}\``).join(', ')}${row.note ? ` (${cell(row.note)})` : ''}`
    : row.notCheckable ? `not checkable from outside: ${cell(row.notCheckable)}`
    : `**not checked yet**: ${cell(row.todo!)}`;
  const source = (row: MatrixRow) => [/^spec (\d+)/.exec(row.source)?.[1] ? `spec §${/^spec (\d+)/.exec(row.source)![1]}` : '', ...(row.decisions ?? []).map((d) => `[${d}](../../contracts/DECISIONS.md#${d})`)].filter(Boolean).join(', ');
  return [
    '| rule | what it says | source | checked by | plans | calls a case |',
    '|---|---|---|---|---|---|',
    ...matrix.map((row) => `| \`${row.id}\` | ${cell(row.rule)} | ${source(row)} | ${checked(row)} | ${row.checks ? plansCell(row) : ''} | ${row.checks ? rowCalls(row) : ''} |`),
    '',
  ].join('\n');
}

export type RowOutcome = 'held' | 'broken' | 'skipped' | 'not checkable' | 'not checked yet';

export interface MatrixResult {
  id: string;
  source: string;
  basis: 'documented' | 'assumed';
  outcome: RowOutcome;
  checks: string[];
  /** Why it was skipped, cannot be checked, or is not checked yet. */
  reason?: string;
}

export interface MatrixScore {
  rows: number;
  checked: number;
  held: number;
  documented: { checked: number; held: number };
  assumed: { checked: number; held: number };
  not_checkable: number;
  not_checked_yet: number;
}

/**
 * Each row's outcome in a run: broken when one of its checks failed; held when one ran and none
 * failed; skipped when none of its checks ran.
 */
export function matrixResults(outcomes: { properties: Map<string, { status: string; reason?: string }>; rules: Map<string, number>; calls: number; plan: PlanId }): MatrixResult[] {
  return matrix.map((row) => {
    const base = rowBase(row);
    if (row.notCheckable) return { ...base, outcome: 'not checkable' as const, reason: row.notCheckable };
    if (row.todo) return { ...base, outcome: 'not checked yet' as const, reason: row.todo };
    // A rule that found nothing may have met nothing it applies to (no 429, no rounds): beside a
    // property it only breaks a row; alone it holds one when the run made calls.
    const own = row.checks!.filter((c) => !c.startsWith('rule:'));
    const results = row.checks!.map((check) => {
      if (!check.startsWith('rule:')) return outcomes.properties.get(check)?.status ?? 'skipped';
      if ((outcomes.rules.get(check.slice(5)) ?? 0) > 0) return 'failed';
      return own.length === 0 && outcomes.calls > 0 ? 'passed' : 'skipped';
    });
    if (results.includes('failed')) return { ...base, outcome: 'broken' as const };
    if (results.includes('passed')) return { ...base, outcome: 'held' as const };
    const reasons = row.checks!.map((c) => outcomes.properties.get(c)?.reason).filter(Boolean);
    return { ...base, outcome: 'skipped' as const, reason: wantOfKey(row, [outcomes.plan]) ?? reasons[0] ?? 'none of its checks ran in this run' };
  });
}

/** What a row's result says of the row itself, whatever the run. */
function rowBase(row: MatrixRow): Pick<MatrixResult, 'id' | 'source' | 'basis' | 'checks'> {
  return { id: row.id, source: row.source, basis: row.spec ? 'documented' : 'assumed', checks: row.checks ?? [] };
}

/** "needs a key of ...", when none of the run's plans lets the row's checks run. */
function wantOfKey(row: MatrixRow, plansGiven: readonly PlanId[]): string | null {
  const can = rowPlans(row);
  return can.some((p) => plansGiven.includes(p)) ? null : `needs a key of ${can.join(' or ')}`;
}

/** One matrix from the runs of several keys: a row broken by any, else held by any, else skipped. */
export function mergeMatrix(runs: MatrixResult[][], plansGiven: readonly PlanId[]): MatrixResult[] {
  return matrix.map((row, i) => {
    const seen = runs.map((results) => results[i]!);
    const first = seen[0] ?? { ...rowBase(row), outcome: 'skipped' as const };
    for (const outcome of ['broken', 'held'] as const) {
      const hit = seen.find((r) => r.outcome === outcome);
      if (hit) return { ...hit, reason: undefined };
    }
    if (first.outcome !== 'skipped') return first;
    return { ...first, reason: wantOfKey(row, plansGiven) ?? first.reason ?? 'none of its checks ran in this run' };
  }).map(({ reason, ...rest }) => (reason === undefined ? rest : { ...rest, reason }));
}

export function matrixScore(results: MatrixResult[]): MatrixScore {
  const count = (basis: 'documented' | 'assumed') => ({
    checked: results.filter((r) => r.basis === basis && (r.outcome === 'held' || r.outcome === 'broken')).length,
    held: results.filter((r) => r.basis === basis && r.outcome === 'held').length,
  });
  const documented = count('documented');
  const assumed = count('assumed');
  return {
    rows: results.length, checked: documented.checked + assumed.checked, held: documented.held + assumed.held, documented, assumed,
    not_checkable: results.filter((r) => r.outcome === 'not checkable').length,
    not_checked_yet: results.filter((r) => r.outcome === 'not checked yet').length,
  };
}

/** The score in a line, as the CLI closes with it. */
export function scoreLine(score: MatrixScore): string {
  return `rules: ${score.held} held of ${score.checked} checked, of ${score.rows} in the matrix (documented ${score.documented.held}/${score.documented.checked}, assumed ${score.assumed.held}/${score.assumed.checked}); ${score.not_checkable} not checkable from outside, ${score.not_checked_yet} not checked yet`;
}
