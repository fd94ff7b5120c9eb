/**
 * An answer of the API as a tool result: an envelope's rows (bounded to the plan's page size),
 * next_cursor, as_of, plan and usage; a problem with its `actions`, each naming the tool that does
 * it when one does; a trial key held by the server, never shown.
 */
import { gunzipSync } from 'node:zlib';
import { defaultLimit } from '@investor-graph/contract';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolOfAction } from './api-tools.ts';
import { asText } from './schema.ts';
import type { Secrets, Session } from './session.ts';

type Json = Record<string, unknown>;

/** The members that are what the API served (rows, a cursor, a document), not what it said about the call. */
const servedMembers = new Set(['data', 'next_cursor', 'body']);

/** A tool result: structured, with the same as text (a client that reads only text misses nothing). */
export function toolResult(secrets: Secrets, summary: string, structured: Json, isError = false): CallToolResult {
  const shown = Object.fromEntries(
    Object.entries(structured).map(([name, value]) => [
      name,
      servedMembers.has(name) ? secrets.served(value) : secrets.json(value),
    ]),
  );
  return {
    content: [{ type: 'text', text: `${secrets.text(summary)}\n${JSON.stringify(shown)}` }],
    structuredContent: shown,
    ...(isError ? { isError: true } : {}),
  };
}

/** The rate-limit headers as the answer gave them (DECISIONS.md#rate-limit-headers). */
function limits(response: Response): Json {
  return {
    rate_limit: response.headers.get('ratelimit'),
    rate_limit_policy: response.headers.get('ratelimit-policy'),
  };
}

/** A problem (401, 402, 429 and the rest) as the agent acts on it. */
export function problemResult(secrets: Secrets, response: Response, body: unknown, text: string): CallToolResult {
  const problem: Json =
    body !== null && typeof body === 'object'
      ? (body as Json)
      : { status: response.status, title: response.statusText, detail: text.slice(0, 500) };
  const actions = ((problem.actions ?? []) as Json[]).map((action) => {
    const tool = toolOfAction(String(action.type));
    return tool ? { ...action, tool } : action;
  });
  const offered = actions.map((a) => (a.tool ? `${asText(a.type)} (call the tool ${asText(a.tool)})` : asText(a.type)));
  const summary =
    `The API answered ${response.status} ${asText(problem.code ?? '')}: ${asText(problem.title ?? '')}.` +
    (offered.length ? ` Actions offered: ${offered.join(', ')}.` : '');
  const retryAfter = response.headers.get('retry-after');
  return toolResult(
    secrets,
    summary,
    { status: response.status, problem, actions, retry_after: retryAfter, ...limits(response) },
    true,
  );
}

/** A trial key's answer: the key goes to the session, the result says what was issued without it. */
export function issuedResult(secrets: Secrets, session: Session, response: Response, body: Json): CallToolResult {
  secrets.add(body.key as string);
  session.key = body.key as string;
  const { key: _key, ...issued } = body;
  return toolResult(
    secrets,
    `A ${String(body.plan)} key was issued and is held by this server for the calls that follow (never shown): ` +
      `${String(body.calls_remaining)} of ${String(body.calls_limit)} calls left, until ${String(body.expires_at)}.`,
    { status: response.status, issued: true, held_by_server: true, ...issued, as_of: null, usage: null },
  );
}

/** An envelope's rows, bounded to the plan's page size, and the rest of it as the contract defines it. */
export function envelopeResult(secrets: Secrets, session: Session, response: Response, body: Json): CallToolResult {
  const plan = body.plan as { id?: string; rows_per_page?: number } | undefined;
  if (typeof plan?.rows_per_page === 'number') session.rowsPerPage = plan.rows_per_page;
  const bound = session.rowsPerPage ?? defaultLimit;
  const rows = Array.isArray(body.data) ? (body.data as unknown[]).slice(0, bound) : undefined;
  const data = rows ?? body.data;
  const cursor = body.next_cursor ?? null;
  const summary = rows
    ? `${rows.length} rows${cursor ? '; more: cursor = next_cursor' : '; the last page'}, as of ${asText(body.as_of)}.`
    : `One record, as of ${String(body.as_of)}.`;
  return toolResult(secrets, summary, {
    status: response.status,
    data,
    next_cursor: cursor,
    as_of: body.as_of ?? null,
    plan: body.plan ?? null,
    usage: body.usage ?? null,
    ...limits(response),
  });
}

/** A dump file (gzip JSONL): its first rows, as many as a page of the plan holds. */
export function fileResult(secrets: Secrets, session: Session, response: Response, bytes: Uint8Array): CallToolResult {
  const lines = gunzipSync(bytes).toString('utf8').split('\n').filter(Boolean);
  const bound = session.rowsPerPage ?? defaultLimit;
  const data = lines.slice(0, bound).map((line) => JSON.parse(line) as unknown);
  return toolResult(secrets, `${lines.length} rows in the file; the first ${data.length} here (a page of the plan).`, {
    status: response.status,
    data,
    rows_in_file: lines.length,
    truncated: lines.length > data.length,
    next_cursor: null,
    as_of: response.headers.get('last-modified'),
    usage: null,
    ...limits(response),
  });
}

/** Any other JSON answer (the contract's own document): as it came. */
export function otherResult(secrets: Secrets, response: Response, body: unknown): CallToolResult {
  return toolResult(secrets, `The API answered ${response.status}.`, {
    status: response.status,
    body,
    next_cursor: null,
    as_of: null,
    usage: null,
    ...limits(response),
  });
}
