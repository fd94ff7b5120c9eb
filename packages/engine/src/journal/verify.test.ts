import { expect, test } from 'vitest';
import type { CallNote } from '../context.ts';
import { Journal } from './journal.ts';
import { parseExpectation } from './parse.ts';
import { verify } from './verify.ts';

const at = Date.parse('2026-11-27T13:00:00Z');

/** A journal holding these calls, in this order (as the engine records them once answered). */
function journalOf(calls: { target: string; status?: number; method?: string; note?: CallNote }[], capacity?: number) {
  const journal = new Journal(capacity);
  calls.forEach(({ target, status = 200, method = 'GET', note = {} }, i) =>
    journal.record({
      target,
      known: [],
      method,
      requestId: `req_${i}`,
      status,
      note,
      at: at + i,
      serviceTime: at,
      durationMs: 1,
    }),
  );
  return journal;
}

const team = { operation: 'listFirms', keyId: 'key_0000000000aa', plan: 'team' } as const;

test('verify counts the matching calls against exactly n, at least one, a range and none', () => {
  const journal = journalOf([
    { target: '/api/v1/firms?limit=50', note: team },
    { target: '/api/v1/firms?limit=50', note: team },
    { target: '/api/v1/companies?limit=50', note: { ...team, operation: 'listCompanies' } },
  ]);
  const firms = { operation: 'listFirms', query: { limit: '50' } };
  expect(verify(journal, firms, 2)).toMatchObject({ matched: 2, ok: true, message: '' });
  expect(verify(journal, firms)).toMatchObject({ matched: 2, ok: true, expected: { min: 1, max: null } });
  expect(verify(journal, firms, { min: 1, max: 3 }).ok).toBe(true);
  expect(verify(journal, firms, 3).ok).toBe(false);
  expect(verify(journal, { path: '/api/v1/*' }, 3).ok).toBe(true);
  expect(verify(journal, { status: '4xx' }, 0).ok).toBe(true);
  expect(verify(journal, { method: 'get', key_id: team.keyId, plan: 'team' }, 3).ok).toBe(true);
});

test('a failed expectation lists the nearest calls, fewest differences first, with what differed in each', () => {
  const journal = journalOf([
    { target: '/api/v1/firms?limit=20', note: team },
    { target: '/api/v1/companies?limit=20', note: { ...team, operation: 'listCompanies' } },
    { target: '/api/v1/firms?limit=50', status: 401, note: { operation: 'listFirms', problem: 'missing_key' } },
  ]);
  const verdict = verify(journal, { operation: 'listFirms', plan: 'team', query: { limit: '50' } }, 1);
  expect(verdict).toMatchObject({ matched: 0, ok: false, expected: { min: 1, max: 1 } });
  // One difference each for the first two (the newest first among equals), two for the last.
  expect(verdict.near_misses.map((m) => [m.entry.seq, m.differences])).toEqual([
    [2, [{ field: 'plan', expected: 'team', actual: '(none)' }]],
    [0, [{ field: 'query.limit', expected: '50', actual: '20' }]],
    [
      1,
      [
        { field: 'operation', expected: 'listFirms', actual: 'listCompanies' },
        { field: 'query.limit', expected: '50', actual: '20' },
      ],
    ],
  ]);
  expect(verdict.message.split('\n')).toEqual([
    '[investor-graph mock] expected exactly 1 call matching {operation: listFirms, plan: team, query.limit: 50}, ' +
      'but none matched.',
    'The nearest calls, of 3 in the journal:',
    '  1. GET /api/v1/firms?limit=50 -> 401 missing_key [listFirms, no key; req_2 at 2026-11-27T13:00:00.002Z]',
    '       plan: expected team, was (none)',
    '  2. GET /api/v1/firms?limit=20 -> 200 [listFirms, key key_0000000000aa (team); req_0 at ' +
      '2026-11-27T13:00:00.000Z]',
    '       query.limit: expected 50, was 20',
    '  3. GET /api/v1/companies?limit=20 -> 200 [listCompanies, key key_0000000000aa (team); req_1 at ' +
      '2026-11-27T13:00:00.001Z]',
    '       operation: expected listFirms, was listCompanies',
    '       query.limit: expected 50, was 20',
  ]);
});

test('at most five near misses are listed, and too many matches list the matching calls instead', () => {
  const journal = journalOf(
    Array.from({ length: 8 }, (_, i) => ({ target: `/api/v1/firms?limit=${i + 1}`, note: team })),
  );
  expect(verify(journal, { query: { limit: '50' } }).near_misses).toHaveLength(5);
  const over = verify(journal, { operation: 'listFirms' }, { max: 2 });
  expect(over).toMatchObject({ matched: 8, ok: false, near_misses: [] });
  expect(over.matching.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
  expect(over.message).toContain('expected at most 2 calls matching {operation: listFirms}, but 8 matched.');
  expect(over.message).toContain('The matching calls (the first 5):');
  expect(verify(new Journal(), {}).message).toContain('The journal holds no call at all.');
});

test('a verification body names every wrong member at once, and a right one is read as given', () => {
  const wrong = parseExpectation({
    pattern: { status: 700, method: '', query: { limit: 5 }, colour: 'red' },
    count: { min: -1, most: 2 },
    extra: true,
  });
  expect(wrong.ok ? [] : wrong.errors.map((e) => e.pointer)).toEqual([
    '/extra',
    '/pattern/status',
    '/pattern/method',
    '/pattern/query/limit',
    '/pattern/colour',
    '/count/most',
    '/count/min',
  ]);
  expect(parseExpectation([]).ok).toBe(false);
  expect(parseExpectation({ pattern: { status: '4xx', query: { limit: '5' } }, count: 0 })).toEqual({
    ok: true,
    value: { pattern: { status: '4xx', query: { limit: '5' } }, count: 0 },
  });
});

// Issue #68: one matching call where at least two were expected said "but 1 matched. The journal
// holds no call at all.", of a journal that held that call. The message counts right in every case.
test('none matched of an empty journal: the message says the journal holds no call at all', () => {
  const verdict = verify(journalOf([]), { operation: 'listFirms' }, { min: 2 });
  expect(verdict.message.split('\n')).toEqual([
    '[investor-graph mock] expected at least 2 calls matching {operation: listFirms}, but none matched.',
    'The journal holds no call at all.',
  ]);
});

test('some matched but fewer than expected: the matching calls are listed, and no other call is said held', () => {
  const verdict = verify(
    journalOf([{ target: '/api/v1/firms?limit=5', note: team }]),
    { operation: 'listFirms' },
    {
      min: 2,
    },
  );
  expect(verdict).toMatchObject({ matched: 1, ok: false });
  expect(verdict.matching.map((e) => e.seq)).toEqual([0]);
  expect(verdict.message.split('\n')).toEqual([
    '[investor-graph mock] expected at least 2 calls matching {operation: listFirms}, but 1 matched.',
    'The matching call:',
    '  1. GET /api/v1/firms?limit=5 -> 200 [listFirms, key key_0000000000aa (team); req_0 at 2026-11-27T13:00:00.000Z]',
    'The journal holds no other call (1 in all).',
  ]);
  expect(verdict.message).not.toContain('no call at all');
});

test('some matched but fewer than expected, beside others: the matching calls, then the nearest of the others', () => {
  const verdict = verify(
    journalOf([
      { target: '/api/v1/firms?limit=5', note: team },
      { target: '/api/v1/firms?limit=5', status: 401, note: { operation: 'listFirms', problem: 'missing_key' } },
    ]),
    { operation: 'listFirms', status: 200 },
    3,
  );
  expect(verdict).toMatchObject({ matched: 1, ok: false });
  expect(verdict.near_misses.map((m) => m.entry.seq)).toEqual([1]);
  expect(verdict.message.split('\n')).toEqual([
    '[investor-graph mock] expected exactly 3 calls matching {operation: listFirms, status: 200}, but 1 matched.',
    'The matching call:',
    '  1. GET /api/v1/firms?limit=5 -> 200 [listFirms, key key_0000000000aa (team); req_0 at 2026-11-27T13:00:00.000Z]',
    'The nearest other calls, of 2 in the journal:',
    '  1. GET /api/v1/firms?limit=5 -> 401 missing_key [listFirms, no key; req_1 at 2026-11-27T13:00:00.001Z]',
    '       status: expected 200, was 401',
  ]);
});

test('too many matched: the message counts them and lists the matching calls, nothing about an empty journal', () => {
  const verdict = verify(
    journalOf([
      { target: '/api/v1/firms?limit=5', note: team },
      { target: '/api/v1/firms?limit=6', note: team },
    ]),
    { operation: 'listFirms' },
    1,
  );
  expect(verdict.message.split('\n')).toEqual([
    '[investor-graph mock] expected exactly 1 call matching {operation: listFirms}, but 2 matched.',
    'The matching calls:',
    '  1. GET /api/v1/firms?limit=5 -> 200 [listFirms, key key_0000000000aa (team); req_0 at 2026-11-27T13:00:00.000Z]',
    '  2. GET /api/v1/firms?limit=6 -> 200 [listFirms, key key_0000000000aa (team); req_1 at 2026-11-27T13:00:00.001Z]',
  ]);
});
