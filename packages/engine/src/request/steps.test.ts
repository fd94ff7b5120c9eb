import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createParts } from '../engine.ts';
import { respond } from './steps.ts';

const validator = await createContractValidator();
const dataset = collectDataset({ seed: 'request-path', scale: 300, asOf: defaultDataset.asOf });
const now = Date.parse(defaultDataset.asOf);

async function setup(options: { breakCursors?: boolean } = {}) {
  const parts = createParts({ dataset: structuredClone(dataset), validator, now, frozen: true });
  await parts.ready;
  // A part of the test's choosing: the cursor codec fails when the envelope asks it for the next page.
  if (options.breakCursors)
    parts.envelope = { ...parts.envelope, cursors: { encode: () => Promise.reject(new Error('the codec broke')) } };
  const call = (path: string, key?: string) => {
    const url = new URL(`http://mock${path}`);
    return respond(
      parts,
      new Request(url, { headers: key ? { authorization: `Bearer ${key}` } : {} }),
      url,
      { clientAddress: '192.0.2.1' },
      'req_test',
    );
  };
  return { parts, call };
}

test('the contract is answered without a key; a data call without one is a 401 whatever its query holds', async () => {
  const { call } = await setup();
  expect((await call('/api/v1/openapi.json')).status).toBe(200);
  await expect(call('/api/v1/firms?limt=5')).rejects.toMatchObject({ code: 'missing_key', status: 401 });
});

test('a call whose answer cannot be made once it was counted is taken back: neither counted nor charged', async () => {
  const { parts, call } = await setup({ breakCursors: true });
  const { key, record } = await parts.accounts.create('payg', now, { prepaidRows: 1_000 });
  await expect(call('/api/v1/firms?limit=1', key)).rejects.toThrow('the codec broke');
  expect(await parts.accounts.byKeyId(record.keyId)).toMatchObject({ callsUsed: 0, balanceRows: 1_000 });
  // A single record needs no cursor: counted and charged as any call.
  const firm = parts.env.store.page('firm', null, 1).rows[0]!;
  expect((await call(`/api/v1/firms/${firm.slug as string}`, key)).status).toBe(200);
  expect(await parts.accounts.byKeyId(record.keyId)).toMatchObject({ callsUsed: 1, balanceRows: 990 });
});

test('a key revoked after it was met is refused when it next calls, and that call counts nothing', async () => {
  const { parts, call } = await setup();
  const { key, record } = await parts.accounts.create('team', now);
  expect((await call('/api/v1/firms?limit=1', key)).status).toBe(200);
  await parts.accounts.revoke(record.keyId, now);
  await expect(call('/api/v1/firms?limit=1', key)).rejects.toMatchObject({ code: 'revoked_key', status: 401 });
  expect((await parts.accounts.byKeyId(record.keyId))!.callsUsed).toBe(1);
});
