// @module-tag servers
/**
 * A body that does not decode as its Content-Encoding says is the service's fault: the client
 * answers with a finding of the contract rule, never a throw that would end the run without a
 * report. Against a raw server on loopback that sends broken gzip and brotli.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { ApiClient, Ledger } from './client.ts';

let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const encoding = request.url?.includes('br') ? 'br' : 'gzip';
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
    response.end('this is neither gzip nor brotli, whatever the header says');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

async function setup() {
  const ledger = new Ledger();
  const client = new ApiClient({
    baseUrl,
    key: 'igk_team_not_sent_anywhere_else_0',
    plan: 'team',
    budget: { calls: 10, rows: 100 },
    validator: await createContractValidator(),
    ledger,
  });
  return { client, ledger };
}

for (const encoding of ['gzip', 'br']) {
  test(`a body that is not the ${encoding} its Content-Encoding says is a contract finding, not a crash`, async () => {
    const { client, ledger } = await setup();
    const answer = await client.call(`/api/v1/firms?limit=1&as=${encoding}`, { rows: 1 });
    expect(answer.status).toBe(200);
    const finding = answer.findings.find(
      (f) => f.rule === 'contract' && /could not be read as its headers say/.test(f.message),
    );
    expect(finding?.message).toContain(`Content-Encoding "${encoding}"`);
    // Counted and recorded like any other call: the report shows it.
    expect(ledger.total.calls).toBe(1);
    expect(
      ledger.findings.some(
        (f) => f.rule === 'contract' && f.call === `GET /api/v1/firms?limit=1&as=${encoding} -> 200`,
      ),
    ).toBe(true);
  });
}
