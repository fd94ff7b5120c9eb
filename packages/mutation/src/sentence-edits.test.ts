// @module-tag servers
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { PlanId } from '@investor-graph/contract';
import { mutatorFor, type MutantSpec } from './operators.ts';
import { startPair } from './pair.ts';
import type { Answer, Exchange } from './proxy.ts';

const keys = Object.fromEntries(
  (['trial', 'team', 'business', 'enterprise', 'payg'] as const).map((p) => [
    p,
    `igk_${p}_${'sentences'.padEnd(32, '0')}`,
  ]),
) as Record<PlanId, string>;
let pair: Awaited<ReturnType<typeof startPair>>;
beforeAll(async () => void (pair = await startPair({ mutant: null, keys })));
afterAll(() => pair.close());

/** A real answer of the unbroken mock, and the exchange the proxy would hand a mutant. */
async function call(operation: string, target: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${pair.url}${target}`, { headers });
  const answer: Answer = {
    status: response.status,
    reason: response.statusText,
    headers: [...response.headers].map(([n, v]) => [n, v] as [string, string]),
    body: Buffer.from(await response.text()),
  };
  const exchange: Exchange = { method: 'GET', target, operation, requestHeaders: Object.entries(headers) };
  return { answer, exchange, json: answer.body.length ? JSON.parse(answer.body.toString()) : null };
}
const as = (plan: PlanId) => ({ authorization: `Bearer ${keys[plan]}` });
const mutator = (m: Omit<MutantSpec, 'id' | 'plan'>) => mutatorFor({ id: m.operator, plan: 'team', ...m });
const bodyOf = (a: Answer | null) => JSON.parse(a!.body.toString());
const headerOf = (a: Answer | null, name: string) => a!.headers.find(([n]) => n.toLowerCase() === name)?.[1];

test('meaning: calls_remaining made the limit, an enum value made the next one, and nothing else moves', async () => {
  const page = await call('listFirms', '/api/v1/firms?limit=3', as('team'));
  const expected = structuredClone(page.json);
  expected.usage.calls_remaining = expected.usage.calls_limit;
  const remaining = mutator({ family: 'meaning', operator: 'remaining-as-limit', operation: 'listFirms' });
  expect(bodyOf(remaining(page.answer, page.exchange))).toEqual(expected);

  const other = mutator({
    family: 'meaning',
    operator: 'enum-other',
    operation: 'listFirms',
    target: ['data', '[]', 'kind'],
  });
  const moved = bodyOf(other(page.answer, page.exchange));
  moved.data.forEach((row: { kind: string }, i: number) => expect(row.kind).not.toBe(page.json.data[i].kind));
  expect(moved.data.map((r: object) => ({ ...r, kind: 0 }))).toEqual(
    page.json.data.map((r: object) => ({ ...r, kind: 0 })),
  );
});

test('source: a field of the first two rows swapped, the rows themselves kept in place', async () => {
  const page = await call('listFirms', '/api/v1/firms?limit=3', as('team'));
  const swap = mutator({
    family: 'source',
    operator: 'swap-field',
    operation: 'listFirms',
    target: ['data', '[]', 'name'],
  });
  const expected = structuredClone(page.json);
  [expected.data[0].name, expected.data[1].name] = [page.json.data[1].name, page.json.data[0].name];
  expect(bodyOf(swap(page.answer, page.exchange))).toEqual(expected);
});

test(`case: a missing key answered as an unknown one, its challenge saying a token was refused, the limiter on \
it`, async () => {
  const missing = await call('listFirms', '/api/v1/firms?limit=3');
  expect(missing.json.code).toBe('missing_key');
  const code = mutator({
    family: 'case',
    operator: 'problem-code',
    operation: 'listFirms',
    target: 'missing_key',
    value: 'invalid_key',
  });
  expect(bodyOf(code(missing.answer, missing.exchange))).toEqual({
    ...missing.json,
    code: 'invalid_key',
    type: missing.json.type.replace('missing-key', 'invalid-key'),
  });
  const flip = mutator({ family: 'case', operator: 'challenge-flip', operation: 'listFirms' });
  expect(headerOf(flip(missing.answer, missing.exchange), 'www-authenticate')).toMatch(/error="invalid_token"$/);
  const limiter = mutator({ family: 'case', operator: 'limiter-on-refused', operation: 'listFirms' });
  expect(headerOf(limiter(missing.answer, missing.exchange), 'ratelimit-policy')).toBe('"default";q=5;w=1');
  expect(limiter(missing.answer, missing.exchange)!.body.equals(missing.answer.body)).toBe(true);
});

test('case: a tag that does not match answered 304 with no body; one that matches left to the service', async () => {
  const stale = await call('listFirms', '/api/v1/firms?limit=3', { ...as('enterprise'), 'if-none-match': 'W/"stale"' });
  const miss = mutator({ family: 'case', operator: 'not-modified-miss', operation: 'listFirms' });
  const out = miss(stale.answer, stale.exchange)!;
  expect([out.status, out.body.length, headerOf(out, 'etag')]).toEqual([304, 0, headerOf(stale.answer, 'etag')]);
  const plain = await call('listFirms', '/api/v1/firms?limit=3', as('enterprise'));
  expect(miss(plain.answer, plain.exchange), 'no tag sent').toBeNull();
});

test(`sequence: the next page repeats the last row of the page before; usage moves by two on the second \
call`, async () => {
  // The team key's burst (5 a second) spent by the tests before: a second to refill.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const overlap = mutator({ family: 'sequence', operator: 'page-overlap', operation: 'listFirms' });
  const first = await call('listFirms', '/api/v1/firms?limit=2', as('team'));
  expect(overlap(first.answer, first.exchange), 'a first page').toBeNull();
  const second = await call('listFirms', `/api/v1/firms?limit=2&cursor=${first.json.next_cursor}`, as('team'));
  expect(bodyOf(overlap(second.answer, second.exchange))).toEqual({
    ...second.json,
    data: [first.json.data[1], ...second.json.data],
  });

  const jump = mutator({ family: 'sequence', operator: 'usage-jump', operation: 'listFirms' });
  expect(jump(first.answer, first.exchange), "a key's first call").toBeNull();
  const usage = bodyOf(jump(second.answer, second.exchange)).usage;
  expect(usage).toEqual({
    ...second.json.usage,
    calls_used: second.json.usage.calls_used + 1,
    calls_remaining: second.json.usage.calls_remaining - 1,
  });

  const shared = mutator({ family: 'sequence', operator: 'etag-shared', operation: 'listFirms' });
  expect(shared(first.answer, first.exchange)).toBeNull();
  const tagged = shared(second.answer, second.exchange)!;
  expect(headerOf(tagged, 'etag')).toBe(headerOf(first.answer, 'etag'));
  expect(tagged.body.equals(second.answer.body)).toBe(true);
});
