/**
 * prism-http's own input and output validators over the contract. The mock validates every request
 * with it, and the tests check every response with it, so the contract is enforced by the same
 * code Prism runs, not by a second reading of the schema.
 */
import type prismValidatorModule from '@stoplight/prism-http/dist/validator/index.js';
import type { IHttpOperation } from '@stoplight/types';
import { openapiDocument } from './document.ts';

export interface Violation {
  /** Where: `body.data.0.slug`, `query.limit`, `header.retry-after`... */
  path: string;
  message: string;
  severity: 'error' | 'warning';
  code?: string | number;
}

export interface HttpRequestLike {
  method: string;
  path: string;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface HttpResponseLike {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ContractValidator {
  readonly operations: readonly IHttpOperation[];
  /** prism-http's validateInput for one operation: parameters, path formats, body. */
  validateRequest(operationId: string, request: HttpRequestLike): Violation[];
  /** prism-http's validateOutput for one operation: status documented, media type, body and headers. */
  validateResponse(operationId: string, response: HttpResponseLike): Violation[];
}

const severityName = ['error', 'warning', 'warning', 'warning'] as const;

function toViolations(
  diagnostics: readonly { path?: string[]; message: string; severity: number; code?: string | number }[],
): Violation[] {
  return diagnostics.map((d) => ({
    path: (d.path ?? []).join('.'),
    message: d.message,
    severity: severityName[d.severity] ?? 'warning',
    ...(d.code === undefined ? {} : { code: d.code }),
  }));
}

function lowerKeys(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/**
 * The kit's own contract as prism-http reads it, read once a process, from the file `pnpm generate`
 * wrote with prism-http's own reader (`generated/operations.json`, kept in step by the contract's
 * test). Reading the document here took ~190 ms and loading the reader ~150 more (http-spec brings
 * its Postman converter along): a third of a mock's start, paid by every mock, every contract-tests
 * run and every test worker. Another document (the browser's dereferenced copy, a user's own) is
 * read as before.
 */
let ownOperations: Promise<IHttpOperation[]> | undefined;

function operationsOf(document: object): Promise<IHttpOperation[]> {
  if (document === openapiDocument) return (ownOperations ??= import('./own-operations.ts').then((m) => m.read()));
  return import('@stoplight/prism-http/dist/utils/operations.js').then((prism) =>
    prism.default.getHttpOperationsFromSpec(structuredClone(document)),
  );
}

/**
 * prism-http's validator, loaded by the first validator built, not with the package: most of what
 * imports the contract (its plans, its router, a command's --help) never validates, and loading it
 * takes ~160 ms. The validator alone, not the package index: the index also loads the mocker and its
 * JSON Schema faker, which made up ~300 ms of the mock's start-up (BENCHMARKS.md).
 */
let prism: Promise<typeof prismValidatorModule> | undefined;
const loadPrism = () => (prism ??= import('@stoplight/prism-http/dist/validator/index.js').then((m) => m.default));

/** Builds the validator once; building costs ~100 ms, validating a call well under a millisecond. */
export async function createContractValidator(document: object = openapiDocument): Promise<ContractValidator> {
  const [operations, prismValidator] = await Promise.all([operationsOf(document), loadPrism()]);
  const byId = new Map(operations.map((o) => [o.iid ?? o.id, o]));
  for (const o of operations) if (o.iid) byId.set(o.iid, o);
  const find = (operationId: string): IHttpOperation => {
    const op = byId.get(operationId);
    if (!op) throw new Error(`[investor-graph] the contract has no operation ${operationId}`);
    return op;
  };
  return {
    operations,
    validateRequest(operationId, request) {
      const headers = lowerKeys(request.headers);
      if (request.body !== undefined && headers['content-length'] === undefined) {
        headers['content-length'] = String(JSON.stringify(request.body).length);
      }
      const resource = find(operationId);
      let result;
      try {
        result = prismValidator.validateInput({
          resource,
          element: {
            method: request.method.toLowerCase() as never,
            url: { path: request.path, query: request.query ?? {} },
            headers,
            body: request.body,
          },
        });
      } catch (error) {
        // prism-http decodes path parameters and throws on a malformed escape such as %ZZ.
        if (error instanceof URIError)
          return [
            { path: 'path', message: `not valid percent-encoding: ${request.path.slice(0, 200)}`, severity: 'error' },
          ];
        throw error;
      }
      return result._tag === 'Left' ? toViolations(result.left) : [];
    },
    validateResponse(operationId, response) {
      const result = prismValidator.validateOutput({
        resource: find(operationId),
        element: { statusCode: response.status, headers: lowerKeys(response.headers), body: response.body },
      });
      return result._tag === 'Left' ? toViolations(result.left) : [];
    },
  };
}
