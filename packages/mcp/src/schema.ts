/**
 * JSON Schemas for tool inputs, taken from an OpenAPI 3.1 document: every `$ref` inlined (a tool's
 * inputSchema stands alone), and the document's own `x-` members and examples left out, which no
 * JSON Schema validator of a client knows.
 */

/** What a `$ref` names inside `document`. */
export function refTarget(document: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (at, key) => (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      document,
    );
}

/** `schema` with its `$ref`s inlined from `document` and its OpenAPI-only members dropped. */
export function inlineSchema(document: unknown, schema: unknown, depth = 0): unknown {
  // The contracts' schemas are no deeper than this; a cycle would otherwise never end.
  if (depth > 32) throw new Error('[investor-graph mcp] a schema nests deeper than 32 levels (a $ref cycle?)');
  if (Array.isArray(schema)) return schema.map((item) => inlineSchema(document, item, depth + 1));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string') {
    const { $ref, ...siblings } = node;
    const target = inlineSchema(document, refTarget(document, $ref), depth + 1) as Record<string, unknown>;
    return { ...target, ...(inlineSchema(document, siblings, depth + 1) as Record<string, unknown>) };
  }
  return Object.fromEntries(
    Object.entries(node)
      .filter(([name]) => !name.startsWith('x-') && name !== 'example' && name !== 'examples')
      .map(([name, value]) => [name, inlineSchema(document, value, depth + 1)]),
  );
}

/** A tool's inputSchema: an object of the given properties, closed. */
export interface InputSchema {
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
  additionalProperties: false;
  [key: string]: unknown;
}

/** An operation's path and query parameters (headers are the server's business) as one input schema. */
export function parametersSchema(
  document: unknown,
  parameters: readonly unknown[],
  body?: Record<string, unknown>,
): InputSchema {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const raw of parameters) {
    const p = inlineSchema(document, raw) as Record<string, unknown>;
    if (p.in !== 'path' && p.in !== 'query') continue;
    const name = p.name as string;
    properties[name] = {
      ...(p.schema as Record<string, unknown>),
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
    };
    if (p.required === true) required.push(name);
  }
  // A JSON body's members sit beside the parameters (the contracts name none twice).
  const inlinedBody = body ? (inlineSchema(document, body) as Record<string, unknown>) : undefined;
  // A body of alternatives (seconds or a duration) offers each one's members, none of them required.
  const shapes = [inlinedBody, ...((inlinedBody?.oneOf ?? []) as Record<string, unknown>[])];
  for (const shape of shapes)
    for (const [name, schema] of Object.entries((shape?.properties ?? {}) as Record<string, object>))
      properties[name] = schema;
  required.push(...((inlinedBody?.required as string[] | undefined) ?? []));
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** A value of a document or an argument as text: a string as it is, anything else as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/** `listFirmPortfolio` as `list_firm_portfolio`. */
export function snakeCase(operationId: string): string {
  return operationId.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}
