// @ts-check
/** What the ruleset's functions read of an OpenAPI document: its operations and its schemas. */

/** @typedef {Record<string, any>} Node */
/** @typedef {import('@stoplight/spectral-core').IFunctionResult} Result */
/** @typedef {(string | number)[]} JsonPath */

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** @param {Node} doc @returns {Generator<{ path: string, method: string, op: Node }>} */
export function* eachOperation(doc) {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) if (item?.[method]) yield { path, method, op: item[method] };
  }
}

/** @param {Node} doc @param {Node} op */
export function isSecured(doc, op) {
  const security = op.security ?? doc.security ?? [];
  return Array.isArray(security) && security.length > 0;
}

/** @param {Node} doc @param {Node} op */
export function usesBearer(doc, op) {
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
export function isDataGet(doc, method, op) {
  return method === 'get' && isSecured(doc, op) && !!op.responses?.['200']?.content?.['application/json'];
}

/** @param {Node} schema @returns {Node} properties merged through allOf */
export function propertiesOf(schema) {
  if (!schema || typeof schema !== 'object') return {};
  return Object.assign({}, ...(schema.allOf ?? []).map(propertiesOf), schema.properties ?? {});
}

/** @param {Node} schema @returns {string[]} */
export function requiredOf(schema) {
  if (!schema || typeof schema !== 'object') return [];
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap(requiredOf)];
}

/** @param {unknown} type @param {string} want */
export const hasType = (type, want) => (Array.isArray(type) ? type.includes(want) : type === want);
