/**
 * `@investor-graph/mcp`: the Investor Graph API as MCP tools generated from its contract, and the
 * mock's control plane as tools. The `investor-graph-mcp` command serves them over stdio or
 * Streamable HTTP; these are its parts, for a server built in code.
 * @example
 * const { newServer } = await start({ version: '0.1.0' }); // a mock in this process
 * await newServer().connect(new StdioServerTransport());
 */
export { apiTools, toolOfAction, type ApiTool } from './api-tools.ts';
export { controlTools, type ControlTool } from './control-tools.ts';
export { createMcpServer, type McpServerOptions } from './server.ts';
export { kitResources, type KitResource } from './resources.ts';
export { serveHttp, MCP_PATH, type HttpEndpoint } from './http.ts';
export { Secrets, type Session } from './session.ts';
export { start, type StartOptions, type Started } from './start.ts';
