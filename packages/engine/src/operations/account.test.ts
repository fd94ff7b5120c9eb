import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createEngine } from '../engine.ts';

const validator = await createContractValidator();
// The embedded dataset, as `pnpm generate` writes it to dataset/.
const dataset = collectDataset(defaultDataset);
const team = 'igk_team_accounttags00000000000000000000';
const business = 'igk_business_accounttags0000000000000000';

async function setup() {
  const engine = createEngine({
    dataset: structuredClone(dataset),
    validator,
    frozen: true,
    rateLimit: false,
    keys: [
      { plan: 'team', key: team },
      { plan: 'business', key: business },
    ],
  });
  await engine.ready;
  const get = (path: string, key: string, etag?: string) =>
    engine.fetch(
      new Request(`http://mock${path}`, {
        headers: { authorization: `Bearer ${key}`, ...(etag ? { 'if-none-match': etag } : {}) },
      }),
    );
  const account = async (key: string, etag?: string) => {
    const answer = await get('/api/v1/account', key, etag);
    return {
      status: answer.status,
      etag: answer.headers.get('etag')!,
      body: answer.status === 200 ? await answer.json() : null,
    };
  };
  return { engine, get, account };
}

test('two keys get different account tags: their accounts say different things', async () => {
  const { account } = await setup();
  const [first, second] = [await account(team), await account(business)];
  expect(first.body.data).not.toEqual(second.body.data);
  expect(first.etag).not.toBe(second.etag);
  // Another key's tag is not this account's: its data comes in full.
  expect((await account(team, second.etag)).status).toBe(200);
});

test('an account read again with nothing changed is a 304', async () => {
  const { account } = await setup();
  const first = await account(team);
  const again = await account(team, first.etag);
  expect(again.status).toBe(304);
  expect(again.etag).toBe(first.etag);
});

test('an account whose usage moved since its tag was taken is served in full, not a stale 304', async () => {
  const { account, get } = await setup();
  const before = await account(team);
  expect((await get('/api/v1/firms?limit=1', team)).status).toBe(200);
  const after = await account(team, before.etag);
  expect(after.status).toBe(200);
  expect(after.body.data.usage.calls_used).toBe(before.body.data.usage.calls_used + 1);
  expect(after.etag).not.toBe(before.etag);
});
