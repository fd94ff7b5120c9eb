/** The contract as a plain object: no file system, so it also loads in a browser bundle. */
import document from './generated/openapi.json' with { type: 'json' };

export interface OperationInfo {
  operationId: string;
  method: 'GET' | 'POST';
  /** The path template as the contract writes it, e.g. /api/v1/firms/{slug}. */
  path: string;
  /** Names of the query parameters the operation defines. */
  query: string[];
  security: boolean;
  assumed: string[];
  /** The operation's parameters with their `$ref`s resolved. */
  parameters: readonly Record<string, unknown>[];
  /** The operation's responses by status, as the document writes them (`$ref`s left in place). */
  responses: Readonly<Record<string, unknown>>;
}

/**
 * The document's shape as far as code reads it. Written out, not `typeof` the JSON, so that the
 * published declarations do not import a JSON file (which needs resolveJsonModule in the user's
 * project).
 */
export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect: string;
  info: Record<string, unknown>;
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<
    'schemas' | 'responses' | 'parameters' | 'examples' | 'headers' | 'securitySchemes',
    Record<string, unknown>
  >;
  [key: string]: unknown;
}

export const openapiDocument = document as unknown as OpenApiDocument;

function resolve(ref: unknown): Record<string, unknown> {
  let node = ref as Record<string, unknown>;
  while (node && typeof node.$ref === 'string') {
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (at, key) => (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        document,
      ) as Record<string, unknown>;
  }
  return node;
}

export { resolve as resolveRef };

function asList(value: unknown): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as string[]) : [value as string];
}

/** Every operation of the contract with what routing and checks need. */
export const operations: readonly OperationInfo[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Record<string, unknown>>).map(([method, op]) => {
    const params = ((op.parameters as unknown[]) ?? []).map(resolve);
    return {
      operationId: op.operationId as string,
      method: method.toUpperCase() as 'GET' | 'POST',
      path,
      query: params.filter((p) => p.in === 'query').map((p) => p.name as string),
      security: !(Array.isArray(op.security) && op.security.length === 0),
      assumed: asList(op['x-assumed']),
      parameters: params,
      responses: (op.responses ?? {}) as Record<string, unknown>,
    };
  }),
);

const byId = new Map(operations.map((o) => [o.operationId, o]));

export function operationById(operationId: string): OperationInfo {
  const found = byId.get(operationId);
  if (!found) throw new Error(`[investor-graph] no operation ${operationId} in the contract`);
  return found;
}

/** The values an operation's parameter may take, in the contract's order; empty when it is no enum. */
export function parameterEnum(operationId: string, name: string): string[] {
  const param = operationById(operationId).parameters.find((p) => p.name === name);
  return [...((resolve(param?.schema) as { enum?: string[] } | undefined)?.enum ?? [])];
}
