// @module-tag servers
/**
 * The installed shape of investor-graph-mcp, through the SDK's own client over both transports:
 * the tools it lists are the contract's operations and the started mock's control plane, and every
 * one of them answers against that mock; the environment's key appears in nothing it wrote.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operations } from '@investor-graph/contract';
import { controlDocument } from '@investor-graph/engine/control';
import { apiTools } from './api-tools.ts';
import { controlTools, notTools } from './control-tools.ts';
import { keyLeak, startMcp, type McpUnderTest, type TransportName } from './clients.test-support.ts';

const envKey = 'igk_team_mcp_env_key_0123456789abcdef';

describe.each<TransportName>(['stdio', 'http'])('investor-graph-mcp over %s', (transport) => {
  let mcp: McpUnderTest;
  beforeAll(async () => {
    mcp = await startMcp(transport, [], envKey);
  });
  afterAll(async () => mcp?.close());

  test("tools/list names a tool per operation of the contract and the started mock's control tools", async () => {
    const { tools } = await mcp.client.listTools();
    const controlOps = Object.values(controlDocument.paths).flatMap((item) => Object.keys(item)).length;
    expect(tools.length).toBe(operations.length + controlTools.length);
    expect(controlTools.length).toBe(controlOps - Object.keys(notTools).length);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    for (const operation of operations) {
      const tool = tools.find((t) => t.name === apiTools.find((a) => a.operation === operation)!.name)!;
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(operation.method === 'GET');
    }
    expect(tools.map((t) => t.name)).toContain('get_trial_key');
  });

  test('every tool answers once against the mock, the control tools included', async () => {
    const called = new Set<string>();
    const ok = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await mcp.call(name, args);
      called.add(name);
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      return result.structuredContent;
    };
    // A pay-as-you-go key to top up and revoke, then an Enterprise key for every data call.
    const payg = await ok('control_create_key', { plan: 'payg' });
    await ok('control_top_up_key', { key_id: payg.key_id, rows: 1000 });
    await ok('control_revoke_key', { key_id: payg.key_id });
    const enterprise = await ok('control_create_key', { plan: 'enterprise' });
    await ok('control_set_key_usage', { key_id: enterprise.key_id, calls_used: 10 });
    const firm = (await ok('list_firms', { limit: 2 })).data[0].slug;
    const company = (await ok('list_companies', { limit: 1 })).data[0].slug;
    const fund = (await ok('list_funds', { limit: 1 })).data[0].id;
    const list = (await ok('list_lists', { limit: 1 })).data[0].slug;
    const manifest = await ok('get_export_manifest', {});
    const day = manifest.data[0];
    const asOf = String(manifest.as_of);
    const byArgs: Record<string, Record<string, unknown>> = {
      get_trial_key: { email: `mcp-${transport}@example.com` },
      get_firm: { slug: firm },
      list_firm_portfolio: { slug: firm },
      list_firm_filings: { slug: firm },
      list_firm_funds: { slug: firm },
      get_company: { slug: company },
      list_company_rounds: { slug: company },
      list_company_investors: { slug: company },
      list_company_offerings: { slug: company },
      get_fund: { id: fund },
      get_list: { slug: list },
      list_changes: { since: new Date(Date.parse(asOf) - 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z') },
      get_export_file: { date: day.date, file: day.files[0].name },
      get_statistic: { name: 'rounds-by-year' },
    };
    // The trial key comes last: it becomes the session's key.
    for (const tool of [...apiTools.filter((t) => t.name !== 'get_trial_key'), apiTools[0]!])
      if (!called.has(tool.name)) await ok(tool.name, byArgs[tool.name] ?? {});
    await ok('control_get_state');
    await ok('control_get_clock');
    const clock = await ok('control_advance_clock', { duration: 'PT1H' });
    await ok('control_set_clock', { now: new Date(Date.parse(String(clock.now)) + 60_000).toISOString() });
    await ok('control_rebuild');
    await ok('control_get_journal', { operation: 'listFirms' });
    await ok('control_verify_journal', { pattern: { operation: 'listFirms' }, count: { min: 1 } });
    await ok('control_clear_journal');
    const incident = await ok('control_create_incident', {
      kind: 'outage',
      match: { operation: 'listFirms' },
      calls: 1,
    });
    await ok('control_list_incidents');
    await ok('control_end_incident', { id: incident.id });
    await ok('control_clear_incidents');
    expect([...called].sort()).toEqual([...apiTools, ...controlTools].map((t) => t.name).sort());
    expect(keyLeak(mcp.seen(), envKey)).toBeNull();
  }, 120_000);
});
