// @ts-check
/** The shapes every data answer shares: paths under /api/v1, the envelope, list paging, row fields. */
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachOperation, isDataGet, propertiesOf, requiredOf, hasType } from './document.js';

/** @import { Node, Result } from './document.js' */

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
