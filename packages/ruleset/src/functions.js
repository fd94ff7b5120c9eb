// @ts-check
/**
 * The custom functions of the Investor Graph ruleset, built with createRulesetFunction. Each reads
 * the resolved document (`given: '$'`) and reports results at the exact path that breaks the rule.
 */
import { createRulesetFunction } from '@stoplight/spectral-core';
import {
  isPersonFieldName,
  isPersonSchema,
  personFieldNames,
  personNamePairs,
  personNameWords,
} from '@investor-graph/contract/people';

/** @typedef {Record<string, any>} Node */
/** @typedef {import('@stoplight/spectral-core').IFunctionResult} Result */
/** @typedef {(string | number)[]} JsonPath */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** @param {Node} doc @returns {Generator<{ path: string, method: string, op: Node }>} */
function* eachOperation(doc) {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) if (item?.[method]) yield { path, method, op: item[method] };
  }
}

/** @param {Node} doc @param {Node} op */
function isSecured(doc, op) {
  const security = op.security ?? doc.security ?? [];
  return Array.isArray(security) && security.length > 0;
}

/** @param {Node} doc @param {Node} op */
function usesBearer(doc, op) {
  const schemes = doc.components?.securitySchemes ?? {};
  const security = op.security ?? doc.security ?? [];
  return security.some((/** @type {Node} */ req) =>
    Object.keys(req).some(
      (name) => schemes[name]?.type === 'http' && String(schemes[name]?.scheme).toLowerCase() === 'bearer',
    ),
  );
}

/** A GET that serves data: secured and answering 200 application/json. */
/** @param {Node} doc @param {string} method @param {Node} op */
function isDataGet(doc, method, op) {
  return method === 'get' && isSecured(doc, op) && !!op.responses?.['200']?.content?.['application/json'];
}

/** @param {Node} schema @returns {Node} properties merged through allOf */
function propertiesOf(schema) {
  if (!schema || typeof schema !== 'object') return {};
  return Object.assign({}, ...(schema.allOf ?? []).map(propertiesOf), schema.properties ?? {});
}

/** @param {Node} schema @returns {string[]} */
function requiredOf(schema) {
  if (!schema || typeof schema !== 'object') return [];
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap(requiredOf)];
}

/** @param {unknown} type @param {string} want */
const hasType = (type, want) => (Array.isArray(type) ? type.includes(want) : type === want);

export const pathPrefix = createRulesetFunction(
  {
    input: { type: 'string' },
    options: {
      type: 'object',
      properties: { prefix: { type: 'string' } },
      required: ['prefix'],
      additionalProperties: false,
    },
  },
  (/** @type {string} */ path, /** @type {{ prefix: string }} */ options) =>
    path.startsWith(options.prefix) ? [] : [{ message: `${path} is not under ${options.prefix.replace(/\/$/, '')}` }],
);

const ENVELOPE = ['data', 'next_cursor', 'as_of', 'plan', 'usage'];

export const envelope = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  for (const { path, method, op } of eachOperation(doc)) {
    if (!isDataGet(doc, method, op)) continue;
    if (op.operationId === 'getOpenApiDocument') continue;
    const schema = op.responses['200'].content['application/json'].schema;
    const at = ['paths', path, method, 'responses', '200', 'content', 'application/json', 'schema'];
    const props = propertiesOf(schema);
    const required = requiredOf(schema);
    const missing = ENVELOPE.filter((f) => !props[f] || !required.includes(f));
    if (missing.length)
      results.push({
        message:
          `${method.toUpperCase()} ${path} must answer the envelope; ` +
          `missing or not required: ${missing.join(', ')}.`,
        path: at,
      });
  }
  return results;
});

export const listPaging = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  for (const { path, method, op } of eachOperation(doc)) {
    if (!isDataGet(doc, method, op)) continue;
    const schema = op.responses['200'].content['application/json'].schema;
    const data = propertiesOf(schema).data;
    if (!data || !hasType(data.type, 'array')) continue;
    const names = (op.parameters ?? []).map((/** @type {Node} */ p) => p.in === 'query' && p.name);
    for (const wanted of ['limit', 'cursor']) {
      if (!names.includes(wanted))
        results.push({
          message: `List ${method.toUpperCase()} ${path} must take the query parameter ${wanted}.`,
          path: ['paths', path, method, 'parameters'],
        });
    }
    const next = propertiesOf(schema).next_cursor;
    if (!next || !(hasType(next.type, 'string') && hasType(next.type, 'null'))) {
      results.push({
        message: `List ${method.toUpperCase()} ${path} must return next_cursor as a string or null.`,
        path: ['paths', path, method, 'responses', '200'],
      });
    }
  }
  return results;
});

/** @param {Node} doc @returns {Generator<{ name: string, schema: Node }>} */
function* rowSchemas(doc) {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    if (schema?.['x-row'] === true) yield { name, schema };
}

export const rowFields = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  /** @type {[string, string][]} */
  const wanted = [
    ['service_url', 'uri'],
    ['updated_at', 'date-time'],
    ['first_seen_at', 'date-time'],
  ];
  let rows = 0;
  for (const { name, schema } of rowSchemas(doc)) {
    rows++;
    const props = propertiesOf(schema);
    const required = requiredOf(schema);
    for (const [field, format] of wanted) {
      const prop = props[field];
      if (!prop || prop.format !== format || !required.includes(field)) {
        results.push({
          message: `Row schema ${name} must require ${field} with format ${format}.`,
          path: ['components', 'schemas', name],
        });
      }
    }
  }
  if (rows === 0 && Object.keys(doc.components?.schemas ?? {}).length) {
    results.push({
      message: 'No schema is marked x-row: true; mark each record schema so its common fields can be checked.',
      path: ['components', 'schemas'],
    });
  }
  return results;
});

const ACTION_TYPES = ['get_trial_key', 'buy_prepaid_rows', 'subscribe', 'book_call'];

export const errorActions = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  for (const { path, method, op } of eachOperation(doc)) {
    for (const status of ['401', '402', '429']) {
      const response = op.responses?.[status];
      if (!response) continue;
      const at = ['paths', path, method, 'responses', status];
      const schema = response.content?.['application/problem+json']?.schema;
      if (!schema) {
        results.push({
          message: `${status} of ${method.toUpperCase()} ${path} must be application/problem+json.`,
          path: at,
        });
        continue;
      }
      const actions = propertiesOf(schema).actions;
      if (!actions || !requiredOf(schema).includes('actions') || !hasType(actions.type, 'array')) {
        results.push({
          message: `${status} of ${method.toUpperCase()} ${path} must require an actions array.`,
          path: at,
        });
        continue;
      }
      const item = actions.items ?? {};
      const itemProps = propertiesOf(item);
      const itemRequired = requiredOf(item);
      const missing = ['type', 'title', 'href', 'method'].filter((f) => !itemProps[f] || !itemRequired.includes(f));
      const types = itemProps.type?.enum ?? [];
      if (missing.length || ACTION_TYPES.some((t) => !types.includes(t))) {
        results.push({
          message:
            `actions items of ${status} ${method.toUpperCase()} ${path} must require type, title, href, method, ` +
            `with type one of ${ACTION_TYPES.join(', ')}.`,
          path: at,
        });
      }
    }
  }
  return results;
});

export const retryAfter = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  for (const { path, method, op } of eachOperation(doc)) {
    const response = op.responses?.['429'];
    if (!response) continue;
    const header = Object.entries(response.headers ?? {}).find(([name]) => name.toLowerCase() === 'retry-after');
    if (!header)
      results.push({
        message: `429 of ${method.toUpperCase()} ${path} must document Retry-After.`,
        path: ['paths', path, method, 'responses', '429'],
      });
  }
  return results;
});

export const bearerSecurity = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  for (const { path, method, op } of eachOperation(doc)) {
    const open = path === '/api/v1/keys/trial' || path === '/api/v1/openapi.json';
    if (open) {
      if (isSecured(doc, op))
        results.push({
          message: `${method.toUpperCase()} ${path} must need no key (security: []).`,
          path: ['paths', path, method],
        });
      continue;
    }
    if (!usesBearer(doc, op))
      results.push({
        message: `${method.toUpperCase()} ${path} is a data call and must use bearer security.`,
        path: ['paths', path, method],
      });
  }
  return results;
});

export const trialCall = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  const op = doc.paths?.['/api/v1/keys/trial']?.post;
  const at = ['paths', '/api/v1/keys/trial', 'post'];
  if (!op) return [{ message: 'The API must offer POST /api/v1/keys/trial.', path: ['paths'] }];
  const schema = op.requestBody?.content?.['application/json']?.schema;
  if (!schema) return [{ message: 'POST /api/v1/keys/trial must take an application/json body.', path: at }];
  const email = propertiesOf(schema).email;
  if (!email || !requiredOf(schema).includes('email') || email.format !== 'email') {
    return [{ message: 'The trial body must require email (format email).', path: [...at, 'requestBody'] }];
  }
  return [];
});

/**
 * The vocabulary the rule knows (@investor-graph/contract/people, shared with the runtime rules):
 * whole names, words that count anywhere in a name, and word pairs. Users add whole names of
 * their own through the rule's options.
 */
/** @type {readonly string[]} */
export const PERSON_FIELDS = personFieldNames;
/** @type {readonly string[]} */
export const PERSON_WORDS = personNameWords;
/** @type {readonly (readonly [string, string])[]} */
export const PERSON_WORD_PAIRS = personNamePairs;

export const noPersonFields = createRulesetFunction(
  {
    input: null,
    options: {
      type: ['object', 'null'],
      properties: { extra: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    },
  },
  (/** @type {Node} */ doc, /** @type {{ extra?: string[] } | null} */ options) => {
    const extra = options?.extra ?? [];
    /** @type {Result[]} */
    const results = [];
    /** @param {unknown} node @param {JsonPath} path */
    const walk = (node, path) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, [...path, i]));
      if (!node || typeof node !== 'object') return;
      const props = /** @type {Node} */ (node).properties;
      if (props && typeof props === 'object' && !Array.isArray(props)) {
        for (const name of Object.keys(props)) {
          if (isPersonFieldName(name, extra))
            results.push({
              message: `Property ${name} describes a person; the API serves no people data.`,
              path: [...path, 'properties', name],
            });
          else if (isPersonSchema(props[name]))
            results.push({
              message:
                `Property ${name} holds an e-mail address, a phone number or a profile URL ` +
                '(by its format or pattern); the API serves no people data.',
              path: [...path, 'properties', name],
            });
        }
      }
      for (const [k, v] of Object.entries(node)) if (k !== 'examples' && k !== 'example') walk(v, [...path, k]);
    };
    // What the API serves: responses and parameters. Request bodies are left out on purpose: the
    // trial call takes an e-mail address to issue a key, and nothing served may carry one back.
    for (const { path, method, op } of eachOperation(doc)) {
      walk(op.responses ?? {}, ['paths', path, method, 'responses']);
      walk(op.parameters ?? [], ['paths', path, method, 'parameters']);
    }
    const requestOnly = new Set(
      [...eachOperation(doc)].map(({ op }) => op.requestBody?.content?.['application/json']?.schema).filter(Boolean),
    );
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      if (!requestOnly.has(schema)) walk(schema, ['components', 'schemas', name]);
    }
    return results;
  },
);

export const dateFormats = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  /** @type {Result[]} */
  const results = [];
  /** @param {unknown} node @param {JsonPath} path */
  const walk = (node, path) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, [...path, i]));
    if (!node || typeof node !== 'object') return;
    const props = /** @type {Node} */ (node).properties;
    if (props && typeof props === 'object') {
      for (const [name, prop] of Object.entries(props)) {
        if (!prop || typeof prop !== 'object' || prop.$ref) continue;
        const want = /_at$/.test(name)
          ? 'date-time'
          : /_on$/.test(name) || (name === 'as_of' && path.includes('returns'))
            ? 'date'
            : null;
        if (want && prop.format !== want)
          results.push({
            message: `${name} must be a ${want === 'date' ? 'date (YYYY-MM-DD)' : 'timestamp (date-time)'}.`,
            path: [...path, 'properties', name],
          });
      }
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'examples' && k !== 'example') walk(v, [...path, k]);
  };
  walk(doc.components?.schemas ?? {}, ['components', 'schemas']);
  for (const { path, method, op } of eachOperation(doc)) {
    for (const [i, p] of (op.parameters ?? []).entries()) {
      const want = p.name === 'announced_since' ? 'date' : p.name === 'since' ? 'date-time' : null;
      if (want && p.schema?.format !== want)
        results.push({
          message: `Parameter ${p.name} must be format ${want}.`,
          path: ['paths', path, method, 'parameters', i],
        });
    }
  }
  return results;
});

const STATISTICS = ['rounds-by-year', 'rounds-by-stage', 'most-active-investors', 'fund-returns-by-vintage'];

export const statisticNames = createRulesetFunction({ input: null, options: null }, (/** @type {Node} */ doc) => {
  const op = doc.paths?.['/api/v1/statistics/{name}']?.get;
  if (!op) return [];
  const index = (op.parameters ?? []).findIndex((/** @type {Node} */ p) => p.in === 'path' && p.name === 'name');
  const values = index === -1 ? undefined : op.parameters[index].schema?.enum;
  const same =
    Array.isArray(values) && values.length === STATISTICS.length && STATISTICS.every((s) => values.includes(s));
  return same
    ? []
    : [
        {
          message: `The statistics name must be limited to ${STATISTICS.join(', ')}.`,
          path: ['paths', '/api/v1/statistics/{name}', 'get', 'parameters', Math.max(index, 0)],
        },
      ];
});

/** The headings of the DECISIONS.md beside a linted file, or null when there is none to read. */
/** @param {string | null | undefined} source @returns {Promise<string[] | null>} */
async function decisionsBeside(source) {
  if (!source || !/^(\/|[A-Za-z]:[\\/])/.test(source)) return null;
  try {
    // Imported late: the ruleset also loads where there is no file system (and then skips this).
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(source.replace(/[^\\/]+$/, 'DECISIONS.md'), 'utf8');
    return [...text.matchAll(/^## (.+)$/gm)].map((m) => /** @type {string} */ (m[1]));
  } catch {
    return null;
  }
}

/**
 * x-assumed must name a heading of DECISIONS.md: `DECISIONS.md#<anchor>`. The headings come from
 * the rule's options, or from the DECISIONS.md beside the linted file; with neither, only the form
 * of each marker is checked.
 */
export const assumedMarkers = createRulesetFunction(
  {
    input: null,
    options: {
      type: ['object', 'null'],
      properties: { headings: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    },
  },
  async (/** @type {Node} */ doc, /** @type {{ headings?: string[] } | null} */ options, context) => {
    const known = options?.headings ?? (await decisionsBeside(context.document.source));
    const anchors = known ? new Set(known.map(anchorOf)) : null;
    /** @type {Result[]} */
    const results = [];
    /** @param {unknown} node @param {JsonPath} path */
    const walk = (node, path) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, [...path, i]));
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k !== 'x-assumed') {
          walk(v, [...path, k]);
          continue;
        }
        for (const marker of Array.isArray(v) ? v : [v]) {
          const m = typeof marker === 'string' ? /^DECISIONS\.md#([a-z0-9-]+)$/.exec(marker) : null;
          if (!m)
            results.push({
              message: `x-assumed must read DECISIONS.md#<heading>, got ${JSON.stringify(marker)}.`,
              path: [...path, k],
            });
          else if (anchors && !anchors.has(/** @type {string} */ (m[1])))
            results.push({
              message: `x-assumed points at #${m[1]}, which is no heading of DECISIONS.md.`,
              path: [...path, k],
            });
        }
      }
    };
    walk(doc, []);
    return results;
  },
);

/** GitHub's anchor for a Markdown heading. @param {string} heading */
export function anchorOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}
