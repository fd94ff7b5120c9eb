/** A call of one API tool: the request its operation makes from the arguments, and its answer as a result. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiTool } from './api-tools.ts';
import { envelopeResult, fileResult, issuedResult, otherResult, problemResult, toolResult } from './api-result.ts';
import { asText } from './schema.ts';
import type { Secrets, Session } from './session.ts';

export interface ApiTarget {
  /** The service's origin, without /api/v1: the kit adds the contract's paths. */
  baseUrl: string;
  fetch?: typeof fetch;
}

/** The kit's own failure, told apart from the API's answers by its prefix. */
export function kitError(secrets: Secrets, message: string): CallToolResult {
  return toolResult(secrets, `[investor-graph mcp] ${message}`, { error: message }, true);
}

/** The request an operation makes from a tool's arguments; a message when an argument is missing. */
function requestOf(
  tool: ApiTool,
  args: Record<string, unknown>,
  target: ApiTarget,
  session: Session,
): Request | string {
  const { operation } = tool;
  const missing = (tool.inputSchema.required ?? []).find((name) => args[name] === undefined);
  if (missing) return `${tool.name} needs the argument ${missing}`;
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(asText(args[name])));
  const url = new URL(`${target.baseUrl.replace(/\/+$/, '')}${path}`);
  for (const name of operation.query) if (args[name] !== undefined) url.searchParams.set(name, asText(args[name]));
  const headers = new Headers({ accept: 'application/json' });
  if (operation.security && session.key) headers.set('authorization', `Bearer ${session.key}`);
  if (operation.method === 'GET') return new Request(url, { headers });
  // The body holds the arguments that are no parameter of the path or query.
  const inParams = new Set(operation.parameters.map((p) => p.name as string));
  const body = Object.fromEntries(Object.entries(args).filter(([name]) => !inParams.has(name)));
  headers.set('content-type', 'application/json');
  return new Request(url, { method: operation.method, headers, body: JSON.stringify(body) });
}

/** Calls the operation of `tool` with `args`, with the session's key, and answers as the agent needs it. */
export async function callApi(
  tool: ApiTool,
  args: Record<string, unknown>,
  target: ApiTarget,
  session: Session,
  secrets: Secrets,
): Promise<CallToolResult> {
  const request = requestOf(tool, args, target, session);
  if (typeof request === 'string') return kitError(secrets, request);
  let response: Response;
  try {
    response = await (target.fetch ?? fetch)(request);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return kitError(secrets, `cannot reach the API at ${target.baseUrl} (${cause}): is it running there?`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (/gzip/.test(type) && response.ok)
    return fileResult(secrets, session, response, new Uint8Array(await response.arrayBuffer()));
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a gateway's page): the problem result says what came instead.
  }
  if (!response.ok) return problemResult(secrets, response, body, text);
  const json = (body ?? {}) as Record<string, unknown>;
  if (tool.operation.operationId === 'createTrialKey' && typeof json.key === 'string')
    return issuedResult(secrets, session, response, json);
  if ('data' in json && 'as_of' in json) return envelopeResult(secrets, session, response, json);
  return otherResult(secrets, response, body);
}
