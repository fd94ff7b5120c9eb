// @ts-check
/**
 * The Investor Graph API's conventions as a Spectral ruleset. It extends spectral:oas.
 *
 * @example .spectral.yaml
 *   extends: ["@investor-graph/spectral-ruleset"]
 * @example programmatic
 *   spectral.setRuleset(createRuleset({ extraPersonFields: ['nickname'] }));
 */
import { oas } from '@stoplight/spectral-rulesets';
import * as fn from './functions.js';

const docs = 'https://github.com/investor-graph/kit/blob/main/packages/ruleset/README.md';

/**
 * @param {{ extraPersonFields?: string[], decisionHeadings?: string[] }} [options]
 * @returns {{ extends: unknown[], documentationUrl: string, rules: Record<string, unknown> }}
 *   a Spectral ruleset definition
 */
export function createRuleset(options = {}) {
  /** @param {string} id @param {string} description @param {any} then @param {'error' | 'warn'} [severity] */
  const rule = (id, description, then, severity = 'error') => ({
    description,
    message: '{{error}}',
    documentationUrl: `${docs}#${id}`,
    severity,
    given: '$',
    then,
  });
  return {
    extends: [[oas, 'recommended']],
    documentationUrl: docs,
    rules: {
      // spectral:oas has these as warnings; for this API they are errors.
      'operation-operationId': 'error',
      'operation-operationId-unique': 'error',
      'ig-paths-under-api-v1': {
        description: 'Every path sits under /api/v1: the version is in the path prefix.',
        message: '{{property}} is not under /api/v1',
        documentationUrl: `${docs}#ig-paths-under-api-v1`,
        severity: 'error',
        given: '$.paths',
        then: { field: '@key', function: fn.pathPrefix, functionOptions: { prefix: '/api/v1/' } },
      },
      'ig-envelope': rule(
        'ig-envelope',
        'Every GET data operation answers {data, next_cursor, as_of, plan, usage}, all required.',
        { function: fn.envelope },
      ),
      'ig-list-paging': rule(
        'ig-list-paging',
        'List operations take limit and cursor and return next_cursor (string or null).',
        { function: fn.listPaging },
      ),
      'ig-row-fields': rule(
        'ig-row-fields',
        'Every row schema (x-row: true) requires service_url (uri), updated_at and first_seen_at (date-time).',
        { function: fn.rowFields },
      ),
      'ig-error-actions': rule(
        'ig-error-actions',
        'Every 401, 402 and 429 is problem+json with a required actions array of {type, title, href, method}.',
        { function: fn.errorActions },
      ),
      'ig-429-retry-after': rule('ig-429-retry-after', 'Every 429 documents the Retry-After header.', {
        function: fn.retryAfter,
      }),
      'ig-bearer-security': rule(
        'ig-bearer-security',
        'Data operations use bearer security; the trial call and the openapi document use none.',
        { function: fn.bearerSecurity },
      ),
      'ig-trial-call': rule('ig-trial-call', 'POST /api/v1/keys/trial takes application/json with a required email.', {
        function: fn.trialCall,
      }),
      'ig-no-person-fields': rule(
        'ig-no-person-fields',
        'No schema property describes a person (names, e-mails, phones, profile URLs, photos, founders, rosters).',
        {
          function: fn.noPersonFields,
          functionOptions: { extra: options.extraPersonFields ?? [] },
        },
      ),
      'ig-date-formats': rule(
        'ig-date-formats',
        '*_at fields are date-time, *_on fields are date; announced_since is a date, since a date-time.',
        { function: fn.dateFormats },
      ),
      'ig-statistics-names': rule('ig-statistics-names', 'The statistics name is limited to the four the spec lists.', {
        function: fn.statisticNames,
      }),
      'ig-x-assumed': rule('ig-x-assumed', 'Every x-assumed marker points at a heading of DECISIONS.md.', {
        function: fn.assumedMarkers,
        ...(options.decisionHeadings ? { functionOptions: { headings: options.decisionHeadings } } : {}),
      }),
    },
  };
}

export { PERSON_FIELDS, PERSON_WORDS, PERSON_WORD_PAIRS, anchorOf } from './functions.js';
export default createRuleset();
