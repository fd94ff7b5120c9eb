/**
 * One MCP server for one agent's session: the API's tools (one per operation of the contract), the
 * control tools when a control client is given, and the resources. Built on the SDK's low-level
 * `Server`, since the tools' schemas are the contract's JSON Schemas rather than zod's.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ControlClient } from '@investor-graph/engine/control';
import { apiTools } from './api-tools.ts';
import { callApi, kitError, type ApiTarget } from './call-api.ts';
import { callControl, controlTools } from './control-tools.ts';
import { kitResources } from './resources.ts';
import { newSession, type Secrets } from './session.ts';

export interface McpServerOptions {
  target: ApiTarget;
  /** The key the session starts with (INVESTOR_GRAPH_KEY); none: the agent meets 401 and its actions. */
  key?: string;
  secrets: Secrets;
  /** The mock's control API: its tools are offered only with it. */
  control?: ControlClient;
  /** Where a line about each call goes (stderr in the CLI: stdout is the protocol's); redacted first. */
  log?: (line: string) => void;
  version: string;
}

const instructions =
  'The Investor Graph API as tools. Without a key, a call answers 401 with actions: call get_trial_key ' +
  '(an e-mail address, no browser, no card) and the server holds the key for the calls that follow. Lists ' +
  "page: pass a result's next_cursor as cursor. A 402 or 429 carries actions for a person or a plan.";

/** A new server with its own session (its key), for one transport. */
export function createMcpServer(options: McpServerOptions): Server {
  const { secrets, control } = options;
  const session = newSession(options.key);
  const server = new Server(
    { name: 'investor-graph-mcp', version: options.version },
    { capabilities: { tools: {}, resources: {} }, instructions },
  );
  const tools: Tool[] = [
    ...apiTools.map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    })),
    ...(control ? controlTools.map(({ run: _run, ...tool }) => tool) : []),
  ];
  const resources = kitResources(control !== undefined);
  const log = (line: string): void => options.log?.(secrets.text(line));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const api = apiTools.find((t) => t.name === name);
    const controlTool = control && controlTools.find((t) => t.name === name);
    const result = api
      ? await callApi(api, args, options.target, session, secrets)
      : controlTool
        ? await callControl(controlTool, args, control, session, secrets)
        : kitError(secrets, `no tool ${name}: tools/list names them`);
    log(`[investor-graph mcp] ${name}: ${result.isError ? 'error' : 'ok'} ${JSON.stringify(args)}`);
    return result;
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.map(({ read: _read, ...resource }) => resource),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const resource = resources.find((r) => r.uri === request.params.uri);
    if (!resource) throw new Error(`[investor-graph mcp] no resource ${request.params.uri}`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.read() }] };
  });
  return server;
}
