// @module-tag servers
/**
 * The request journal of a mock on a real port (issue #54): calls of both ways into the engine
 * (the fast path's GETs, the WHATWG path's POST), read back, verified and cleared over HTTP by the
 * test's client (control-client.ts), as a test of an app that calls the mock would.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newKeyText, VerificationError } from '@investor-graph/engine';
import { mockJournal, startMock, type RunningMock } from './node.ts';

const team = newKeyText('team');
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [{ plan: 'team', key: team }], journal: 100 });
});
afterAll(() => mock.close());

test(
  'a started mock journals its calls, and a test ' + 'verifies them over HTTP with near misses in the error',
  async () => {
    const journal = mockJournal(mock.url);
    await journal.clearJournal();
    const headers = { authorization: `Bearer ${team}` };
    expect((await fetch(`${mock.url}/api/v1/firms?limit=3`, { headers })).status).toBe(200);
    expect((await fetch(`${mock.url}/api/v1/companies?limit=3`, { headers })).status).toBe(200);
    const trial = await fetch(`${mock.url}/api/v1/keys/trial`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'journal@example.com' }),
    });
    expect(trial.status).toBe(201);

    const entries = await journal.journal();
    expect(entries.map((e) => [e.method, e.operation, e.plan, e.status, e.rows_served])).toEqual([
      ['GET', 'listFirms', 'team', 200, 3],
      ['GET', 'listCompanies', 'team', 200, 3],
      ['POST', 'createTrialKey', null, 201, 0],
    ]);
    // The trial's answer holds its key: the journal, never.
    const trialKey = ((await trial.json()) as { key: string }).key;
    expect(JSON.stringify(entries)).not.toContain(trialKey);
    expect(JSON.stringify(entries)).not.toContain(team);
    expect(await journal.journal({ query: { limit: '3' }, status: '2xx' })).toHaveLength(2);

    expect((await journal.verify({ operation: 'listFirms', plan: 'team' }, 1)).matched).toBe(1);
    const failed = await journal.verify({ operation: 'listFirms', query: { limit: '50' } }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(VerificationError);
    expect((failed as Error).message).toContain('query.limit: expected 50, was 3');
    expect((failed as Error).message).not.toContain(team);

    await journal.clearJournal();
    expect(await journal.journal()).toEqual([]);
    await expect(journal.verify({ status: 'teapot' })).rejects.toThrow(/400 pattern\/status: must be a status/);
  },
);
