// @module-tag servers
import { afterAll, expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { newKeyText } from '@investor-graph/mock';
import { startMock } from '@investor-graph/mock/node';
import { Answers } from './answers.ts';
import { ApiClient, Ledger, type Answer } from './client.ts';

const key = newKeyText('team');
const mock = await startMock({ port: 0, keys: [{ plan: 'team', key }] });
afterAll(() => mock.close());
const validator = await createContractValidator();

const answer = (text: string): Answer => ({ status: 200, headers: new Headers(), body: null, text, findings: [] });

test('the memory of answers is bounded by count and by body size, the least recently used dropped first', () => {
  const held = new Answers({ entries: 3, chars: 10 });
  held.remember('/a', answer('aaa'), 1);
  held.remember('/b', answer('bbb'), 2);
  held.remember('/c', answer('ccc'), 3);
  expect(held.get('/a')?.call).toBe(1);
  held.remember('/d', answer('d'), 4);
  // Four entries: /b, used least recently, goes; /a was read since.
  expect([held.get('/b'), held.size]).toEqual([undefined, 3]);
  held.remember('/e', answer('eeeeee'), 5);
  // Over ten characters and three entries: the least recently used (/c) goes until it fits.
  expect(held.chars).toBe(10);
  expect(held.all().map(([path]) => path)).toEqual(['/a', '/d', '/e']);
  // A body larger than the whole bound is not kept.
  held.remember('/f', answer('f'.repeat(11)), 6);
  expect(held.get('/f')).toBeUndefined();
});

test("a read from memory is no call; any other is one, remembered if a plain GET with the run's key", async () => {
  const ledger = new Ledger();
  const client = new ApiClient({
    baseUrl: mock.url,
    key,
    plan: 'team',
    budget: { calls: 20, rows: 100 },
    validator,
    ledger,
  });
  const first = await client.read('/api/v1/firms?limit=2', { rows: 2 });
  const again = await client.read('/api/v1/firms?limit=2', { rows: 2 });
  expect(first.status).toBe(200);
  expect(again).toBe(first);
  expect([ledger.total.calls, client.answers.hits]).toEqual([1, 1]);
  // A call with a header that changes the answer, or another key, is never taken for a read.
  await client.call('/api/v1/firms?limit=3', { rows: 3, headers: { 'if-none-match': '*' } });
  await client.call('/api/v1/firms?limit=4', { rows: 4, key: null });
  await client.read('/api/v1/firms?limit=3', { rows: 3 });
  expect([ledger.total.calls, client.answers.size]).toEqual([4, 2]);
  expect(client.answers.get('/api/v1/firms?limit=4')).toBeUndefined();
});
