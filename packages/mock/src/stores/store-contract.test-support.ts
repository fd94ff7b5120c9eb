/**
 * The store contract: what every key store (memory, SQLite in memory and in a file, Redis and its
 * Lua) must do, as one suite each store runs (hono's `common.case.test.ts`). Above all, every row
 * of the metering decision table (the engine's stores/metering-table.ts), each reached by cases
 * whose outcomes are written out here by hand, so a store that decides one row otherwise fails.
 */
import { describe, expect, test } from 'vitest';
import { plans, type PlanId } from '@investor-graph/contract/plans';
import { DAY, newRecord } from '@investor-graph/engine/adapter';
import { decide, meteringTable, monthBounds, readCall } from '@investor-graph/engine/adapter';
import type { ChargeStep, KeyRecord, KeyStore, Refusal } from '@investor-graph/engine/adapter';
import type { RateLimiter } from '@investor-graph/engine/adapter';

/** A store opened afresh for one test (nothing of another test in it), and its buckets. */
export interface OpenedStore {
  keyStore: KeyStore;
  limiter: RateLimiter;
  close(): Promise<void> | void;
}

export interface StoreContract {
  name: string;
  open: () => Promise<OpenedStore>;
  /** Why this store cannot run here (the suite is skipped, saying so), or null. */
  skip?: string | null;
}

const NOW = Date.parse('2026-11-20T03:00:00Z');
const [MONTH_START, MONTH_END] = monthBounds(NOW);
const MIN = plans.payg.min_rows_per_call!;
const limitOf = (plan: PlanId): number => plans[plan].calls_limit!;

/** One case of the decision table: a key as stored, a call, and what the store must answer and keep. */
interface MeterCase {
  name: string;
  plan: PlanId;
  edit?: (r: KeyRecord) => void;
  call: Omit<ChargeStep, 'keyId' | 'chargeId'>;
  refusal: Refusal | null;
  cost: number;
  /** The key as kept after the call (refused: as it was). */
  kept: Partial<KeyRecord>;
}

const counted = (rows: number | null, now = NOW) => ({ now, counted: true, rows });
const free = { now: NOW, counted: false, rows: 1 };

export const meterCases: MeterCase[] = [
  // revoked_key: whatever the call, counted or free.
  {
    name: 'a revoked key',
    plan: 'team',
    edit: (r) => void (r.revokedAt = NOW - 1),
    call: counted(5),
    refusal: 'revoked_key',
    cost: 0,
    kept: { callsUsed: 0 },
  },
  {
    name: 'a revoked key, on the free call',
    plan: 'payg',
    edit: (r) => void (r.revokedAt = NOW - 1),
    call: free,
    refusal: 'revoked_key',
    cost: 0,
    kept: { balanceRows: 1000 },
  },
  // trial_expired: a counted call once the trial's end has come; the free call still passes.
  {
    name: 'a trial past its end',
    plan: 'trial',
    edit: (r) => void (r.expiresAt = NOW - 1),
    call: counted(5),
    refusal: 'trial_expired',
    cost: 0,
    kept: { callsUsed: 0 },
  },
  {
    name: 'a trial past its end, on the free call',
    plan: 'trial',
    edit: (r) => void (r.expiresAt = NOW - 1),
    call: free,
    refusal: null,
    cost: 0,
    kept: { callsUsed: 0 },
  },
  {
    name: 'a trial at its very end',
    plan: 'trial',
    edit: (r) => void (r.expiresAt = NOW),
    call: counted(5),
    refusal: 'trial_expired',
    cost: 0,
    kept: { callsUsed: 0 },
  },
  // trial_exhausted: its calls used up (expiry first when both).
  {
    name: 'a trial used up',
    plan: 'trial',
    edit: (r) => void (r.callsUsed = limitOf('trial')),
    call: counted(5),
    refusal: 'trial_exhausted',
    cost: 0,
    kept: { callsUsed: limitOf('trial') },
  },
  {
    name: 'a trial used up and past its end',
    plan: 'trial',
    edit: (r) => void ((r.callsUsed = limitOf('trial')), (r.expiresAt = NOW - 1)),
    call: counted(5),
    refusal: 'trial_expired',
    cost: 0,
    kept: { callsUsed: limitOf('trial') },
  },
  {
    name: 'a trial with one call left',
    plan: 'trial',
    edit: (r) => void (r.callsUsed = limitOf('trial') - 1),
    call: counted(5),
    refusal: null,
    cost: 0,
    kept: { callsUsed: limitOf('trial') },
  },
  // quota_exhausted: a monthly quota used up this month; the free call passes; a new month starts again.
  {
    name: 'a quota used up',
    plan: 'team',
    edit: (r) => void (r.callsUsed = limitOf('team')),
    call: counted(5),
    refusal: 'quota_exhausted',
    cost: 0,
    kept: { callsUsed: limitOf('team'), periodEnd: MONTH_END },
  },
  {
    name: 'a quota used up, on the free call',
    plan: 'business',
    edit: (r) => void (r.callsUsed = limitOf('business')),
    call: free,
    refusal: null,
    cost: 0,
    kept: { callsUsed: limitOf('business') },
  },
  {
    name: 'a quota used up last month',
    plan: 'enterprise',
    edit: (r) =>
      void (
        (r.callsUsed = limitOf('enterprise')),
        (r.periodStart = MONTH_START - 30 * DAY),
        (r.periodEnd = MONTH_START)
      ),
    call: counted(5),
    refusal: null,
    cost: 0,
    kept: { callsUsed: 1, periodStart: MONTH_START, periodEnd: MONTH_END },
  },
  {
    name: 'a quota used up, a call on the first of next month',
    plan: 'team',
    edit: (r) => void (r.callsUsed = limitOf('team')),
    call: counted(5, MONTH_END),
    refusal: null,
    cost: 0,
    kept: { callsUsed: 1, periodStart: MONTH_END, periodEnd: Date.UTC(2027, 0, 1) },
  },
  // insufficient_balance: the price (at least the minimum) above the balance; said, not charged.
  {
    name: 'a balance short of the minimum',
    plan: 'payg',
    edit: (r) => void (r.balanceRows = MIN - 1),
    call: counted(1),
    refusal: 'insufficient_balance',
    cost: MIN,
    kept: { balanceRows: MIN - 1, callsUsed: 0 },
  },
  {
    name: 'a balance short of the rows',
    plan: 'payg',
    call: counted(1001),
    refusal: 'insufficient_balance',
    cost: 1001,
    kept: { balanceRows: 1000, callsUsed: 0 },
  },
  {
    name: 'a balance short, a million calls made',
    plan: 'payg',
    edit: (r) => void ((r.balanceRows = 3), (r.callsUsed = 10 ** 6)),
    call: counted(5),
    refusal: 'insufficient_balance',
    cost: MIN,
    kept: { balanceRows: 3, callsUsed: 10 ** 6 },
  },
  // admitted: counted, and a pay-as-you-go call charged its price.
  {
    name: 'a fresh key',
    plan: 'team',
    call: counted(5),
    refusal: null,
    cost: 0,
    kept: { callsUsed: 1, balanceRows: null },
  },
  {
    name: 'a quota with one call left',
    plan: 'business',
    edit: (r) => void (r.callsUsed = limitOf('business') - 1),
    call: counted(5),
    refusal: null,
    cost: 0,
    kept: { callsUsed: limitOf('business') },
  },
  {
    name: 'pay as you go, fewer rows than the minimum',
    plan: 'payg',
    call: counted(1),
    refusal: null,
    cost: MIN,
    kept: { callsUsed: 1, balanceRows: 1000 - MIN },
  },
  {
    name: 'pay as you go, the whole balance',
    plan: 'payg',
    call: counted(1000),
    refusal: null,
    cost: 1000,
    kept: { callsUsed: 1, balanceRows: 0 },
  },
  {
    name: 'pay as you go, nothing served (304)',
    plan: 'payg',
    call: counted(null),
    refusal: null,
    cost: 0,
    kept: { callsUsed: 1, balanceRows: 1000 },
  },
  {
    name: 'pay as you go, the free call',
    plan: 'payg',
    call: free,
    refusal: null,
    cost: 0,
    kept: { callsUsed: 0, balanceRows: 1000 },
  },
  {
    name: 'pay as you go, no monthly period: a million calls made',
    plan: 'payg',
    edit: (r) => void (r.callsUsed = 10 ** 6),
    call: counted(20),
    refusal: null,
    cost: 20,
    kept: { callsUsed: 10 ** 6 + 1, balanceRows: 980, periodEnd: null },
  },
];

/** A key of `plan`, made a day before NOW with 1,000 prepaid rows if pay as you go; `n` keeps texts apart. */
function key(plan: PlanId, n: number | string, edit?: (r: KeyRecord) => void): KeyRecord {
  const record = newRecord(plan, `igk_${plan}_contract_${n}`, `contract-hash-${plan}-${n}`, NOW - DAY, null, 1000);
  edit?.(record);
  return record;
}

let charges = 0;
const step = (keyId: string, call: MeterCase['call']): ChargeStep => ({
  keyId,
  ...call,
  chargeId: `contract-${++charges}`,
});

/** Runs the store contract on one store. */
export function runStoreContract({ name, open, skip = null }: StoreContract): void {
  const cases = (title: string, body: (store: OpenedStore) => Promise<void>) =>
    test(title, async () => {
      const store = await open();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    });

  describe.skipIf(skip !== null)(`the store contract: ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    test('the cases reach every row of the metering decision table', () => {
      const reached = new Set(meterCases.map((c) => decide(readCall(key(c.plan, 0, c.edit), c.call).facts)));
      expect(meteringTable.filter((row) => !reached.has(row))).toEqual([]);
    });

    cases(
      'every row of the metering decision table: admitted, counted and charged, or refused, as the table says',
      async ({ keyStore }) => {
        for (const [i, c] of meterCases.entries()) {
          const record = key(c.plan, `meter-${i}`, c.edit);
          await keyStore.insert(record);
          const outcome = await keyStore.admitAndCharge(step(record.keyId, c.call));
          expect({ refusal: outcome.refusal, cost: outcome.cost }, c.name).toEqual({
            refusal: c.refusal,
            cost: c.cost,
          });
          expect(outcome.record, c.name).toMatchObject(c.kept);
          expect(await keyStore.byId(record.keyId), `${c.name}: as kept`).toMatchObject(c.kept);
        }
      },
    );

    cases(
      'a key is kept by its hash alone, found by hash and id, listed in the order made, and once',
      async ({ keyStore }) => {
        const [a, b] = [key('team', 'keys-a'), key('payg', 'keys-b')];
        expect(await keyStore.insert(a)).toBe(true);
        expect(await keyStore.insert(b)).toBe(true);
        expect(await keyStore.insert({ ...key('team', 'keys-c'), hash: a.hash })).toBe(false);
        expect(await keyStore.byHash(a.hash)).toEqual(a);
        expect(await keyStore.byId(b.keyId)).toEqual(b);
        expect(await keyStore.byHash('no-such-hash')).toBeUndefined();
        expect((await keyStore.list()).map((r) => r.keyId)).toEqual([a.keyId, b.keyId]);
        expect(JSON.stringify(await keyStore.list())).not.toMatch(/contract_keys/);
      },
    );

    cases(
      'a key revoked is revoked once, at its first revocation; a key not there is not changed',
      async ({ keyStore }) => {
        const record = key('team', 'revoke');
        await keyStore.insert(record);
        const revoke = (at: number) => keyStore.update(record.keyId, (r) => void (r.revokedAt ??= at));
        expect(await revoke(NOW)).toMatchObject({ revokedAt: NOW });
        expect(await revoke(NOW + 1)).toMatchObject({ revokedAt: NOW });
        expect(await keyStore.byId(record.keyId)).toMatchObject({ revokedAt: NOW });
        expect(await keyStore.update('key_missing', (r) => void (r.revokedAt = NOW))).toBeUndefined();
        expect((await keyStore.admitAndCharge(step(record.keyId, counted(1)))).refusal).toBe('revoked_key');
      },
    );

    cases(
      'counted calls are counted one each and free calls not; a control call sets the count',
      async ({ keyStore }) => {
        const record = key('team', 'usage');
        await keyStore.insert(record);
        for (let i = 0; i < 5; i++) await keyStore.admitAndCharge(step(record.keyId, counted(3)));
        await keyStore.admitAndCharge(step(record.keyId, free));
        expect(await keyStore.byId(record.keyId)).toMatchObject({ callsUsed: 5 });
        await keyStore.update(record.keyId, (r) => void (r.callsUsed = limitOf('team') - 1));
        expect(await keyStore.admitAndCharge(step(record.keyId, counted(3)))).toMatchObject({
          refusal: null,
          record: { callsUsed: limitOf('team') },
        });
        expect((await keyStore.admitAndCharge(step(record.keyId, counted(3)))).refusal).toBe('quota_exhausted');
      },
    );

    cases(
      'a quota renews on the first of the month: a refused call rolls nothing over, the first admitted one does',
      async ({ keyStore }) => {
        const record = key('team', 'month', (r) => void (r.callsUsed = limitOf('team')));
        await keyStore.insert(record);
        expect((await keyStore.admitAndCharge(step(record.keyId, counted(1, MONTH_END - 1)))).refusal).toBe(
          'quota_exhausted',
        );
        expect(await keyStore.byId(record.keyId)).toMatchObject({ callsUsed: limitOf('team'), periodEnd: MONTH_END });
        await keyStore.admitAndCharge(step(record.keyId, counted(1, MONTH_END)));
        await keyStore.admitAndCharge(step(record.keyId, counted(1, MONTH_END + DAY)));
        expect(await keyStore.byId(record.keyId)).toMatchObject({
          callsUsed: 2,
          periodStart: MONTH_END,
          periodEnd: Date.UTC(2027, 0, 1),
        });
      },
    );

    cases(
      'a pay-as-you-go call taken back is neither counted nor charged; a top-up adds to the balance',
      async ({ keyStore }) => {
        const record = key('payg', 'refund');
        await keyStore.insert(record);
        const charge = step(record.keyId, counted(40));
        const outcome = await keyStore.admitAndCharge(charge);
        expect(outcome).toMatchObject({ refusal: null, cost: 40, record: { callsUsed: 1, balanceRows: 960 } });
        await keyStore.refund(record.keyId, true, outcome.cost, charge.chargeId);
        expect(await keyStore.byId(record.keyId)).toMatchObject({ callsUsed: 0, balanceRows: 1000 });
        await keyStore.update(record.keyId, (r) => void (r.balanceRows = (r.balanceRows ?? 0) + 2 ** 40));
        expect(await keyStore.byId(record.keyId)).toMatchObject({ balanceRows: 1000 + 2 ** 40 });
      },
    );

    cases(
      "one live trial per e-mail hash, a new one once it has ended or is used up, and the minute's cap",
      async ({ keyStore }) => {
        const trial = (n: number, email: string) =>
          newRecord('trial', `igk_trial_contract_${n}`, `contract-trial-${n}`, NOW, email, 0);
        const open = { perMinute: null, at: 0 };
        expect(await keyStore.insertTrial(trial(1, 'e1'), NOW, open)).toBe('inserted');
        expect(await keyStore.insertTrial(trial(2, 'e1'), NOW, open)).toBe('live');
        expect(await keyStore.insertTrial(trial(3, 'e1'), NOW + 7 * DAY, open)).toBe('inserted');
        const used = trial(4, 'e2');
        expect(await keyStore.insertTrial(used, NOW, open)).toBe('inserted');
        await keyStore.update(used.keyId, (r) => void (r.callsUsed = limitOf('trial')));
        expect(await keyStore.insertTrial(trial(5, 'e2'), NOW, open)).toBe('inserted');
        const capped = { perMinute: 2, at: 0 };
        expect(await keyStore.insertTrial(trial(6, 'e6'), NOW, capped)).toBe('inserted');
        expect(await keyStore.insertTrial(trial(7, 'e7'), NOW, capped)).toBe('inserted');
        expect(await keyStore.insertTrial(trial(8, 'e8'), NOW, capped)).toEqual({ wait: expect.any(Number) as number });
        expect(await keyStore.byHash('contract-trial-8')).toBeUndefined();
      },
    );

    cases(
      'trials that ended before a time are pruned with what points at them; other keys stay',
      async ({ keyStore }) => {
        const trial = newRecord('trial', 'igk_trial_contract_prune', 'contract-prune', NOW, 'e-prune', 0);
        const team = key('team', 'prune');
        await keyStore.insertTrial(trial, NOW, { perMinute: null, at: 0 });
        await keyStore.insert(team);
        expect(await keyStore.pruneTrials(trial.expiresAt!)).toBe(0);
        expect(await keyStore.pruneTrials(trial.expiresAt! + 1)).toBe(1);
        expect(await keyStore.byHash('contract-prune')).toBeUndefined();
        expect((await keyStore.list()).map((r) => r.keyId)).toEqual([team.keyId]);
        expect(
          await keyStore.insertTrial({ ...trial, keyId: 'key_again', hash: 'contract-again' }, NOW, {
            perMinute: null,
            at: 0,
          }),
        ).toBe('inserted');
      },
    );

    cases('a named value is kept by the first to claim it, and changed from what is kept', async ({ keyStore }) => {
      expect(await keyStore.getMeta('clock')).toBeUndefined();
      expect(await keyStore.claimMeta('clock', 'first')).toBe('first');
      expect(await keyStore.claimMeta('clock', 'second')).toBe('first');
      expect(await keyStore.changeMeta('clock', (v) => `${v}+1`)).toBe('first+1');
      expect(await keyStore.getMeta('clock')).toBe('first+1');
      expect(await keyStore.getMeta('cursor_secret')).toBeUndefined();
    });

    cases(
      'a token bucket gives its capacity, then says how long to wait; a peek takes none; a token given back is there',
      async ({ limiter }) => {
        // One token in 1,000 s: no refill within the test, so nothing here depends on timing.
        const [capacity, rate] = [3, 0.001];
        expect(await limiter.peek('failed-auth', 'addr', capacity, rate)).toBe(0);
        for (let i = capacity - 1; i >= 0; i--) {
          const taken = await limiter.take('failed-auth', 'addr', capacity, rate);
          expect({ wait: taken.wait, left: Math.floor(taken.left) }).toEqual({ wait: 0, left: i });
        }
        expect((await limiter.take('failed-auth', 'addr', capacity, rate)).wait).toBeGreaterThan(900);
        expect(await limiter.peek('failed-auth', 'addr', capacity, rate)).toBeGreaterThan(900);
        expect((await limiter.take('failed-auth', 'other', capacity, rate)).wait, 'another bucket').toBe(0);
        await limiter.giveBack('failed-auth', 'addr', capacity, rate);
        expect((await limiter.take('failed-auth', 'addr', capacity, rate)).wait).toBe(0);
      },
    );
  });
}
