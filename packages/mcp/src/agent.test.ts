// @module-tag servers
/**
 * A scripted agent (no model: a fixed policy) through investor-graph-mcp over both transports: it
 * starts with no key, meets 401 and the actions it carries, calls the tool the get_trial_key action
 * names, reads two pages by next_cursor, meets the trial's 402 and reports the actions offered. The
 * mock runs in this test behind a relay that keeps every key the mock issued, so that everything
 * the server wrote or answered is scanned for them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { keyLeak, startMcp, type McpUnderTest, type TransportName } from './clients.test-support.ts';

let mock: RunningMock;
let relay: Server;
let relayUrl: string;
/** Every key the mock issued, read from its answers as they passed. */
const issued: string[] = [];

beforeAll(async () => {
  mock = await startMock({ port: 0, dumpsAhead: false });
  relay = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([n]) => !['host', 'connection', 'content-length'].includes(n)),
      ) as Record<string, string>;
      void fetch(`${mock.url}${request.url}`, { method: request.method!, headers, ...(body ? { body } : {}) }).then(
        async (answer) => {
          const bytes = Buffer.from(await answer.arrayBuffer());
          const key = /"key":"([^"]+)"/.exec(bytes.toString('latin1'))?.[1];
          if (key) issued.push(key);
          const kept = [...answer.headers].filter(([n]) => !['content-encoding', 'content-length'].includes(n));
          response.writeHead(answer.status, Object.fromEntries(kept));
          response.end(bytes);
        },
      );
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});

afterAll(async () => {
  relay?.closeAllConnections();
  await new Promise((resolve) => relay?.close(resolve));
  await mock?.close();
});

/** The agent's policy: what it did, in order, and the actions the 402 offered it. */
async function runAgent(mcp: McpUnderTest, transport: TransportName) {
  const steps: string[] = [];
  // A 429 says when to come back (the trial's rate is a few calls a second): the policy waits that long.
  const call = async (name: string, args: Record<string, unknown>) => {
    for (;;) {
      const result = await mcp.call(name, args);
      if (result.structuredContent?.status !== 429) return result;
      steps.push(`429 waited ${result.structuredContent.retry_after} s`);
      await new Promise((resolve) => setTimeout(resolve, Number(result.structuredContent.retry_after) * 1000));
    }
  };
  const first = await call('list_companies', { limit: 3 });
  steps.push(`${first.structuredContent.status} ${first.structuredContent.problem.code}`);
  // The policy: take the action that names a tool, fill its body template, call that tool.
  const action = first.structuredContent.actions.find((a: { tool?: string }) => a.tool);
  const email = String(action.body.email).replace('{email}', `agent-${transport}@example.com`);
  const trial = await call(action.tool, { email });
  steps.push(`${action.tool} ${trial.structuredContent.status} ${trial.structuredContent.plan}`);
  const page1 = await call('list_companies', { limit: 3 });
  const page2 = await call('list_companies', { limit: 3, cursor: page1.structuredContent.next_cursor });
  if (page2.isError) throw new Error(JSON.stringify(page2.content));
  steps.push(`pages ${page1.structuredContent.data.length}+${page2.structuredContent.data.length}`);
  // The harness (not the agent) spends the trial through the mock's control plane.
  await call('control_set_key_usage', { key_id: trial.structuredContent.key_id, calls_used: 1000 });
  const spent = await call('list_companies', { limit: 3, cursor: page2.structuredContent.next_cursor });
  steps.push(`${spent.structuredContent.status} ${spent.structuredContent.problem.code}`);
  return {
    steps,
    first,
    page1,
    page2,
    spent,
    offered: spent.structuredContent.actions.map((a: { type: string }) => a.type),
  };
}

describe.each<TransportName>(['stdio', 'http'])('a scripted agent over %s', (transport) => {
  let mcp: McpUnderTest;
  beforeAll(async () => {
    mcp = await startMcp(transport, ['--base-url', relayUrl, '--control']);
  });
  afterAll(async () => mcp?.close());

  test('goes from no key to data and to the trial 402 through actions alone, the key in nothing it saw', async () => {
    const { steps, first, page1, page2, spent, offered } = await runAgent(mcp, transport);
    expect(steps.filter((s) => !s.startsWith('429'))).toEqual([
      '401 missing_key',
      'get_trial_key 201 trial',
      'pages 3+3',
      '402 trial_exhausted',
    ]);
    expect(first.isError).toBe(true);
    expect(page1.structuredContent).toMatchObject({ as_of: expect.any(String), plan: { id: 'trial' } });
    expect(page1.structuredContent.usage.calls_used).toBeGreaterThan(0);
    expect(page2.structuredContent.data[0]).not.toEqual(page1.structuredContent.data[0]);
    expect(spent.isError).toBe(true);
    expect(offered).toEqual(['subscribe', 'buy_prepaid_rows', 'book_call']);
    expect(issued.length).toBeGreaterThan(0);
    for (const key of issued) expect(keyLeak(mcp.seen(), key), 'the issued key leaked').toBeNull();
  });
});

test('the key scan finds a key written raw, in base64, base64url, hex or percent-encoded, inside other text', () => {
  const key = 'igk_trial_8Jb2kq7T1mXw4ZcR9vLp3sNd6YhF0a/e+';
  const around = (text: string) => `{"note":"x${text}y"}`;
  expect(keyLeak(around(key), key)).toBe('raw');
  for (const shift of ['', 'a', 'ab']) {
    // The two alphabets differ only in + and /, which a key's middle need not encode to.
    expect(keyLeak(around(Buffer.from(shift + key).toString('base64')), key)).toMatch(/^base64/);
    expect(keyLeak(around(Buffer.from(shift + key).toString('base64url')), key)).toMatch(/^base64/);
  }
  expect(keyLeak(around(Buffer.from(key).toString('hex').toUpperCase()), key)).toBe('hex');
  expect(keyLeak(around(encodeURIComponent(key)), key)).toBe('percent-encoded');
  expect(keyLeak(around('igk_trial_***'), key)).toBeNull();
});
