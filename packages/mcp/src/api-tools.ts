/**
 * The API's operations as MCP tools, one per operation of the contract: the name from its
 * operationId, the description from its summary and description, the inputSchema from its path and
 * query parameters (and a JSON body's members), read-only as the contract's method says.
 */
import { openapiDocument, operations, type OperationInfo } from '@investor-graph/contract';
import { asText, parametersSchema, snakeCase, type InputSchema } from './schema.ts';

/**
 * Tool names that are not the operationId's snake case: the trial key's operation is named after
 * the action type that points at it (`get_trial_key` in every 401's `actions`), so that an agent
 * holding an action calls the tool of the same name.
 */
const actionNamed: Readonly<Record<string, string>> = { createTrialKey: 'get_trial_key' };

export interface ApiTool {
  name: string;
  title: string;
  description: string;
  inputSchema: InputSchema;
  annotations: { title: string; readOnlyHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  operation: OperationInfo;
}

/** The JSON body schema an operation takes, if any. */
function bodySchema(operation: OperationInfo): Record<string, unknown> | undefined {
  const item = openapiDocument.paths[operation.path]![operation.method.toLowerCase()] as Record<string, unknown>;
  const body = item.requestBody as { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined;
  return body?.content?.['application/json']?.schema;
}

/** The description the contract gives, and what the tool adds to it for an agent. */
function describe(operation: OperationInfo, summary: string, text: string | undefined): string {
  const lines = [summary, ...(text ? [text.trim()] : [])];
  if (operation.query.includes('cursor'))
    lines.push("Pages: pass the result's next_cursor as cursor, with the other arguments unchanged.");
  if (operation.operationId === 'createTrialKey')
    lines.push('The key is held by this server for the calls that follow; it is never shown.');
  else if (operation.security) lines.push("Uses the server's key (INVESTOR_GRAPH_KEY, or one get_trial_key issued).");
  return lines.join('\n\n');
}

/** Every operation of the contract as a tool, in the contract's order. */
export const apiTools: readonly ApiTool[] = operations.map((operation) => {
  const item = openapiDocument.paths[operation.path]![operation.method.toLowerCase()] as Record<string, unknown>;
  const summary = asText(item.summary ?? operation.operationId);
  const readOnly = operation.method === 'GET';
  return {
    name: actionNamed[operation.operationId] ?? snakeCase(operation.operationId),
    title: summary,
    description: describe(operation, summary, item.description as string | undefined),
    inputSchema: parametersSchema(openapiDocument, operation.parameters, bodySchema(operation)),
    annotations: { title: summary, readOnlyHint: readOnly, idempotentHint: readOnly, openWorldHint: true },
    operation,
  };
});

/** The tool an action of a problem names, when one of these tools does what it asks. */
export function toolOfAction(type: string): string | undefined {
  return apiTools.find((t) => t.name === type)?.name;
}
