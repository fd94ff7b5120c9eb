/**
 * A scripted agent (a fixed policy, no model) in plain JavaScript, as a user's project runs it
 * beside its installed investor-graph-mcp: `node mcp-agent.mjs stdio|http`. The MCP SDK's own
 * client starts the project's bin (node_modules/.bin) with no INVESTOR_GRAPH_KEY (the bin starts
 * its own mock, whose control plane it offers as tools), over stdio, or with `--http --port 0`
 * and the URL it prints. The policy, as packages/mcp/src/agent.test.ts's: a data tool with no key
 * meets 401 and the actions it carries; the agent calls the tool the get_trial_key action names,
 * reads two pages by next_cursor, and calls on (429s waited out by retry_after) until the trial's
 * 402. Each step goes to stderr; the last line on stdout is the path and the 402's actions, as
 * JSON. Exits 1, saying why, when an answer strays from the path.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The tool the 401's actions must name: the way from no key to a key. */
const trialTool = 'get_trial_key';
/** The data tool the agent reads, a small page at a time. */
const dataTool = 'list_companies';

const transport = process.argv[2];
if (transport !== 'stdio' && transport !== 'http') {
  process.stderr.write('usage: node mcp-agent.mjs stdio|http\n');
  process.exit(2);
}
const bin = join(process.cwd(), 'node_modules', '.bin', 'investor-graph-mcp');
// No key: the agent starts where a new user does.
const { INVESTOR_GRAPH_KEY: _, ...env } = process.env;
const say = (line) => process.stderr.write(`[agent ${transport}] ${line}\n`);

/** The server's own stderr, shown when the path breaks. */
let serverOutput = '';
let child;
const client = new Client({ name: 'investor-graph-installed-agent', version: '0.0.0' });

/** Connects the SDK's client to the bin over the transport asked for. */
async function connect() {
  if (transport === 'stdio') {
    const stdio = new StdioClientTransport({ command: bin, args: [], env, stderr: 'pipe' });
    stdio.stderr.on('data', (d) => (serverOutput += d));
    await client.connect(stdio);
    return;
  }
  child = spawn(bin, ['--http', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => (serverOutput += d));
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      serverOutput += d;
      const at = /Streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(serverOutput);
      if (at) resolve(at[1]);
    });
    child.once('exit', (code) => reject(new Error(`investor-graph-mcp --http exited ${code}`)));
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
}

/** Ends the client and the server it started. */
async function close() {
  await client.close();
  if (child && child.exitCode === null) {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
}

/** Stops the run: the path broke here. */
function strayed(why, result) {
  throw new Error(`${why}\n${JSON.stringify(result?.structuredContent ?? result)}`);
}

/** A tool call; a 429 says when to come back (the trial's rate is a few calls a second): the agent waits so long. */
async function call(name, args) {
  for (;;) {
    const result = await client.callTool({ name, arguments: args });
    if (result.structuredContent?.status !== 429) return result;
    const seconds = Number(result.structuredContent.retry_after);
    if (!(seconds >= 0)) strayed('a 429 without retry_after', result);
    say(`429: waiting ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

const steps = [];
const step = (line) => {
  steps.push(line);
  say(line);
};

try {
  await connect();
  const first = await call(dataTool, { limit: 3 });
  const { status, problem, actions } = first.structuredContent ?? {};
  if (!first.isError || status !== 401) strayed('the first call without a key was not a 401', first);
  step(`401 ${problem.code}`);
  // The policy: the action that names the trial key's tool; its body template filled in.
  const action = actions.find((a) => a.tool === trialTool);
  if (!action) strayed(`no action of the 401 names the tool ${trialTool}`, first);
  const email = String(action.body.email).replace('{email}', `installed-agent-${transport}@example.com`);
  const trial = await call(action.tool, { email });
  if (trial.isError || trial.structuredContent.status !== 201) strayed(`${action.tool} issued no key`, trial);
  step(`${action.tool} ${trial.structuredContent.status} ${trial.structuredContent.plan}`);

  const page1 = await call(dataTool, { limit: 3 });
  if (page1.isError || !page1.structuredContent.next_cursor) strayed('the first page has no next_cursor', page1);
  const page2 = await call(dataTool, { limit: 3, cursor: page1.structuredContent.next_cursor });
  if (page2.isError) strayed('the second page was refused', page2);
  if (JSON.stringify(page2.structuredContent.data[0]) === JSON.stringify(page1.structuredContent.data[0]))
    strayed('the second page starts where the first did', page2);
  step(`pages ${page1.structuredContent.data.length}+${page2.structuredContent.data.length}`);

  // The harness (not the agent) spends the trial through the mock's control plane, as agent.test.ts does.
  const spend = await call('control_set_key_usage', { key_id: trial.structuredContent.key_id, calls_used: 1000 });
  if (spend.isError) strayed('control_set_key_usage failed', spend);
  // The agent calls on until the API says no more.
  let cursor = page2.structuredContent.next_cursor;
  let spent;
  for (let calls = 0; !spent; calls++) {
    if (calls === 10) strayed('ten calls after the trial was spent and no 402');
    const result = await call(dataTool, { limit: 3, ...(cursor ? { cursor } : {}) });
    if (result.structuredContent?.status === 402) spent = result;
    else if (result.isError) strayed('a refusal that is not the 402', result);
    else cursor = result.structuredContent.next_cursor;
  }
  step(`402 ${spent.structuredContent.problem.code}`);
  const answer = {
    transport,
    steps,
    status: spent.structuredContent.status,
    code: spent.structuredContent.problem.code,
    actions: spent.structuredContent.actions,
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
} catch (error) {
  say(`the path broke: ${error.message}`);
  say(`investor-graph-mcp said:\n${serverOutput}`);
  process.exitCode = 1;
} finally {
  await close();
}
