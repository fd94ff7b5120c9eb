// @ts-check
/** No people in the API: field names and schemas that hold a person's data. */
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachOperation } from './document.js';
import {
  isPersonFieldName,
  isPersonSchema,
  personFieldNames,
  personNamePairs,
  personNameWords,
} from '@investor-graph/contract/people';

/** @import { Node, Result, JsonPath } from './document.js' */

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
