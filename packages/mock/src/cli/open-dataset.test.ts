import { expect, test } from 'vitest';
import { resources } from '@investor-graph/dataset-tools';
import { openStore } from './open-dataset.ts';

const walk = (store: Awaited<ReturnType<typeof openStore>>) =>
  resources.map((r) => [r.name, store.count(r.name), store.page(r.name, null, 3).rows]);

test('of mocks on the embedded dataset in one process, one closing leaves the others serving it whole', async () => {
  const [first, second] = await Promise.all([openStore({}), openStore({})]);
  const served = walk(second);
  first.close();
  expect(walk(second)).toEqual(served);
  const third = await openStore({});
  expect(walk(third)).toEqual(served);
  second.close();
  third.close();
});

test("what one mock's rebuilds change stays its own: another on the embedded dataset serves it unchanged", async () => {
  const [rebuilt, untouched] = await Promise.all([openStore({}), openStore({})]);
  const before = walk(untouched);
  const changes = rebuilt.applyDue(Date.parse('2100-01-01T00:00:00Z'));
  expect(changes.length).toBeGreaterThan(0);
  expect(walk(rebuilt)).not.toEqual(before);
  expect(walk(untouched)).toEqual(before);
  expect(untouched.changeCount()).toBeLessThan(rebuilt.changeCount());
  rebuilt.close();
  untouched.close();
});

test("the embedded dataset's store names no database file: its dumps are written when asked, never ahead", async () => {
  const store = await openStore({});
  // start-mock.ts writes a store's dumps ahead in a worker when it names a file.
  expect(store.file).toBeNull();
  store.close();
});
