/**
 * A transport for the control client that holds every call to the control API's OpenAPI document
 * with prism-http (the validator the contract's tests use, pointed at this document): the call
 * must be an operation of the document, its request valid for it, and its answer a documented
 * status with a valid body. What does not hold is written down for the test to assert none.
 */
import { createContractValidator, parseBody, type ContractValidator } from '@investor-graph/contract';
import { controlDocument } from './document.ts';
import type { ControlFetch } from './client.ts';

export const controlValidator: ContractValidator = await createContractValidator(controlDocument);

/** The document's operations as method, path pattern and operationId. */
const routes = Object.entries(controlDocument.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, op]) => ({
    method: method.toUpperCase(),
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    operationId: (op as { operationId: string }).operationId,
  })),
);

/** The operationId the document gives `METHOD path`, or undefined when it describes no such call. */
export function controlOperation(method: string, path: string): string | undefined {
  return routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path))?.operationId;
}

const headerRecord = (headers: Headers): Record<string, string> => Object.fromEntries(headers);

/**
 * `transport`, with each exchange held to the document: a call it does not describe throws (the
 * test fails at once), a request or an answer off the document adds a line to `findings`.
 */
export function validatingFetch(transport: ControlFetch, findings: string[]): ControlFetch {
  return async (url, init) => {
    const target = new URL(url);
    const method = init.method ?? 'GET';
    const operationId = controlOperation(method, target.pathname);
    if (!operationId)
      throw new Error(`${method} ${target.pathname} is no operation of the control API's OpenAPI document`);
    const headers = headerRecord(new Headers(init.headers));
    const sent = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const query: Record<string, string> = Object.fromEntries(target.searchParams);
    const request = { method, path: target.pathname, query, headers, ...(sent === undefined ? {} : { body: sent }) };
    const said = (side: string, v: { path: string; message: string }): string =>
      `${method} ${target.pathname} ${side} ${v.path}: ${v.message}`;
    findings.push(...controlValidator.validateRequest(operationId, request).map((v) => said('request', v)));
    const response = await transport(url, init);
    const text = await response.clone().text();
    const answer = {
      status: response.status,
      headers: headerRecord(response.headers),
      body: parseBody(text, response.headers.get('content-type')),
    };
    findings.push(...controlValidator.validateResponse(operationId, answer).map((v) => said('answer', v)));
    return response;
  };
}
