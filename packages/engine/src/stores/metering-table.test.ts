import { expect, test } from 'vitest';
import { decide, meteringTable, type MeterFact, type MeterFacts } from './metering-table.ts';

const facts: MeterFact[] = ['revoked', 'counted', 'trial', 'ended', 'usedUp', 'short'];
/** Every combination of the table's facts. */
const every: MeterFacts[] = Array.from(
  { length: 2 ** facts.length },
  (_, n) => Object.fromEntries(facts.map((f, i) => [f, Boolean(n & (1 << i))])) as unknown as MeterFacts,
);

test('every call is decided by one row, the last fits every call, and no row is dead behind the ones before it', () => {
  expect(meteringTable.at(-1)).toMatchObject({ when: {}, refusal: null });
  const decided = new Set(every.map((f) => decide(f)));
  expect(meteringTable.filter((row) => !decided.has(row))).toEqual([]);
});

test('a revoked key is refused on any call; a free call is refused for nothing else but a balance below zero', () => {
  for (const f of every.filter((f) => f.revoked)) expect(decide(f).refusal).toBe('revoked_key');
  for (const f of every.filter((f) => !f.revoked && !f.counted))
    expect(decide(f).refusal).toBe(f.short ? 'insufficient_balance' : null);
});

test('of the refusals only a short balance says a cost; a trial is told it ended before it is used up', () => {
  expect(meteringTable.filter((row) => row.refusal !== null && row.cost === 'price').map((r) => r.refusal)).toEqual([
    'insufficient_balance',
  ]);
  const both = { revoked: false, counted: true, trial: true, ended: true, usedUp: true, short: false };
  expect(decide(both).refusal).toBe('trial_expired');
  expect(decide({ ...both, trial: false }).refusal).toBe('quota_exhausted');
});
