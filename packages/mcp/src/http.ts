/**
 * The Streamable HTTP transport on loopback: one MCP session (and one server, with its own key) per
 * client, as the SDK's stateful mode keeps them. The endpoint holds a key and may drive the mock's
 * control plane, so it is guarded as /__control is against what loopback alone does not stop:
 * a Host that is no loopback name (DNS rebinding) and a browser page of another origin.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostName, isLoopbackName } from '@investor-graph/engine/adapter';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** The path the endpoint answers on, as the SDK's examples and the common clients expect it. */
export const MCP_PATH = '/mcp';

export interface HttpEndpoint {
  url: string;
  server: HttpServer;
  close(): Promise<void>;
}

/** Why a request may not use the endpoint, or null when it may. */
function refusal(request: IncomingMessage, port: number): string | null {
  const name = hostName(request.headers.host ?? null);
  if (name === null || !isLoopbackName(name)) return 'the Host is no loopback name of this endpoint';
  const origin = request.headers.origin;
  if (origin !== undefined && !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin))
    return `calls from the origin ${origin.slice(0, 100)} are refused`;
  if (origin !== undefined && !origin.endsWith(`:${port}`)) return 'calls from another loopback origin are refused';
  return null;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `[investor-graph mcp] ${message}` }, id: null }),
  );
}

/** Serves MCP over Streamable HTTP on `host:port` (loopback), a server made by `newServer` per session. */
export async function serveHttp(newServer: () => Server, port: number, host: string): Promise<HttpEndpoint> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let bound = port;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) return refuse(response, 404, `MCP is at ${MCP_PATH}`);
    const refused = refusal(request, bound);
    if (refused) return refuse(response, 403, refused);
    const id = request.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string' && !known) return refuse(response, 404, 'no such session: initialize again');
    void (async () => {
      let transport = known;
      if (!transport) {
        const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, fresh),
        });
        fresh.onclose = () => void (fresh.sessionId && sessions.delete(fresh.sessionId));
        await newServer().connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(request, response);
    })().catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 500, (error as Error).message);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  bound = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${bound}${MCP_PATH}`,
    server,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
