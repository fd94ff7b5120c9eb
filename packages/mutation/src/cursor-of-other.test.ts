// @module-tag servers
/**
 * The survivor `meaning:cursor-of-other` (issue #65): a page whose `next_cursor` is a cursor another
 * operation issued. The contract tests' sequences follow the `next_cursor` of the pages the run got
 * and compare the page it leads to with the model's own next page: the mutant behind the proxy is
 * caught, named by the cursor's sentence, and the replay line replays it.
 */
import { expect, test } from 'vitest';
import { prepare, properties, runProperty, type SuiteConfig } from '@investor-graph/contract-tests';
import type { MutantSpec } from './operators.ts';
import { startPair } from './pair.ts';

const key = `igk_enterprise_${'cursorother'.padEnd(32, '0')}`;
const sequences = properties.find((p) => p.id === 'sequences')!;
const mutant: MutantSpec = {
  id: 'meaning:cursor-of-other:listCompanyOfferings',
  family: 'meaning',
  operator: 'cursor-of-other',
  operation: 'listCompanyOfferings',
  plan: 'enterprise',
};

async function sequencesBehind(extra: Partial<SuiteConfig> = {}) {
  const pair = await startPair({ mutant, keys: { enterprise: key } });
  try {
    const ctx = await prepare({
      baseUrl: pair.url,
      key,
      plan: 'enterprise',
      budget: { calls: 400, rows: 50_000 },
      seed: 65,
      runs: 12,
      model: true,
      only: ['sequences'],
      ...extra,
    });
    return { result: await runProperty(ctx, sequences), changed: pair.counts.changedByOperation };
  } finally {
    await pair.close();
  }
}

test(`a next_cursor of another operation is caught by following it: the service refuses it where the model \
gives its next page, named by the cursor's sentence, and the replay line replays it`, async () => {
  const { result, changed } = await sequencesBehind();
  expect(changed.listCompanyOfferings).toBeGreaterThan(0);
  expect(result.status).toBe('failed');
  expect(result.failure!.message).toMatch(/listCompanyOfferings|\/offerings\?/);
  expect(result.failure!.message).toMatch(/spec 1\.30: "\| `next_cursor` \| Cursor for the next page of results/);
  const path = result.failure!.path!;
  const replayPath = /--replay-path '([^']+)'/.exec(result.failure!.replay)?.[1];
  const again = await sequencesBehind({ path, ...(replayPath ? { replayPath } : {}) });
  expect(again.result.status).toBe('failed');
  expect(again.result.failure!.message).toMatch(/spec 1\.30/);
});
