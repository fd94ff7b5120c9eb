// @ts-check
/** Values the contract fixes: date formats and the statistics' names. */
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachOperation } from './document.js';

/** @import { Node, Result, JsonPath } from './document.js' */

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
