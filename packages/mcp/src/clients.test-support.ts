/**
 * What the tests of investor-graph-mcp share: the real bin started as a client starts it, over stdio
 * (the SDK's StdioClientTransport spawns it) or Streamable HTTP (spawned with --http on a free
 * loopback port, the SDK's StreamableHTTPClientTransport connecting to the URL it prints), and
 * every byte it wrote or answered kept for the key scan.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type TransportName = 'stdio' | 'http';

const bin = fileURLToPath(new URL('./cli/main.ts', import.meta.url));

export interface McpUnderTest {
  client: Client;
  /** Calls a tool, keeping its result for the scan. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: any }>;
  /** Everything seen: the process's stderr and every result, as text. */
  seen(): string;
  close(): Promise<void>;
}

/** The environment of the bin: this one's, with the key the test gives (or none). */
function envOf(key: string | undefined): Record<string, string> {
  const { INVESTOR_GRAPH_KEY: _, ...rest } = process.env;
  return { ...(rest as Record<string, string>), ...(key ? { INVESTOR_GRAPH_KEY: key } : {}) };
}

/** The bin with --http, until it prints where it listens. */
async function httpProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; err: () => string }> {
  const child = spawn(process.execPath, [bin, '--http', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += String(d);
      const at = /Streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (at) resolve(at[1]!);
    });
    child.once('exit', (code) => reject(new Error(`investor-graph-mcp exited ${code}:\n${err}`)));
  });
  child.stdout.on('data', (d: Buffer) => (err += String(d)));
  return { child, url, err: () => err };
}

/** investor-graph-mcp started with `args` over `transport`, connected with the SDK's own client. */
export async function startMcp(transport: TransportName, args: string[] = [], key?: string): Promise<McpUnderTest> {
  const env = envOf(key);
  const client = new Client({ name: 'investor-graph-mcp-test', version: '0.0.0' });
  const kept: string[] = [];
  let err: () => string;
  let child: ChildProcess | undefined;
  if (transport === 'stdio') {
    const stdio = new StdioClientTransport({ command: process.execPath, args: [bin, ...args], env, stderr: 'pipe' });
    let text = '';
    stdio.stderr!.on('data', (d: Buffer) => (text += String(d)));
    err = () => text;
    await client.connect(stdio);
  } else {
    const started = await httpProcess(args, env);
    child = started.child;
    err = started.err;
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
  }
  return {
    client,
    async call(name, callArgs = {}) {
      const result = (await client.callTool({ name, arguments: callArgs })) as CallToolResult;
      kept.push(JSON.stringify(result));
      return result;
    },
    seen: () => [err(), ...kept].join('\n'),
    async close() {
      await client.close();
      if (child && child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
    },
  };
}

/**
 * Where `text` holds `key`: raw, base64, base64url or hex (at any of base64's three alignments, so
 * a key inside a longer encoded run is found too); null when nowhere.
 */
export function keyLeak(text: string, key: string): string | null {
  const bytes = Buffer.from(key);
  if (text.includes(key)) return 'raw';
  if (text.toLowerCase().includes(bytes.toString('hex'))) return 'hex';
  if (text.includes(encodeURIComponent(key)) && encodeURIComponent(key) !== key) return 'percent-encoded';
  for (const shift of [0, 1, 2]) {
    const padded = Buffer.concat([Buffer.alloc(shift, 0x20), bytes]);
    // The characters that mix in a neighbour's bits (first, when shifted; last, always) are left out.
    const cut = (encoded: string) => encoded.replace(/=+$/, '').slice(shift ? 4 : 0, -4);
    if (text.includes(cut(padded.toString('base64')))) return 'base64';
    if (text.includes(cut(padded.toString('base64url')))) return 'base64url';
  }
  return null;
}
