import { expect, test } from 'vitest';
import { plans } from '@investor-graph/contract/plans';
import { newRecord } from './key-records.ts';
import { meter } from '../stores/metering-table.ts';
import { refusalOf, usageJson, usageOf } from './metering.ts';

const now = Date.UTC(2026, 10, 20);
const record = (plan: 'trial' | 'team' | 'payg', prepaid = 0) =>
  newRecord(plan, `igk_${plan}_${'x'.repeat(32)}`, 'hash', now, null, prepaid);

test('a counted call within the quota is counted, and a pay-as-you-go one charged at least the minimum', () => {
  const team = record('team');
  expect(meter(team, { keyId: team.keyId, now, counted: true, rows: 5 })).toMatchObject({
    refusal: null,
    cost: 0,
    record: { callsUsed: 1 },
  });
  const payg = record('payg', 100);
  expect(meter(payg, { keyId: payg.keyId, now, counted: true, rows: 1 })).toMatchObject({
    refusal: null,
    cost: plans.payg.min_rows_per_call,
    record: { balanceRows: 100 - plans.payg.min_rows_per_call! },
  });
});

test('a key is refused as it stands: revoked, past its quota, its trial over, or short of balance', () => {
  const revoked = { ...record('team'), revokedAt: now - 1 };
  expect(refusalOf(revoked, now, false)).toBe('revoked_key');
  const full = { ...record('team'), callsUsed: plans.team.calls_limit! };
  expect(refusalOf(full, now, true)).toBe('quota_exhausted');
  // The account call is free: not refused for the quota.
  expect(refusalOf(full, now, false)).toBeNull();
  expect(refusalOf(record('trial'), now + 8 * 86_400_000, true)).toBe('trial_expired');
  expect(refusalOf({ ...record('trial'), callsUsed: plans.trial.calls_limit! }, now, true)).toBe('trial_exhausted');
  const poor = record('payg', 5);
  expect(meter(poor, { keyId: poor.keyId, now, counted: true, rows: 1 })).toMatchObject({
    refusal: 'insufficient_balance',
    record: { balanceRows: 5, callsUsed: 0 },
  });
});

test('a monthly period rolls over on the first of the next month (UTC), and its count starts again', () => {
  const used = { ...record('team'), callsUsed: plans.team.calls_limit! };
  const next = Date.UTC(2026, 11, 1);
  expect(refusalOf(used, next - 1, true)).toBe('quota_exhausted');
  expect(refusalOf(used, next, true)).toBeNull();
  expect(meter(used, { keyId: used.keyId, now: next, counted: true, rows: 1 })).toMatchObject({
    refusal: null,
    record: { callsUsed: 1, periodStart: next, periodEnd: Date.UTC(2027, 0, 1) },
  });
  // Asking changes nothing: the key as stored rolls over only when a call is admitted and kept.
  expect(used.callsUsed).toBe(plans.team.calls_limit);
});

test(
  'a usage is written as JSON.stringify writes it, for every ' +
    'plan, with and without a period, a limit or a balance',
  () => {
    const records = [
      record('trial'),
      record('team'),
      record('payg', 250),
      { ...record('payg', 0), balanceRows: null },
      { ...record('team'), periodStart: null, periodEnd: null, callsUsed: 12_345 },
    ];
    for (const plan of Object.keys(plans) as (keyof typeof plans)[]) records.push({ ...record('team'), plan });
    for (const key of records)
      for (const charged of [0, 7, 1_000_000])
        expect(usageJson(usageOf(key, charged))).toBe(JSON.stringify(usageOf(key, charged)));
  },
);
