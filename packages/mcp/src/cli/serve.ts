/**
 * `investor-graph-mcp [--base-url URL | --data DIR] [--http [--port N]]`: reads the flags and the
 * environment (the key is never a flag: a command line is shown by ps and /proc), starts, and
 * serves over stdio (stdout is the protocol's: every line of its own goes to stderr) or HTTP.
 */
import { exitCode, exitCodesHelp, packageOf, readFlags } from '@investor-graph/cli';
import { isPlanId, planIds, type PlanId } from '@investor-graph/contract';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveHttp } from '../http.ts';
import { start } from '../start.ts';

const usage = `usage: investor-graph-mcp [options]
  The Investor Graph API as MCP tools (one per operation of its contract), over stdio by default.
  --base-url URL      a service's origin, without /api/v1 (default: a mock started in this process,
                      whose control plane is offered as tools too)
  --data DIR          the started mock's dataset folder (the embedded dataset by default)
  --key-plan PLAN     the plan the started mock gives INVESTOR_GRAPH_KEY (team); one of ${planIds.join(', ')}
  --control           --base-url is a mock: offer its control plane as tools (on loopback, or with
                      INVESTOR_GRAPH_MOCK_ADMIN_TOKEN)
  --http              serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --port N            the HTTP port (0, a free one, by default)
  --host H            the HTTP address, a loopback one (127.0.0.1)
  --log               a line a call on stderr, keys blanked
environment:
  INVESTOR_GRAPH_KEY  the key calls start with (none: the agent meets 401 and can call get_trial_key)
  INVESTOR_GRAPH_MOCK_ADMIN_TOKEN  the admin token of a mock given with --base-url --control
${exitCodesHelp('investor-graph-mcp')}`;

const flags = readFlags('investor-graph-mcp', usage, process.argv.slice(2), {
  'base-url': { type: 'string' },
  data: { type: 'string' },
  'key-plan': { type: 'string' },
  control: { type: 'boolean' },
  http: { type: 'boolean' },
  port: { type: 'string', default: '0' },
  host: { type: 'string', default: '127.0.0.1' },
  log: { type: 'boolean' },
  help: { type: 'boolean' },
});
const { values, fail } = flags;
const baseUrl = values['base-url'];
if (baseUrl !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(baseUrl))
  fail(`--base-url takes a service's origin such as http://127.0.0.1:4010 (the kit adds /api/v1), got ${baseUrl}`);
if (baseUrl !== undefined && values.data !== undefined) fail('give --base-url or --data, not both');
if (values.control && baseUrl === undefined)
  fail('--control goes with --base-url (a started mock has its control tools)');
if (values['key-plan'] !== undefined && !isPlanId(values['key-plan']))
  fail(`--key-plan takes one of ${planIds.join(', ')}, got ${values['key-plan']}`);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, got ${values.port}`);
if (!['127.0.0.1', '::1', 'localhost'].includes(values.host))
  fail(`--host takes a loopback address (the endpoint holds a key and drives the control plane), got ${values.host}`);

const say = (line: string): void => void process.stderr.write(`${line}\n`);
let started;
try {
  started = await start({
    version: packageOf(import.meta.filename).version,
    ...(baseUrl ? { baseUrl: baseUrl.replace(/\/$/, '') } : {}),
    ...(values.data ? { data: values.data } : {}),
    ...(process.env.INVESTOR_GRAPH_KEY ? { key: process.env.INVESTOR_GRAPH_KEY } : {}),
    ...(values['key-plan'] ? { keyPlan: values['key-plan'] as PlanId } : {}),
    ...(values.control ? { control: true } : {}),
    ...(process.env.INVESTOR_GRAPH_MOCK_ADMIN_TOKEN ? { adminToken: process.env.INVESTOR_GRAPH_MOCK_ADMIN_TOKEN } : {}),
    ...(values.log ? { log: say } : {}),
  });
} catch (error) {
  say(`[investor-graph-mcp] could not start the mock: ${(error as Error).message}`);
  process.exit(exitCode.setup);
}
const { newServer, secrets } = started;
const against = started.mock ? `a mock in this process at ${started.baseUrl}` : started.baseUrl;

const stop = (): void => void started.close().then(() => process.exit(exitCode.held));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
if (values.http) {
  let endpoint;
  try {
    endpoint = await serveHttp(newServer, port, values.host);
  } catch (error) {
    say(
      `[investor-graph-mcp] ${
        (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${port} is in use` : (error as Error).message
      }`,
    );
    await started.close();
    process.exit(exitCode.setup);
  }
  say(secrets.text(`[investor-graph-mcp] Streamable HTTP on ${endpoint.url}, against ${against}`));
} else {
  const transport = new StdioServerTransport();
  // The client closing stdin ends the session, and the process with it.
  transport.onclose = stop;
  process.stdin.on('end', stop);
  await newServer().connect(transport);
  say(secrets.text(`[investor-graph-mcp] on stdio, against ${against}`));
}
