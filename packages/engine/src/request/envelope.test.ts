import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createEngine, type Engine } from '../engine.ts';
import { MemoryKeyStore } from '../stores/memory/key-store.ts';
import type { ChargeStep } from '../stores/key-store.ts';

const validator = await createContractValidator();
// The embedded dataset, as `pnpm generate` writes it to dataset/ (its first rebuild after as_of at 04:00).
const dataset = collectDataset(defaultDataset);
const key = 'igk_enterprise_envelopeasof0000000000000';

/** A key store slow to write a charge, during which the clock passes the next rebuild (a state server's round trip). */
class SlowCharges extends MemoryKeyStore {
  whileCharging: (() => void) | null = null;
  override admitAndCharge(step: ChargeStep) {
    this.whileCharging?.();
    this.whileCharging = null;
    return super.admitAndCharge(step);
  }
}

async function setup() {
  const keyStore = new SlowCharges();
  const engine: Engine = createEngine({
    dataset: structuredClone(dataset),
    validator,
    frozen: true,
    rateLimit: false,
    keyStore,
    keys: [{ plan: 'enterprise', key }],
  });
  await engine.ready;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await engine.fetch(
      new Request(`http://mock${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } }),
    );
    return {
      etag: answer.headers.get('etag'),
      status: answer.status,
      body: answer.status === 200 ? await answer.json() : null,
    };
  };
  return { engine, keyStore, get };
}

test("as_of is the rebuild an answer's rows come from, though one more ran while it was charged", async () => {
  const { engine, keyStore, get } = await setup();
  const before = await get('/api/v1/investments?limit=5');
  keyStore.whileCharging = () => engine.store.applyDue(Date.parse('2026-11-20T05:00:00Z'));
  const raced = await get('/api/v1/investments?limit=5');
  expect(engine.store.asOf).toBe(Date.parse('2026-11-20T05:00:00Z'));
  // Served before the rebuild: the rows and as_of of the data as it was, and the tag of that.
  expect(raced.body.data).toEqual(before.body.data);
  expect(raced.body.as_of).toBe(before.body.as_of);
  expect(raced.etag).toBe(before.etag);
});
