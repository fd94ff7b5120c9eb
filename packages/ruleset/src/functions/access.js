// @ts-check
/** Keys and refusals: actions on errors, Retry-After on 429, bearer security, the trial call. */
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachOperation, isSecured, usesBearer, propertiesOf, requiredOf, hasType } from './document.js';

/** @import { Node, Result } from './document.js' */

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
