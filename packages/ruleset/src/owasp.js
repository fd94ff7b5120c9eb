// @ts-check
/**
 * The kit's ruleset with Spectral's OWASP API Security Top 10 (2023) ruleset on top, read for this
 * API: every OWASP rule applies as published, but the few below, each switched off or narrowed with
 * the reason beside it (the README lists them).
 *
 * @example .spectral.yaml
 *   extends: ["@investor-graph/spectral-ruleset/owasp"]
 * @example programmatic
 *   spectral.setRuleset(createOwaspRuleset({ extraPersonFields: ['nickname'] }));
 */
import { createRulesetFunction } from '@stoplight/spectral-core';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { createRuleset } from './index.js';

/** @typedef {Record<string, any>} Node */
/** @typedef {import('@stoplight/spectral-core').IFunctionResult} Result */

const docs = 'https://github.com/investor-graph/kit/blob/main/packages/ruleset/README.md#the-owasp-option';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** The contract document: static, public and cached (max-age=300), never counted against a key or limited. */
const DOCUMENT = '/api/v1/openapi.json';
/** What OWASP's rate-limit rule accepts as rate-limit headers: the IETF draft's, or the common X- ones. */
const RATE_HEADERS = [
  ['ratelimit'],
  ['ratelimit-limit', 'ratelimit-reset'],
  ['x-ratelimit-limit'],
  ['x-rate-limit-limit'],
];
/** Hosts a plain-HTTP server may have: traffic to them never leaves the machine. */
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:[0-9]+)?(\/|$)/i;

/** @param {Node} doc @returns {Generator<{ path: string, method: string, op: Node, item: Node }>} */
function* eachOperation(doc) {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) if (item?.[method]) yield { path, method, op: item[method], item };
  }
}

/** @param {Node} doc @param {Node} op */
const needsKey = (doc, op) => (op.security ?? doc.security ?? []).length > 0;

/**
 * Every operation of `of` (those needing a key, or every one but the contract document) declares
 * `status` with content.
 */
const declaresResponse = createRulesetFunction(
  {
    input: null,
    options: {
      type: 'object',
      properties: { status: { type: 'string' }, of: { enum: ['keyed', 'limited'] } },
      required: ['status', 'of'],
      additionalProperties: false,
    },
  },
  (/** @type {Node} */ doc, /** @type {{ status: string, of: 'keyed' | 'limited' }} */ { status, of }) => {
    /** @type {Result[]} */
    const results = [];
    for (const { path, method, op } of eachOperation(doc)) {
      if (of === 'keyed' ? !needsKey(doc, op) : path === DOCUMENT) continue;
      const at = ['paths', path, method, 'responses'];
      const response = op.responses?.[status];
      if (!response)
        results.push({ message: `${method.toUpperCase()} ${path} declares no ${status} response.`, path: at });
      else if (!response.content)
        results.push({
          message: `The ${status} of ${method.toUpperCase()} ${path} declares no content.`,
          path: [...at, status],
        });
    }
    return results;
  },
);

/** Every success answer and every 429 of an operation the API limits declares its rate-limit headers. */
const rateLimitHeaders = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  for (const { path, method, op } of eachOperation(doc)) {
    if (path === DOCUMENT) continue;
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (!/^(2\d\d|2XX|429)$/.test(status)) continue;
      const names = Object.keys(response?.headers ?? {}).map((name) => name.toLowerCase());
      if (!RATE_HEADERS.some((set) => set.every((name) => names.includes(name)))) {
        results.push({
          message:
            `The ${status} of ${method.toUpperCase()} ${path} declares no rate-limit headers ` +
            '(RateLimit and RateLimit-Policy).',
          path: ['paths', path, method, 'responses', status],
        });
      }
    }
  }
  return results;
});

/** A server URL is https:// (or wss://), or plain http:// on loopback only. */
/**
 * Every URL a server can stand for: its own with each variable's default and enum values put in
 * (a `{base_url}` defaulting to http:// is as plain as the literal).
 * @param {Node} server @returns {string[]}
 */
function serverUrls(server) {
  /** @type {string[]} */
  let urls = [String(server.url ?? '')];
  for (const [name, variable] of Object.entries(server.variables ?? {})) {
    const values = [...new Set([variable?.default, ...(variable?.enum ?? [])].filter((v) => typeof v === 'string'))];
    if (values.length) urls = urls.flatMap((url) => values.map((v) => url.split(`{${name}}`).join(v)));
  }
  return urls;
}

const encryptedOffLoopback = createRulesetFunction(
  { input: { type: 'object' }, options: null },
  (/** @type {Node} */ server, _options, context) =>
    serverUrls(server)
      .filter((url) => /^http:/i.test(url) && !LOOPBACK.test(url))
      .map((url) => ({
        message:
          `${url} is plain http:// off loopback; ` +
          'use https:// (plain HTTP only for a mock on 127.0.0.1, localhost or [::1]).',
        path: [...context.path, 'url'],
      })),
);

/** @param {Node} schema @returns {boolean} */
const isString = (schema) => (Array.isArray(schema?.type) ? schema.type.includes('string') : schema?.type === 'string');
/** @param {Node} schema */
const restricted = (schema) => ['format', 'pattern', 'enum', 'const'].some((k) => schema[k] !== undefined);

/** @param {Node} schema @param {(string | number)[]} at @param {Result[]} results @param {Set<Node>} seen */
function unrestrictedStrings(schema, at, results, seen) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  if (isString(schema) && !restricted(schema))
    results.push({ message: 'A string the API reads has no format, pattern, enum or const.', path: at });
  for (const [name, sub] of Object.entries(schema.properties ?? {}))
    unrestrictedStrings(sub, [...at, 'properties', name], results, seen);
  if (schema.items) unrestrictedStrings(schema.items, [...at, 'items'], results, seen);
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    (schema[key] ?? []).forEach((/** @type {Node} */ sub, /** @type {number} */ i) =>
      unrestrictedStrings(sub, [...at, key, i], results, seen),
    );
}

/** Every string the API reads (a parameter, a request body's field) has a format, pattern, enum or const. */
const restrictedInputs = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  for (const { path, method, op, item } of eachOperation(doc)) {
    const at = ['paths', path, method];
    (item.parameters ?? []).forEach((/** @type {Node} */ p, /** @type {number} */ i) =>
      unrestrictedStrings(p?.schema, ['paths', path, 'parameters', i, 'schema'], results, new Set()),
    );
    (op.parameters ?? []).forEach((/** @type {Node} */ p, /** @type {number} */ i) =>
      unrestrictedStrings(p?.schema, [...at, 'parameters', i, 'schema'], results, new Set()),
    );
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
      unrestrictedStrings(media?.schema, [...at, 'requestBody', 'content', type, 'schema'], results, new Set());
  }
  return results;
});

/**
 * @param {{ extraPersonFields?: string[], decisionHeadings?: string[] }} [options] as createRuleset's
 * @returns {{ extends: unknown[], documentationUrl: string, rules: Record<string, unknown> }}
 *   a Spectral ruleset definition
 */
export function createOwaspRuleset(options = {}) {
  /** @param {any} then */
  const narrowed = (then) => ({ given: '$', message: '{{error}}', documentationUrl: docs, then });
  return {
    extends: [createRuleset(options), owasp],
    documentationUrl: docs,
    rules: {
      // Off: the spec makes the trial call (POST /api/v1/keys/trial) and the contract document
      // (GET /api/v1/openapi.json) open on purpose; ig-bearer-security holds every other operation
      // to bearer security and these two to none.
      'owasp:api2:2023-write-restricted': 'off',
      'owasp:api2:2023-read-restricted': 'off',
      // Narrowed: a 401 is declared by every operation that needs a key; the two open ones never answer it.
      'owasp:api8:2023-define-error-responses-401': narrowed({
        function: declaresResponse,
        functionOptions: { status: '401', of: 'keyed' },
      }),
      // Narrowed: the contract document is static, public and cached, and not rate limited
      // (DECISIONS.md#rate-limit-headers); every other operation declares its 429.
      'owasp:api4:2023-rate-limit-responses-429': narrowed({
        function: declaresResponse,
        functionOptions: { status: '429', of: 'limited' },
      }),
      // Narrowed: RateLimit states the bucket a call was counted against, so every success answer
      // and every 429 declares it; an answer refused before that (bad input, no valid key, a URL
      // too long) was counted against no key's bucket and is not held to it. The document, never limited, has none.
      'owasp:api4:2023-rate-limit': narrowed({ function: rateLimitHeaders }),
      // Narrowed: plain HTTP is refused, but on loopback (the kit's mock, which serves its own
      // contract naming http://127.0.0.1:PORT): traffic that never leaves the machine gains nothing from TLS.
      'owasp:api8:2023-no-server-http': {
        given: '$.servers[*]',
        message: '{{error}}',
        documentationUrl: docs,
        then: { function: encryptedOffLoopback },
      },
      // Narrowed to what the API reads (parameters, request bodies), where an unexpected value is
      // the risk: what it serves includes free text (names, descriptions, problem details quoting
      // what a client sent) that no pattern describes; owasp:api4:2023-string-limit bounds every string either way.
      'owasp:api4:2023-string-restricted': narrowed({ function: restrictedInputs }),
    },
  };
}

export default createOwaspRuleset();
