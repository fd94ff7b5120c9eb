/**
 * The mock's control plane as tools (the clock, keys, the journal and verify, incidents), on a
 * server that started the mock or was pointed at one: each tool is an operation of the control
 * API's own document (its schema from there) and calls the engine's typed control client, so the
 * mock's guard (loopback, or its admin token) applies to each call as to any other.
 */
import {
  ControlError,
  controlDocument,
  VerificationError,
  type ControlClient,
  type JournalFilter,
} from '@investor-graph/engine/control';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { kitError } from './call-api.ts';
import { toolResult } from './api-result.ts';
import { asText, parametersSchema, snakeCase, type InputSchema } from './schema.ts';
import type { Secrets, Session } from './session.ts';

type Args = Record<string, unknown>;
type Run = (client: ControlClient, args: Args, session: Session, secrets: Secrets) => Promise<unknown>;

/** The journal entries a result shows: the newest, a page's worth. */
const JOURNAL_SHOWN = 100;

/** What each control operation that is a tool calls on the client (`notTools` says why the others are none). */
const runs: Readonly<Record<string, Run>> = {
  getState: (c) => c.state(),
  async createKey(c, args, session, secrets) {
    const { key, ...issued } = await c.createKey(args as never);
    secrets.add(key);
    session.key = key;
    return { ...issued, held_by_server: true };
  },
  revokeKey: (c, args) => c.revokeKey(String(args.key_id)),
  topUpKey: (c, args) => c.topUp(String(args.key_id), Number(args.rows)),
  setKeyUsage: (c, args) => c.setUsage(String(args.key_id), Number(args.calls_used)),
  getClock: (c) => c.clock(),
  setClock: (c, args) => c.setClock(args),
  advanceClock: (c, args) => c.advanceClock(args as never),
  rebuild: (c) => c.rebuild(),
  async getJournal(c, args) {
    const { since, ...members } = args;
    const filter = { ...members, ...(since ? { since: Date.parse(asText(since)) } : {}) } as JournalFilter;
    const entries = await c.journal(filter);
    return { entries: entries.slice(-JOURNAL_SHOWN), total: entries.length };
  },
  clearJournal: (c) => c.clearJournal(),
  verifyJournal: (c, args) => c.verify(args.pattern as never, args.count as never),
  createIncident: (c, args) => c.createIncident(args as never),
  listIncidents: async (c) => ({ incidents: await c.incidents() }),
  clearIncidents: (c) => c.clearIncidents(),
  endIncident: (c, args) => c.endIncident(String(args.id)),
};

/**
 * Control operations that are no tool, each with why: what a browser, a resource, a kubelet or a
 * Prometheus scrape reads, not what an agent does.
 */
export const notTools: Readonly<Record<string, string>> = {
  getControlPage: "a browser's page",
  getControlDocument: 'served as a resource',
  getHealthz: "a kubelet's probe",
  getReadyz: "a kubelet's probe",
  getMetrics: "a Prometheus scrape's text",
};

/** Inputs a tool leaves out: a key's text is the server's to make, the journal's pages the client's to read. */
const hidden: Readonly<Record<string, readonly string[]>> = { createKey: ['key'], getJournal: ['limit', 'cursor'] };

export interface ControlTool {
  name: string;
  description: string;
  inputSchema: InputSchema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
  run: Run;
}

function toolOf(method: string, item: Args): ControlTool | undefined {
  const operationId = String(item.operationId);
  if (Object.hasOwn(notTools, operationId)) return undefined;
  const run = runs[operationId];
  // A new operation of the document with neither a run nor a reason fails here, not silently.
  if (!run) throw new Error(`the control document's ${operationId} is neither a tool nor in notTools`);
  const body = (item.requestBody as { content?: Record<string, { schema?: Args }> } | undefined)?.content?.[
    'application/json'
  ]?.schema;
  const schema = parametersSchema(controlDocument, (item.parameters ?? []) as unknown[], body);
  for (const name of hidden[operationId] ?? []) delete schema.properties[name];
  const summary = asText(item.summary ?? operationId);
  const readOnly = method === 'get';
  return {
    name: `control_${snakeCase(operationId)}`,
    description: [`Mock control: ${summary}.`, asText(item.description ?? '').trim()].filter(Boolean).join('\n\n'),
    inputSchema: schema,
    annotations: {
      title: `Mock control: ${summary}`,
      readOnlyHint: readOnly,
      destructiveHint: method === 'delete' || operationId === 'revokeKey',
      idempotentHint: readOnly || method === 'put' || method === 'delete',
    },
    run,
  };
}

/** Every control operation that is a tool, in the document's order. */
export const controlTools: readonly ControlTool[] = Object.values(controlDocument.paths).flatMap((item) =>
  Object.entries(item).flatMap(([method, op]) => toolOf(method, op as Args) ?? []),
);

/** Runs a control tool; a refusal of the control API is an error result with its problem. */
export async function callControl(
  tool: ControlTool,
  args: Args,
  client: ControlClient,
  session: Session,
  secrets: Secrets,
): Promise<CallToolResult> {
  try {
    const answer = (await tool.run(client, args, session, secrets)) as Args;
    return toolResult(secrets, `${tool.annotations.title}: done.`, answer);
  } catch (error) {
    if (error instanceof VerificationError) return toolResult(secrets, error.message, error.verification, true);
    if (error instanceof ControlError)
      return toolResult(
        secrets,
        error.message,
        { status: error.status, code: error.code, detail: error.detail, errors: error.errors },
        true,
      );
    return kitError(secrets, (error as Error).message);
  }
}
