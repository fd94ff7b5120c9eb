/**
 * What checks each sentence: the one table behind the rule matrix. Every sentence of
 * contracts/SPEC.md and contracts/DECISIONS.md (src/sentences/generated/sentences.ts) is found by exactly one
 * `says` fragment here, and gets the checks that judge it, the faults of the kit's mock made to
 * break it (each caught by one of those checks: broken-servers.test.ts runs them), or the reason no
 * client can check it, or what is still missing. A "not shown" sentence of the spec names the
 * decision that fills it, whose own sentences carry the checks. rule-matrix.test.ts holds this
 * table to the documents: a sentence without a claim, or a fragment that finds no sentence or
 * more than one, fails it.
 */

export interface Claim {
  /** Words of a sentence, enough to find it (one fragment a sentence; several share a claim). */
  says: string[];
  /** Property ids, and `rule:<id>` for a single-response rule judged on every call a run makes. */
  checks?: string[];
  /** Faults of the kit's mock (`--fault`) that break these sentences and that one of `checks` catches. */
  faults?: string[];
  /** Why no client can check it from outside the service. */
  notCheckable?: string;
  /** Checkable from outside, but nothing checks it yet: what is missing. */
  todo?: string;
  /** A "not shown" sentence of the spec: the DECISIONS.md headings that decide it. */
  decided?: string[];
  /** What part of the sentence the checks leave out, and why. */
  note?: string;
  /**
   * The forms of input the sentence says a call can take (properties/input-forms.ts): the
   * sequences (properties/sequences.ts) send exactly these, each call judged against the model.
   */
  inputs?: string[];
}

const licence = 'a licence or billing term, not behaviour of the API';
const website = 'the website is not part of the API';
const internal = (what: string) => `${what} is internal to the service; a client sees only its answers`;

export const claims: readonly Claim[] = [
  // ---- the spec's preamble
  {
    says: ['This document covers the whole service'],
    checks: ['http-conventions'],
    faults: ['delete-not-405'],
    note: 'read-only: another method is a 405',
  },
  { says: ['It also covers the key-issuing call and the account call'], notCheckable: 'says what the document covers' },
  { says: ['Base address: {base_url}'], notCheckable: 'the base address is what the run is given (--base-url)' },
  { says: ['All paths below are relative to it'], checks: ['conforms'], faults: ['route-moved'] },

  // ---- 1. What the service does
  {
    says: ['The service serves data about investment firms'],
    checks: ['conforms', 'rule:contract'],
    faults: ['wrong-content-type'],
  },
  {
    says: ['Data is rebuilt every day', 'Form D rounds, edges and filings are rebuilt hourly'],
    notCheckable: internal('the rebuild schedule'),
  },
  {
    says: ['Each published record is re-hashed on rebuild'],
    notCheckable: internal('hashing') + ' (its effect, updated_at moving only with content, is the next sentence)',
  },
  { says: ['`updated_at` changes only when the record'], checks: ['stability'], faults: ['unstable-updated-at'] },
  { says: ['People are excluded on every plan'], checks: ['rule:no-people'], faults: ['leak-email'] },
  {
    says: ['The `/changes` feed lists every create'],
    checks: ['changes', 'feed', 'rule:changes-order'],
    faults: ['unordered-changes', 'feed-skips-company-updates'],
  },
  {
    says: ['A nightly full dump is offered as gzip JSONL'],
    checks: ['plan-features', 'exports'],
    faults: ['refuse-exports', 'manifest-wrong-sha'],
  },
  {
    says: ['Statistics rollups are available by name'],
    checks: ['conforms', 'statistics'],
    faults: ['statistics-down', 'unknown-statistic-400'],
  },
  {
    says: ['A trial key can be obtained by a single unauthenticated call'],
    checks: ['trial-runs-out'],
    faults: ['trial-needs-card'],
  },
  {
    says: [
      'Use is for internal commercial purposes',
      'Republishing the database',
      'Enterprise agreements can widen this',
    ],
    notCheckable: licence,
  },
  {
    says: ['Data sources named for the graph', 'Every investor edge names its sources with URLs'],
    checks: ['conforms', 'rule:contract'],
    faults: ['sources-without-url'],
  },

  // ---- 2. Resources and their fields
  {
    says: [
      '| firm |',
      '| company |',
      '| round |',
      '| investment |',
      '| fund |',
      '| filing |',
      '| offering |',
      '| adv-fund |',
      '| list |',
    ],
    checks: ['conforms', 'rule:contract'],
    faults: ['drop-service-url'],
  },
  { says: ['| export |'], checks: ['plan-features', 'exports'], faults: ['refuse-exports', 'manifest-wrong-sha'] },
  { says: ['| `service_url` |'], checks: ['conforms', 'rule:contract'], faults: ['drop-service-url'] },
  { says: ['| `updated_at` |'], checks: ['stability'], faults: ['unstable-updated-at'] },
  { says: ['| `first_seen_at` |'], checks: ['changes', 'feed', 'stability'], faults: ['first-seen-follows-update'] },
  { says: ['| `data` |'], checks: ['conforms', 'rule:envelope', 'rule:contract'], faults: ['wrong-content-type'] },
  {
    says: ['| `next_cursor` |'],
    checks: ['pagination', 'sequences', 'rule:cursor-continuity'],
    faults: ['repeat-row'],
    note:
      "the sequences follow a page's next_cursor (each paged operation the run touches, once) and compare the " +
      "page it leads to with the model's own next page: a cursor of another query or operation is caught there",
  },
  { says: ['| `as_of` |'], checks: ['envelope', 'rule:envelope'], faults: ['as-of-goes-back'] },
  { says: ['| `plan` |'], checks: ['envelope', 'rule:envelope'], faults: ['plan-mislabelled'] },
  { says: ['| `usage` |'], checks: ['envelope'], faults: ['frozen-usage'] },
  {
    says: ['Each investor edge carries an evidence tier and cited URLs'],
    checks: ['conforms', 'rule:contract'],
    faults: ['unknown-evidence-tier'],
  },
  { says: ['Fields of each resource beyond the common ones'], decided: ['resource-fields'] },
  { says: ['Evidence record structure and the set of tier values'], decided: ['evidence-tiers-and-sources'] },
  { says: ['Format of the fund `{id}`'], decided: ['fund-id-format'] },

  // ---- 3. States and transitions
  {
    says: ['A record can be created, updated or unpublished', 'These three are the kinds of change'],
    checks: ['changes', 'rule:contract'],
    faults: ['unknown-change-kind'],
  },
  {
    says: ['A trial key lives for 7 days or 1,000 calls'],
    checks: ['account', 'trial-runs-out'],
    faults: ['trial-lives-long', 'quota-as-429', 'expired-trial-as-401'],
  },
  { says: ['States: not shown'], decided: ['record-and-key-states'] },
  { says: ['Transitions: not shown'], decided: ['transitions'] },

  // ---- 4. Endpoints
  {
    says: ['All endpoints are under `/api/v1`'],
    checks: ['conforms', 'openapi'],
    faults: ['route-moved', 'stale-openapi'],
  },
  {
    says: ['Data endpoints are GET and return the envelope'],
    checks: ['conforms', 'rule:envelope', 'rule:contract'],
    faults: ['wrong-content-type'],
  },
  {
    says: ['Row pages are cursor-paginated through `next_cursor`'],
    checks: ['pagination', 'cursor-tamper', 'bad-input', 'rule:page-limit', 'rule:cursor-continuity'],
    faults: ['repeat-row', 'ignore-limit', 'accept-bad-cursor', 'refuse-over-cap'],
  },
  {
    says: ['POST | `/api/v1/keys/trial`'],
    checks: ['trial-runs-out', 'trial-call', 'rule:contract'],
    faults: ['trial-statuses-as-400'],
  },
  {
    says: [
      'GET | `/api/v1/firms` |',
      'GET | `/api/v1/firms/{slug}` |',
      '`/api/v1/firms/{slug}/portfolio`',
      '`/api/v1/firms/{slug}/filings`',
      '`/api/v1/firms/{slug}/funds`',
      'GET | `/api/v1/companies` |',
      'GET | `/api/v1/companies/{slug}` |',
      '`/api/v1/companies/{slug}/rounds`',
      '`/api/v1/companies/{slug}/investors`',
      '`/api/v1/companies/{slug}/offerings`',
      '| `/api/v1/rounds` |',
      '`/api/v1/investments`',
      'GET | `/api/v1/funds` |',
      '`/api/v1/funds/{id}`',
      '| `/api/v1/filings` |',
      '| `/api/v1/offerings` |',
      '`/api/v1/adv-funds`',
      'GET | `/api/v1/lists` |',
      '`/api/v1/lists/{slug}`',
    ],
    checks: ['conforms', 'auth', 'openapi', 'rule:contract'],
    faults: ['wrong-status', 'stale-openapi'],
  },
  { says: ['GET | `/api/v1/changes` |'], checks: ['changes', 'plan-features'], faults: ['unordered-changes'] },
  {
    says: ['GET | `/api/v1/exports` |', '`/api/v1/exports/{date}/{file}`'],
    checks: ['plan-features', 'exports'],
    faults: ['refuse-exports', 'manifest-wrong-sha'],
  },
  {
    says: ['`/api/v1/statistics/{name}`'],
    checks: ['conforms', 'statistics', 'rule:contract'],
    faults: ['statistics-down', 'statistics-off-by-one'],
  },
  {
    says: ['GET | `/api/v1/account` |'],
    checks: ['account', 'rule:contract'],
    faults: ['account-counted', 'trial-lives-long'],
  },
  {
    says: ['| list endpoints (shown for `/rounds`) | `limit` |'],
    checks: ['pagination', 'bad-input', 'rule:page-limit'],
    faults: ['ignore-limit', 'refuse-over-cap'],
    inputs: ['limit-within-page'],
  },
  {
    says: ['| `/rounds` | `announced_since` |'],
    checks: ['filters', 'rule:announced-since'],
    faults: ['ignore-announced-since'],
    inputs: ['announced-since', 'announced-since-refused'],
  },
  { says: ['| `/changes` | `since` |'], checks: ['changes', 'rule:changes-order'], faults: ['unordered-changes'] },
  { says: ['| `/changes` | `include` |'], checks: ['changes'], faults: ['stale-include-rows'] },
  {
    says: ['`rounds-by-year`', '`rounds-by-stage`', '`most-active-investors`', '`fund-returns-by-vintage`'],
    checks: ['conforms', 'rule:contract'],
    faults: ['statistics-down'],
  },
  { says: ['Response body of the trial key call'], decided: ['trial-key-response'] },
  { says: ['Name of the request parameter that carries the cursor'], decided: ['cursor'] },
  { says: ['Filter and sort parameters of list endpoints beyond'], decided: ['filters-and-sort-order'] },
  { says: ['Allowed values of `include` other than `rows`'], decided: ['include-values'] },
  {
    says: ['Response shapes of account, exports manifest'],
    decided: ['account', 'exports-manifest-and-files', 'statistics-shapes', 'list-shapes'],
  },
  { says: ['Formats of `{slug}`, `{date}` and `{file}`'], decided: ['path-formats'] },

  // ---- 5. Authentication
  {
    says: ['Data calls carry the header'],
    checks: ['auth', 'http-conventions'],
    faults: ['wrong-status', 'head-without-auth'],
  },
  {
    says: ['A trial key is obtained with `POST /api/v1/keys/trial`'],
    checks: ['trial-runs-out', 'trial-call'],
    faults: ['trial-statuses-as-400'],
  },
  { says: ['It needs no browser and no card'], checks: ['trial-runs-out'], faults: ['trial-needs-card'] },
  { says: ['Keys can also be created by a signed-in user'], notCheckable: website },
  { says: ['A key is shown once, at creation'], checks: ['account', 'rule:key-not-echoed'], faults: ['echo-key'] },
  {
    says: ['`/api/v1/account` lists keys, plan, usage and balance'],
    checks: ['account', 'rule:contract'],
    faults: ['echo-key'],
  },
  { says: ['Key scopes, key expiry for paid plans and key revocation'], decided: ['key-scopes-expiry-and-revocation'] },

  // ---- 6. Events
  {
    says: ['The service pushes no event messages that are shown'],
    notCheckable: 'an absence of pushes cannot be seen by a client that polls',
  },
  {
    says: ['The only change mechanism shown is the pull feed'],
    checks: ['changes', 'plan-features'],
    faults: ['paid-feed-refused', 'unordered-changes'],
  },
  {
    says: ['The feed lists every create, update and unpublish of a record'],
    checks: ['changes', 'feed', 'rule:changes-order'],
    faults: ['unordered-changes', 'feed-skips-company-updates'],
  },
  { says: ['With `include=rows` the changed rows come with it'], checks: ['changes'], faults: ['stale-include-rows'] },
  { says: ['The feed is not available on the trial plan'], checks: ['plan-features'], faults: ['trial-feed-open'] },
  { says: ['It is included on Team, Business, Enterprise'], checks: ['plan-features'], faults: ['paid-feed-refused'] },
  { says: ['Webhooks or other push notifications'], decided: ['webhooks'] },

  // ---- 7. Errors
  {
    says: ['Every 401, 402 and 429 response from the API contains'],
    checks: ['auth', 'plan-features', 'rate', 'rule:actions'],
    faults: ['drop-actions'],
  },
  { says: ['The actions offered are'], checks: ['auth', 'plan-features', 'rule:contract'], faults: ['drop-actions'] },
  { says: ['The website (not the API) applies a bulk-crawl limiter'], notCheckable: website },
  { says: ['Shape of the items of `actions`'], decided: ['problem-body', 'actions'] },
  { says: ['Status codes for other failures'], decided: ['status-codes'] },

  // ---- 8. Limits
  {
    says: ['| Free trial |'],
    checks: ['envelope', 'account', 'trial-runs-out', 'plan-features', 'filters', 'rule:round-lag', 'rule:page-limit'],
    faults: ['trial-lives-long', 'trial-feed-open', 'quota-as-429', 'expired-trial-as-401', 'lag-ignored'],
  },
  {
    says: ['| Team |', '| Business |', '| Enterprise |'],
    checks: ['envelope', 'pagination', 'plan-features', 'rate', 'rule:page-limit'],
    faults: ['plan-mislabelled', 'ignore-limit', 'refuse-exports'],
  },
  { says: ['| Pay as you go |'], checks: ['envelope', 'plan-features'], faults: ['plan-mislabelled'] },
  { says: ['Billing is monthly', 'An annual plan costs 10 times'], notCheckable: licence },
  {
    says: ['Pay as you go charges $0.005 per row'],
    checks: ['envelope', 'billing'],
    faults: ['feed-charge-misreported', 'payg-minimum-ignored'],
  },
  {
    says: ['Prepaid rows never expire'],
    checks: ['service-clock'],
    faults: ['prepaid-rows-expire'],
    note: 'with --use-control: a key made two years ago keeps what it bought',
  },
  {
    says: ['Rows per page of pay as you go', 'Request rate of the trial and of pay as you go'],
    decided: ['plan-numbers-the-spec-leaves-open'],
  },
  { says: ["Behaviour when a plan's monthly call quota is exhausted"], decided: ['exhausted-quota'] },
  { says: ['The `/exports` endpoints are restricted'], checks: ['plan-features'], faults: ['refuse-exports'] },

  // ---- 9. Versioning
  { says: ['The version is in the path prefix'], checks: ['conforms', 'openapi'], faults: ['route-moved'] },
  {
    says: ['A machine-readable description with the full parameter reference'],
    checks: ['openapi'],
    faults: ['stale-openapi'],
  },
  { says: ['Deprecation and compatibility policy'], decided: ['deprecation'] },
  {
    says: ['One exception, made once with the bounds', 'Each refuses only what no client sends in earnest'],
    notCheckable:
      "a promise about the contract's history: `diff --baseline` compares a served contract with an older one",
  },

  // ==== DECISIONS.md
  // ---- Resource fields
  {
    says: ['The kit gives each resource the fields', 'Every row also has `service_url`'],
    checks: ['conforms', 'rule:contract'],
    faults: ['drop-service-url'],
  },
  { says: ['Amounts are whole US dollars'], checks: ['conforms', 'rule:contract'], faults: ['fractional-amounts'] },
  {
    says: ['Some fields are made from other records and always agree with them'],
    checks: ['derived'],
    faults: ['portfolio-counts-edges', 'lagged-totals'],
  },
  {
    says: ['A rebuild that adds, changes or removes a round or an edge updates the record'],
    checks: ['derived', 'feed'],
    note:
      'judged on records a rebuild changed when the run moves the clock (--use-control) or ' +
      'meets a rebuild: their fields against their lists, their updated_at against the feed',
  },
  { says: ['No schema has a field about a person'], checks: ['rule:no-people'], faults: ['leak-email'] },
  {
    says: ['Row schemas are open'],
    notCheckable: 'a property of the contract, not of answers (it is why the checks accept added fields)',
  },
  // ---- Evidence tiers and sources
  { says: ['`evidence_tier` is one of'], checks: ['conforms', 'rule:contract'], faults: ['unknown-evidence-tier'] },
  { says: ['`sources` is a non-empty list'], checks: ['conforms', 'rule:contract'], faults: ['sources-without-url'] },
  // ---- Fund id format
  { says: ['`fnd_` and twelve lower-case'], checks: ['conforms', 'rule:contract'], faults: ['fund-id-uppercase'] },
  { says: ['Clients must treat it as opaque'], checks: ['bad-input'], faults: ['server-error-on-bad-input'] },
  // ---- Record and key states
  {
    says: ['A record is published or unpublished'],
    checks: ['changes', 'unpublished', 'feed'],
    faults: ['unpublished-still-listed'],
    note:
      "the 404 after an unpublish, the record gone from its resource's own list (walked to " +
      'where keyset order puts it), and from the list nested under its parent when the run ' +
      "knows the parent (from the feed's rows or a list it read)",
  },
  { says: ['A key is `active`, `expired`'], checks: ['account', 'trial-runs-out'], faults: ['expired-trial-as-401'] },
  // ---- Transitions
  {
    says: ['Record: (none) → published'],
    checks: ['changes', 'stability', 'rule:contract'],
    faults: ['unstable-updated-at', 'unknown-change-kind'],
  },
  {
    says: ['Key: active → expired'],
    checks: ['trial-runs-out', 'key-states'],
    faults: ['quota-as-429', 'revocation-forgotten'],
    note:
      'a revoked key called again after its first refusal; an expired or used-up trial is seen ' +
      'refused, not called for long after',
  },
  // ---- Trial key response
  { says: ['201 with `{key, key_id'], checks: ['trial-runs-out', 'rule:contract'], faults: ['trial-key-cacheable'] },
  { says: ['The key is shown only in this answer'], checks: ['account', 'rule:key-not-echoed'], faults: ['echo-key'] },
  { says: ["The prefix is the kit's `igk_<plan>_`"], checks: ['account'], faults: ['echo-key'] },
  { says: ['Body limits: JSON only'], checks: ['trial-call'], faults: ['trial-statuses-as-400'] },
  {
    says: ['The spec does not say how long an ended trial'],
    notCheckable: 'says what the spec leaves open; the next sentences decide it',
  },
  {
    says: ['The kit knows it for `trial_key_kept_days`'],
    checks: ['key-states'],
    faults: ['ended-trials-kept'],
    note: 'with --use-control: trial keys made as if their trial ended a day inside and a day past it',
  },
  {
    says: ['The mock then drops the key and its e-mail hash'],
    notCheckable: "how the kit's mock keeps its store; a client sees the 401 of the sentence before",
  },
  {
    says: ['One live trial per e-mail address'],
    checks: ['trial-call'],
    faults: ['trial-statuses-as-400'],
    note: "with --email (the run's own address) or --use-control",
  },
  {
    says: ['The call is limited twice'],
    checks: ['trial-call'],
    faults: ['trial-call-unlimited'],
    note: "each client address's rate; sixty trial keys a minute would spend the service's trial budget: not sent",
  },
  // ---- Failed authentication
  {
    says: ['A data call is authenticated before its query is looked at'],
    checks: ['auth'],
    faults: ['query-before-auth'],
    inputs: ['no-key', 'unknown-key'],
  },
  {
    says: ['Calls without a valid key spend a per-address budget'],
    checks: ['failed-auth'],
    faults: ['failed-auth-unlimited'],
  },
  {
    says: [
      'The budget bounds how many keys an address can have looked up',
      'Requests sent together (pipelined on one connection',
    ],
    checks: ['failed-auth'],
    faults: ['failed-auth-unlimited'],
    note:
      'calls in parallel on many connections; pipelined ones, and several mocks on one store, ' +
      "are the mock's own tests (stores/address-budgets.test.ts)",
  },
  {
    says: ['Calls that send the same key while it is being looked up share'],
    todo:
      "a new valid key sent many times at once meets no too_many_failures (the mock's own " +
      'tests pipeline one 200 times: stores/address-budgets.test.ts); a run holds one key, met ' +
      'before its first burst',
  },
  { says: ['A key met before and still valid needs no token'], notCheckable: internal('which keys a process has met') },
  {
    says: ['A header that is no `Bearer` key spends one like a wrong key'],
    checks: ['auth'],
    note: "a malformed header's 401; the scheme in lower case is the mock's own test (stores/address-budgets.test.ts)",
    inputs: ['authorization-malformed'],
  },
  { says: ['The address table is bounded'], notCheckable: internal('the address table') },
  // ---- Cursor
  {
    says: ['The query parameter `cursor`'],
    checks: ['pagination', 'rule:walk-order'],
    faults: ['repeat-row', 'cursor-unchanged'],
    inputs: ['cursor-next', 'cursor-tampered', 'cursor-foreign'],
  },
  {
    says: ['Its value is opaque and tamper-evident'],
    checks: ['cursor-tamper'],
    faults: ['accept-bad-cursor', 'cursor-ignores-filters'],
  },
  {
    says: ['Pages are in keyset order of the list'],
    checks: ['pagination', 'rule:cursor-continuity', 'rule:walk-order'],
    faults: ['repeat-row', 'unsorted-pages'],
  },
  {
    says: ['`next_cursor` is `null` on the last page'],
    checks: ['pagination', 'rule:walk-order'],
    faults: ['endless-cursor', 'last-page-cursor', 'cursor-unchanged'],
  },
  {
    says: ["Every paged operation's 200 carries the OpenAPI link"],
    checks: ['openapi'],
    faults: ['links-missing'],
    note: 'the NextPage link of every paged operation; the record-to-nested-list links are not compared yet',
  },
  // ---- Limit
  { says: ['`limit` defaults to 100'], checks: ['conforms'], faults: ['default-limit-10'] },
  {
    says: ["Above the plan's page size it is capped silently"],
    checks: ['bad-input'],
    faults: ['refuse-over-cap'],
    inputs: ['limit-over-page'],
  },
  {
    says: ['Below 1, not written in digits'],
    checks: ['bad-input', 'rule:bad-input-no-5xx'],
    faults: ['server-error-on-bad-input'],
    inputs: ['limit-refused'],
  },
  {
    says: ['Any query parameter given empty or twice'],
    checks: ['bad-input'],
    faults: ['first-of-repeated-parameter'],
    inputs: ['param-twice'],
  },
  { says: ['The maximum was once absent'], notCheckable: 'why the bound is where it is' },
  // ---- Filters and sort order
  { says: ['The kit adds none'], checks: ['bad-input'], faults: ['ignore-unknown-parameter'] },
  {
    says: ['Every list is in ascending order of its key'],
    checks: ['pagination', 'changes', 'rule:walk-order'],
    faults: ['unsorted-pages', 'unordered-changes'],
    note:
      "every page any property reads, and across its walk; the dump manifest's newest-first " +
      'order is not checked yet',
  },
  {
    says: ['A query parameter the operation does not define'],
    checks: ['bad-input'],
    faults: ['ignore-unknown-parameter'],
    inputs: ['param-unknown'],
  },
  // ---- Include values
  {
    says: ['Only `rows`; anything else is a 400'],
    checks: ['bad-input'],
    faults: ['lenient-include'],
    inputs: ['include-rows', 'include-refused'],
  },
  // ---- Account
  {
    says: ['The envelope with `data: {plan, usage, balance, keys}`', '`balance` is `{prepaid_rows, value_usd}`'],
    checks: ['account', 'rule:contract'],
    faults: ['echo-key'],
  },
  { says: ['The account call is free'], checks: ['account'], faults: ['account-counted'] },
  {
    says: ['It still obeys the request rate and needs a key that is not revoked'],
    checks: ['trial-runs-out', 'key-states'],
    faults: ['revoked-as-403'],
    note:
      'a used-up or expired trial and a used-up quota read their account, a revoked key ' +
      'cannot; the rate on /account is not driven',
  },
  // ---- Exports manifest and files
  {
    says: ['The envelope with `data` a list of dump days', 'Files are `<resource plural>.jsonl.gz`: gzip'],
    checks: ['exports', 'rule:contract'],
    faults: ['manifest-wrong-sha'],
  },
  { says: ['A download counts as one call'], checks: ['billing'], faults: ['download-counted-twice'] },
  {
    says: ['`generated_at` is the moment the day'],
    notCheckable: 'the hour the service writes its dump: a client sees the time, not the schedule',
  },
  {
    says: ['Every file of a day is its resource as of then', 'Two days with no change between them'],
    todo:
      "each downloaded file's rows first seen by its day's generated_at, and days with changes between " +
      "them told apart (the mock's own tests do: engine's dumps/as-of.test.ts, mock's dumps/disk/as-of.test.ts)",
  },
  {
    says: ['The mock puts back what its rebuilds changed since'],
    notCheckable: "how the mock makes a past day from the versions it keeps, not the API's (its tests, as above)",
  },
  {
    says: [
      'A dump read back (`investor-graph-mock --data DIR`',
      'What the mock decided:',
      'The day served is the newest whose files',
      "Each file must have the manifest's size",
      "The data is as of the day's `generated_at`",
      'A dump holds rows, not their history',
      'Nor does it hold the rebuilds to come',
      'Several days of dumps are not replayed',
      'Rows the contract does not describe are served',
      'A row no path can name',
      'Nothing is dropped without a word',
      'The fields made from other records',
      'The statistics are counted from the rows at load',
      "The service's terms allow internal use",
    ],
    notCheckable:
      "how the mock reads a dump given as --data, not the API (the mock's tests: src/dumps/read/, its round trip)",
  },
  // ---- Statistics shapes
  {
    says: ['The envelope with `data: {name, rows}`', 'Rollups are aggregates, not records'],
    checks: ['conforms', 'rule:contract'],
    faults: ['statistics-down'],
  },
  {
    says: ['They are computed over what the key may see'],
    checks: ['statistics'],
    faults: ['statistics-off-by-one', 'stage-median-as-mean'],
    note:
      'rounds-by-year year by year against the rounds the key sees, the as-of year and the one ' +
      "before on every plan (the trial's lag on both sides); every year, rounds-by-stage and " +
      'most-active-investors where pages of 500 rows or more walk them whole and rows are not ' +
      'billed; fund-returns-by-vintage is not recomputed yet',
  },
  { says: ['An unknown name is a 404 `unknown_statistic`'], checks: ['statistics'], faults: ['unknown-statistic-400'] },
  { says: ['A rollup reads every round'], notCheckable: internal('how a rollup is computed') },
  // ---- List shapes
  { says: ['`/lists` serves list summaries'], checks: ['conforms', 'rule:contract'], faults: ['list-member-missing'] },
  // ---- Path formats
  { says: ['Slugs: `^[a-z0-9]+'], checks: ['bad-input', 'rule:contract'], faults: ['slug-with-capitals'] },
  { says: ['Dates: `YYYY-MM-DD`'], checks: ['exports'], faults: ['bad-dump-date-404'] },
  { says: ['Files: `<resource plural>.jsonl.gz` from the nine'], checks: ['exports'], faults: ['manifest-wrong-sha'] },
  {
    says: ['A malformed path parameter is a 400 naming it'],
    checks: ['bad-input', 'rule:bad-input-no-5xx'],
    faults: ['server-error-on-bad-input'],
    inputs: ['path-unknown', 'path-malformed'],
  },
  // ---- Bounds
  {
    says: ['Every string, array and integer the API reads or serves has a bound'],
    checks: ['bad-input', 'rule:contract'],
    faults: ['server-error-on-bad-input', 'bounds-ignored'],
    note:
      'limit at its maximum (capped) and one past it (a 400), since past its length (a 400); ' +
      "every answer is held to the contract's bounds",
  },
  {
    says: [
      'Integers are `int32`',
      "A page, a list's members and a rollup hold at most 1,000",
      'Names, cities and titles are at most 200',
      'A 400 lists at most 4,096 `errors`',
      'A cursor past its 512 characters',
      "A dump file's size is stated in bytes",
    ],
    checks: ['rule:contract'],
  },
  {
    says: [
      "The mock's Node server holds at most 2,048 connections",
      'A connection past either is answered 503 `too_many_connections`',
      'Request headers must arrive within 10 s',
    ],
    todo:
      'holding connections idle, or a share of them from one address, and seeing what the next ' +
      "meets (the mock's own tests do, with small bounds: adapters/node/bounds.test.ts); a run " +
      'against a live service would hold hundreds of its connections, for seconds',
  },
  {
    says: ['A request body is at most 64 KiB as sent, and is never decoded'],
    todo: "a trial call with a gzip body, to be refused 415 (the mock's own tests do: adapters/node/bounds.test.ts)",
  },
  {
    says: ["The kit's validation proxy (no part of the API) bounds what it holds", 'What a bound leaves unchecked'],
    notCheckable: "the kit's validation proxy, not the API (the mock's proxy-bounds tests hold it to these bounds)",
  },
  {
    says: [
      "The kit's sync (`investor-graph-dataset sync`, no part of the API) reads an answer",
      'It refuses a page of more rows than its `limit`',
      'A link or anything but a regular file in its folder stops it',
      'A nightly dump given to the mock as `--data` is read a line at a time',
      'Only regular files inside the folder are read',
    ],
    notCheckable: "the kit's sync and the mock's --data, not the API (their hostile tests hold them to these bounds)",
  },
  // ---- Servers
  {
    says: [
      "The contract's first server is that address",
      "The second is the kit's mock on `http://127.0.0.1:4010`",
      'Each server says its audience',
    ],
    notCheckable:
      "the servers of the kit's contract file: a service's served contract names the service " +
      'itself, which the openapi property checks',
  },
  // ---- Key scopes, expiry and revocation
  {
    says: ['A key has no scopes'],
    checks: ['conforms', 'plan-features'],
    faults: ['refuse-exports', 'statistics-down'],
  },
  {
    says: ['Paid keys do not expire; any key can be revoked'],
    checks: ['key-states'],
    faults: ['revoked-as-403'],
    note: 'revocation, with --use-control; that paid keys do not expire is not checked',
  },
  { says: ['Keys look like `igk_<plan>_<32 base62>`'], checks: ['trial-runs-out'], faults: ['short-trial-keys'] },
  // ---- Webhooks
  { says: ['None.'], notCheckable: 'an absence of pushes cannot be seen by a client that polls' },
  { says: ['Poll `/changes`.'], checks: ['changes', 'plan-features'], faults: ['paid-feed-refused'] },
  // ---- Problem body
  {
    says: ['Every error is RFC 9457'],
    checks: ['rule:problem', 'rule:contract'],
    faults: ['wrong-status', 'problem-without-code'],
  },
  { says: ['A 400 adds `errors:'], checks: ['bad-input', 'rule:contract'], faults: ['bad-request-without-errors'] },
  {
    says: ['An unknown statistic adds `allowed`'],
    checks: ['statistics', 'rule:contract'],
    faults: ['unknown-statistic-without-allowed'],
  },
  // ---- Actions
  {
    says: ['Every 401, 402 and 429 carries a non-empty `actions` list'],
    checks: ['rule:actions', 'auth'],
    faults: ['drop-actions'],
  },
  { says: ['`get_trial_key`: `method: POST`'], checks: ['auth', 'rule:action-shapes'], faults: ['drop-actions'] },
  {
    says: ['`buy_prepaid_rows`: where to buy rows', '`book_call`: a link meant for a human'],
    checks: ['key-states', 'rule:contract', 'rule:action-shapes'],
    faults: ['quota-actions-trimmed'],
    note: "a used-up quota's 402 offers both; the other errors' actions are not asserted yet",
  },
  {
    says: ['`subscribe`: names the suggested plan'],
    checks: ['plan-features', 'rule:actions', 'rule:action-shapes'],
    faults: ['drop-actions'],
  },
  { says: ['Which actions come with which error is in the mock'], notCheckable: 'says where the kit keeps its table' },
  // ---- Status codes
  {
    says: ['400 `invalid_parameter`, `unknown_parameter`'],
    checks: ['bad-input', 'cursor-tamper'],
    faults: ['server-error-on-bad-input', 'accept-bad-cursor'],
  },
  { says: ['414 `uri_too_long`'], checks: ['bad-input'], faults: ['long-url-as-400'] },
  {
    says: ['401 `missing_key`, `invalid_key`'],
    checks: ['auth', 'key-states'],
    faults: ['wrong-status', 'revoked-as-403'],
  },
  {
    says: ['402 `trial_exhausted`, `trial_expired`'],
    checks: ['plan-features', 'trial-runs-out'],
    faults: ['quota-as-429', 'refuse-exports'],
  },
  {
    says: ['404 `not_found`, `unknown_statistic`'],
    checks: ['changes', 'statistics'],
    faults: ['unknown-statistic-400'],
    note: 'an unpublished record and an unknown statistic; an unknown route is not asserted yet',
  },
  { says: ['405 `method_not_allowed` with `Allow`'], checks: ['http-conventions'], faults: ['delete-not-405'] },
  {
    says: ['409 `trial_exists`; 413'],
    checks: ['trial-call'],
    faults: ['trial-statuses-as-400'],
    note: 'the 415 of a body in a content coding is not probed yet',
  },
  {
    says: ['429 `rate_limited` with `Retry-After`.'],
    checks: ['rate', 'rule:retry-after'],
    faults: ['drop-retry-after'],
  },
  {
    says: [
      "The mock's control endpoints (not part of the API)",
      'Each try takes its token before the token is compared',
      'Without an admin token set there is nothing to guess',
      'Being no part of the API, that 429 offers no',
    ],
    notCheckable: "the control endpoints are the mock's, not the API's",
  },
  {
    says: ['Before a request reaches an operation, the server answers 408'],
    checks: ['admission'],
    faults: ['bare-limit-answers'],
  },
  {
    says: ['Every error answer is problem+json, those HTTP parsing makes too'],
    checks: ['admission'],
    faults: ['bare-limit-answers'],
    note:
      'HTTP/1.1 without Host, Expect 200-ok, CONNECT and a %2e%2e segment are probed; a ' +
      'request that is not HTTP at all is not',
  },
  {
    says: ['A connection that sends nothing is answered 408 after 10 s'],
    todo:
      "a connection held idle past the header timeout (the mock's own tests do, with a small " +
      'one: adapters/node/bounds.test.ts); a run against a live service would hold one 10 s',
  },
  {
    says: ['Closed with no answer, by decision: a connection whose client goes away'],
    todo:
      "a reader that stops reading a large answer for a window (the mock's own tests do: " +
      'adapters/node/hardening.test.ts); a run against a live service would hold one of its ' +
      'connections that long',
  },
  {
    says: [
      'No key comes back in any form, wherever a request sent it',
      "A key is the kit's form (`igk_...`), the shape of a generated secret",
      'What is echoed is cut between pieces',
      'An incoming `X-Request-Id` that holds a key is replaced',
    ],
    todo:
      "a call that sends the run's key in a slug, a parameter or X-Request-Id and reads the " +
      "problem (the mock's own tests do, in 37 places and 9 encodings: redaction.test.ts); the " +
      'properties never hold the key itself',
  },
  { says: ["The log shows a cursor of the kit's form"], notCheckable: "the mock's own log" },
  {
    says: ["A JSON body (the trial call's, a control call's) that gives a member twice"],
    todo:
      "a trial call with `email` twice is a 400 that makes no key (the mock's own test: " +
      'packages/engine/src/http/json-body.test.ts)',
  },
  { says: ['One that cannot write the file (a disk that filled'], notCheckable: "the mock's own state file" },
  {
    says: ['With `--state redis://...`, a call whose state server does not answer'],
    notCheckable:
      "the mock's own state server: a client cannot make it go away (the mock's tests stop a real Redis under load)",
  },
  {
    says: ['The request journal those mocks share is on the server too'],
    notCheckable: "the mock's control plane on its own state server, not the API (the mock's Redis journal tests)",
  },
  {
    says: ['A charge that reached the server but whose answer was lost'],
    notCheckable: "the mock's own state server (the mock's tests stop a real Redis mid-run and count every 200 once)",
  },
  { says: ['A failure of the mock itself is 500'], notCheckable: 'a client cannot make the service fail on purpose' },
  {
    says: ['Nor is a 503 to a check'],
    checks: ['rule:contract'],
    note: 'any 503 met is reported; no fault of the mock answers one (rules.test.ts holds the rule to it)',
  },
  {
    says: ['502 `bad_gateway` and 504 `gateway_timeout` say'],
    checks: ['rule:contract'],
    note:
      'any 502, 503 or 504 met is reported (rules.test.ts holds the rule to each); ' +
      'the mock answers them only for an incident',
  },
  { says: ['With `--state FILE`, a call that waited 2 s'], notCheckable: "the mock's own state file" },
  {
    says: ['The service never answers 5xx to bad input'],
    checks: ['bad-input', 'rule:bad-input-no-5xx'],
    faults: ['server-error-on-bad-input'],
  },
  // ---- Plan numbers the spec leaves open
  { says: ['Trial 2 requests a second; pay as you go 10'], checks: ['envelope', 'rate'], faults: ['plan-mislabelled'] },
  { says: ['The whole plan table lives once'], notCheckable: 'how the kit keeps its numbers' },
  // ---- Exhausted quota
  {
    says: ['A 402 `quota_exhausted` until the period rolls over'],
    checks: ['key-states'],
    faults: ['quota-actions-trimmed'],
    note: "with --use-control (on the service it would take a month's calls); the roll-over itself is not driven",
  },
  {
    says: ['A used-up trial is 402 `trial_exhausted`'],
    checks: ['trial-runs-out'],
    faults: ['quota-as-429', 'expired-trial-as-401', 'trial-codes-swapped'],
  },
  // ---- Pay as you go billing
  {
    says: ['Prepaid rows are kept as a row balance', '`usage.rows_charged` and `usage.balance_rows`'],
    checks: ['envelope', 'billing', 'rule:usage-counters'],
    faults: ['feed-charge-misreported', 'payg-minimum-ignored'],
  },
  {
    says: ['A call whose cost would exceed the balance'],
    checks: ['key-states'],
    faults: ['insufficient-balance-charged'],
  },
  { says: ['Errors cost nothing.'], checks: ['billing'], faults: ['errors-counted'] },
  // ---- Round lag
  {
    says: ['A trial never sees rounds announced within 75 days'],
    checks: ['filters', 'statistics', 'derived', 'rule:round-lag'],
    faults: ['lag-ignored', 'lagged-totals'],
  },
  {
    says: ['Held back are such a round, in `/rounds`'],
    checks: ['filters', 'derived', 'rule:round-lag'],
    faults: ['lag-ignored', 'lag-skips-edges'],
    note:
      "a company's rounds and investors and a firm's portfolio against the rounds the trial " +
      'sees; /investments itself is not walked against them yet',
  },
  {
    says: ['Every field made from rounds or edges is made as if'],
    checks: ['derived', 'statistics'],
    faults: ['lagged-totals'],
  },
  {
    says: ['Not held back, by decision'],
    checks: ['conforms'],
    note: 'what the lag leaves alone is served to a trial as to any plan: conforms reads every operation with the key',
  },
  {
    says: ['No plan with a lag has the changes feed or the nightly dumps'],
    checks: ['envelope', 'plan-features'],
    faults: ['trial-feed-open', 'plan-mislabelled'],
  },
  {
    says: ['As the lag passes a round'],
    checks: ['stability'],
    note:
      "a permission: a trial's view of a company may change as the cutoff moves while its " +
      'updated_at stays, and the stability property allows that change alone',
  },
  // ---- Changes feed
  {
    says: ['`since` is required'],
    checks: ['changes', 'bad-input', 'rule:changes-order'],
    faults: ['unordered-changes'],
  },
  { says: ['It is paginated like any list'], checks: ['changes', 'rule:cursor-continuity'], faults: ['repeat-row'] },
  {
    says: ['Every item served counts as a row for pay as you go'],
    checks: ['billing'],
    faults: ['feed-charge-misreported'],
  },
  // ---- Timestamps
  {
    says: ['A timestamp parameter (`since`) takes every RFC 3339 form'],
    checks: ['timestamps'],
    faults: ['since-z-only'],
    note:
      'the page (rows and whether there is more) is compared; next_cursor and ETag are ' +
      "compared by the mock's own tests (packages/engine/src/http/timestamps.test.ts), a cursor being " +
      'opaque to a client',
    inputs: ['since', 'since-refused'],
  },
  { says: ['Changes are stamped to the whole second'], checks: ['timestamps'] },
  { says: ['Another offset (`+02:00`) is a 400'], checks: ['timestamps'] },
  // ---- Plan and usage in the envelope
  { says: ['`plan` is `{id, name, rows_per_page'], checks: ['envelope'], faults: ['plan-mislabelled'] },
  {
    says: ['`usage` counts the call it comes with'],
    checks: ['envelope', 'billing', 'rule:usage-counters'],
    faults: ['frozen-usage', 'errors-counted'],
  },
  {
    says: ['Monthly periods run from the first of a month'],
    checks: ['envelope'],
    faults: ['periods-from-the-15th'],
    note: "every answer's usage period; the roll-over itself is not driven",
  },
  // ---- Rate limit headers
  {
    says: ['`RateLimit-Policy: "default";q=<rate>;w=1`'],
    checks: ['rule:rate-limit-headers'],
    faults: ['rate-limit-policy-wrong'],
  },
  {
    says: ['They state the bucket a call was counted against'],
    checks: ['rule:rate-limit-headers'],
    faults: ['rate-limit-policy-wrong'],
    note:
      "every data answer's and every 429's headers; that a 304, 402 or 404 carries them, and " +
      "that a refused call's answer does not, is not asserted yet",
  },
  { says: ['The limiter is a token bucket per key'], checks: ['rate'], faults: ['drop-retry-after'] },
  {
    says: ["The trial call is counted against its address's bucket"],
    checks: ['trial-call'],
    note: 'that its refusals carry no RateLimit headers is not asserted',
  },
  {
    says: ['The contract document, static and cached'],
    checks: ['openapi'],
    note: 'that it is neither limited nor counted is not asserted',
  },
  {
    says: ['It runs on real time'],
    checks: ['service-clock'],
    faults: ['limiter-on-clock'],
    note: "with --use-control: moving the service's clock refills no bucket",
  },
  {
    says: [
      'Mocks sharing a state database (`--state FILE`) share every client',
      'In memory, each process keeps them all',
      'Every budget is spent in one atomic step before what it guards is done',
    ],
    notCheckable:
      "where the kit's mock keeps its buckets (the mock's tests run two mocks on one file and " +
      'on one Redis: stores/address-budgets.test.ts)',
  },
  {
    says: ['Mocks sharing a Redis store (`--state redis://`) share every bucket'],
    notCheckable:
      "where the kit's mock keeps its buckets: through one URL a client sees one rate, which " +
      "`rate` checks whichever replica answers (the mock's tests run three behind haproxy)",
  },
  {
    says: ['The unauthenticated trial call has a bucket per client address'],
    checks: ['trial-call'],
    faults: ['trial-call-unlimited'],
  },
  // ---- Conditional requests
  { says: ['GET answers carry a weak `ETag`'], checks: ['conditional'], faults: ['ignore-if-none-match'] },
  { says: ["A dump file's `ETag` is strong"], checks: ['exports'], faults: ['weak-dump-etag'] },
  {
    says: ['`If-None-Match` is compared weakly'],
    checks: ['conditional'],
    faults: ['strict-if-none-match', 'ignore-if-none-match'],
    inputs: ['if-none-match-held', 'if-none-match-other'],
  },
  { says: ['A 304 is counted as a call'], checks: ['conditional'], faults: ['cached-304'] },
  {
    says: ['The data of `/account` is its whole `data`'],
    todo:
      "an account's tag sent back after a data call moved its usage, to be answered 200, not 304 " +
      "(the mock's own tests do: engine's operations/account.test.ts)",
  },
  // ---- HTTP conventions
  {
    says: ['HEAD answers every GET'],
    checks: ['http-conventions'],
    faults: ['refuse-head', 'head-without-auth'],
    inputs: ['head'],
  },
  { says: ['It is counted and charged as the GET'], checks: ['billing'], faults: ['head-counted-twice'] },
  {
    says: ['Another method is 405 with `Allow`'],
    checks: ['http-conventions'],
    faults: ['delete-not-405'],
    inputs: ['options', 'method-refused'],
  },
  { says: ['401 carries `WWW-Authenticate'], checks: ['http-conventions'], faults: ['drop-www-authenticate'] },
  {
    says: ['Data answers carry `Cache-Control: private'],
    checks: ['http-conventions', 'rule:cache-headers'],
    faults: ['shared-cache'],
  },
  {
    says: ['CORS: any origin by default', 'A preflight from an allowed origin'],
    checks: ['http-conventions', 'rule:cache-headers'],
    faults: ['cors-closed'],
    inputs: ['cors-origin', 'cors-preflight'],
  },
  {
    says: ['An incoming `X-Request-Id` of'],
    checks: ['http-conventions', 'rule:request-id'],
    faults: ['drop-request-id'],
    inputs: ['request-id'],
  },
  {
    says: ['The quota is a second item of the rate-limit headers'],
    checks: ['rule:rate-limit-headers', 'rule:usage-counters'],
    faults: ['quota-item-wrong', 'quota-left-stuck'],
  },
  { says: ['`/api/v1/openapi.json` lists this server'], checks: ['openapi'], faults: ['servers-elsewhere'] },
  {
    says: ['The Node server compresses JSON answers'],
    notCheckable: "the mock's own: a service behind another front may compress otherwise",
    note: 'a body that does not decode as its Content-Encoding says is a finding of rule:contract',
  },
  // ---- Deprecation
  { says: ['`/api/v1` only grows'], notCheckable: 'a promise about future versions; one run sees one version' },
  { says: ['Clients must ignore unknown fields'], notCheckable: 'a rule for clients' },
  {
    says: ['A contract document names its text by `info.version`'],
    checks: ['rule:model'],
    note: "the model's document is the kit's: a service serving the kit's version is compared to it whole",
  },
  // ---- Incidents
  {
    says: [
      'An incident meets a call once the call is routed',
      'The newest incident a call matches',
      'An outage is 503 `service_unavailable`',
      'None of these is counted or charged',
      'Latency and a slow body are served',
      'A slow body is sent uncompressed',
      'The journal names the incident',
      'At most 1,000 incidents are in force',
      'A call looks only at the incidents that name its operation',
      "A path pattern (an incident's `match.path`",
      'What the control plane shows of what a test sent',
      'every mock on the server shares one table of incidents',
      'A call that matches no incident asks the server nothing',
    ],
    notCheckable:
      "the mock's control plane, not the API (the mock's tests hold it: engine/src/incidents/, " +
      'conformance/incidents.ts, stores/redis/incident-replicas.test.ts)',
  },
  // ---- Model comparison
  {
    says: [
      'Every call the run makes is made of the model too',
      'What may differ by decision, each difference',
      "Who made the call, when, and the run's own ids",
      'A rate decision: a 429 is a decision in time',
      'Usage moved by another client of the same key',
      '`no-data`: the model holds no data',
      '`no-history`: the changes feed and the dumps are history',
      '`document`: the contract a service serves at another `info.version`',
      'At the same version it is compared whole',
      'A call the model cannot make as the service got it',
      'A difference no sentence of the spec or of these decisions fixes',
    ],
    notCheckable:
      "how the kit's contract tests judge a service, not the API's behaviour " +
      "(the model's own tests hold it: contract-tests/src/model/)",
  },
];

/**
 * The contract's `x-assumed` spots, by kind of spot: what judges the decision the spot carries.
 * First match wins.
 */
export const spotClaims: readonly { at: RegExp; claim: Omit<Claim, 'says'> }[] = [
  { at: /^\/info$/, claim: { notCheckable: 'no webhooks and the deprecation policy: promises, not answers' } },
  {
    at: /^\/x-plans$/,
    claim: { checks: ['envelope', 'pagination', 'rule:page-limit'], faults: ['ignore-limit', 'plan-mislabelled'] },
  },
  {
    at: /keys~1trial\/post$/,
    claim: { checks: ['trial-runs-out', 'trial-call', 'rule:contract'], faults: ['trial-statuses-as-400'] },
  },
  { at: /exports~1\{date\}~1\{file\}\/get$/, claim: { checks: ['exports'], faults: ['manifest-wrong-sha'] } },
  { at: /~1account\/get$/, claim: { checks: ['account', 'rule:contract'], faults: ['account-counted'] } },
  {
    at: /~1rounds\/get$/,
    claim: {
      checks: ['bad-input', 'filters', 'rule:round-lag', 'rule:contract'],
      faults: ['ignore-unknown-parameter', 'ignore-announced-since', 'lag-ignored'],
    },
  },
  {
    at: /^\/paths\/.*\/get$/,
    claim: {
      checks: ['bad-input', 'pagination', 'rule:contract'],
      faults: ['ignore-unknown-parameter', 'unsorted-pages'],
    },
  },
  {
    at: /parameters\/Cursor$|schemas\/(Next)?Cursor$/,
    claim: { checks: ['cursor-tamper', 'pagination'], faults: ['accept-bad-cursor', 'cursor-ignores-filters'] },
  },
  {
    at: /parameters\/Limit$/,
    claim: { checks: ['bad-input', 'rule:page-limit'], faults: ['ignore-limit', 'refuse-over-cap'] },
  },
  { at: /parameters\/Since$/, claim: { checks: ['changes', 'bad-input'], faults: ['unordered-changes'] } },
  {
    at: /parameters\/Include$/,
    claim: { checks: ['changes', 'bad-input'], faults: ['lenient-include', 'stale-include-rows'] },
  },
  {
    at: /parameters\/IfNoneMatch$|headers\/ETag$/,
    claim: { checks: ['conditional'], faults: ['ignore-if-none-match', 'strict-if-none-match'] },
  },
  { at: /parameters\/Export(Date|File)$/, claim: { checks: ['exports'], faults: ['bad-dump-date-404'] } },
  {
    at: /headers\/RateLimit(Policy)?$/,
    claim: { checks: ['rule:rate-limit-headers'], faults: ['rate-limit-policy-wrong'] },
  },
  { at: /WWW-Authenticate$/, claim: { checks: ['http-conventions'], faults: ['drop-www-authenticate'] } },
  { at: /headers\/Access-Control-Allow-Origin$/, claim: { checks: ['http-conventions'], faults: ['cors-closed'] } },
  {
    at: /responses\/(InternalError|ServiceUnavailable|BadGateway|GatewayTimeout)$/,
    claim: {
      notCheckable:
        'a client cannot make the service fail, its state store go away, ' +
        'or a server behind its gateway fail, on purpose',
    },
  },
  {
    at: /^\/servers\/\d+$/,
    claim: {
      notCheckable:
        "the servers of the kit's contract file: a service's served contract names the service " +
        'itself, which the openapi property checks',
    },
  },
  {
    at: /responses\/(Unauthorized|PaymentRequired)$/,
    claim: {
      checks: ['auth', 'plan-features', 'rule:problem', 'rule:actions'],
      faults: ['wrong-status', 'drop-actions'],
    },
  },
  {
    at: /responses\/BadRequest$/,
    claim: { checks: ['bad-input', 'rule:problem', 'rule:contract'], faults: ['server-error-on-bad-input'] },
  },
  {
    at: /responses\/NotFound$/,
    claim: {
      checks: ['statistics', 'rule:problem', 'rule:contract'],
      faults: ['unknown-statistic-400', 'problem-without-code'],
    },
  },
  {
    at: /responses\/UriTooLong$/,
    claim: { checks: ['bad-input', 'rule:problem', 'rule:contract'], faults: ['long-url-as-400'] },
  },
  {
    at: /responses\/(TrialExists|PayloadTooLarge|UnsupportedMediaType)$/,
    claim: { checks: ['trial-call', 'rule:problem', 'rule:contract'], faults: ['trial-statuses-as-400'] },
  },
  { at: /schemas\/Usage/, claim: { checks: ['envelope'], faults: ['frozen-usage'] } },
  { at: /schemas\/(KeySummary|Account)$/, claim: { checks: ['account', 'rule:contract'], faults: ['echo-key'] } },
  { at: /schemas\/ExportDay$/, claim: { checks: ['exports', 'rule:contract'], faults: ['manifest-wrong-sha'] } },
  { at: /schemas\/Change/, claim: { checks: ['changes', 'rule:contract'], faults: ['unordered-changes'] } },
  {
    at: /schemas\/Action$|schemas\/Problem$/,
    claim: {
      checks: ['rule:problem', 'rule:actions', 'rule:contract'],
      faults: ['drop-actions', 'problem-without-code'],
    },
  },
  {
    at: /schemas\/(Firm|Company|Round|Investment|Fund|Filing|Offering|AdvFund)$/,
    claim: { checks: ['conforms', 'rule:contract'], faults: ['drop-service-url'] },
  },
  { at: /evidence_tier$/, claim: { checks: ['conforms', 'rule:contract'], faults: ['unknown-evidence-tier'] } },
  { at: /schemas\/Plan$/, claim: { checks: ['envelope', 'rule:contract'], faults: ['plan-mislabelled'] } },
  { at: /schemas\/Statistic$/, claim: { checks: ['statistics', 'rule:contract'], faults: ['statistics-off-by-one'] } },
  { at: /schemas\/Slug$/, claim: { checks: ['conforms', 'rule:contract'], faults: ['slug-with-capitals'] } },
  { at: /schemas\/FundId$/, claim: { checks: ['conforms', 'rule:contract'], faults: ['fund-id-uppercase'] } },
  { at: /schemas\/EvidenceSource$/, claim: { checks: ['conforms', 'rule:contract'], faults: ['sources-without-url'] } },
  {
    at: /schemas\/(ListSummary|List)$/,
    claim: { checks: ['conforms', 'rule:contract'], faults: ['list-member-missing'] },
  },
  { at: /schemas\/TrialKey$/, claim: { checks: ['trial-runs-out', 'rule:contract'], faults: ['short-trial-keys'] } },
  { at: /^\/components\/schemas\//, claim: { checks: ['conforms', 'rule:contract'] } },
];
