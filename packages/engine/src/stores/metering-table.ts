/**
 * What every key store's atomic steps decide, written once: above all the metering decision table
 * (a key as stored and a call: admitted, counted and charged what; or refused, with which problem
 * code). The stores hold state and run this: the memory and SQLite stores through `meter` below,
 * the Redis store's Lua through the rows generated from `meteringTable` (the mock's
 * stores/redis/scripts.ts), and the mock's store-contract suite runs every row on every store.
 * Pure data and functions over the plan table: nothing here reads or writes a store.
 */
import { plans } from '@investor-graph/contract/plans';
import type { ChargeOutcome, ChargeStep, KeyRecord, Refusal } from './key-store.ts';

/** What the table reads of a key as stored and a call, each yes or no. */
export interface MeterFacts {
  /** The key is revoked. */
  revoked: boolean;
  /** The call counts against the quota (every call but the free one: the account). */
  counted: boolean;
  /** The key is a trial's. */
  trial: boolean;
  /** The key's end (a trial's seventh day) has come. */
  ended: boolean;
  /** The period's calls (a monthly period past its end starts again at 0) have reached the plan's limit. */
  usedUp: boolean;
  /** The call's price is more than the prepaid balance (pay as you go). */
  short: boolean;
}

export type MeterFact = keyof MeterFacts;

/** One row: it fits when every fact it names has the value it gives; the first row that fits decides. */
export interface MeterRow {
  when: Partial<MeterFacts>;
  /** Refused with this problem code (DECISIONS.md words each); null: admitted, counted and charged. */
  refusal: Refusal | null;
  /** What the outcome says the call cost: its price (admitted, it is charged; refused, it is only said), or 0. */
  cost: 'price' | 'none';
}

/** The metering decision table (DECISIONS.md#exhausted-quota, #pay-as-you-go-billing); its last row fits every call. */
export const meteringTable: readonly MeterRow[] = [
  { when: { revoked: true }, refusal: 'revoked_key', cost: 'none' },
  { when: { counted: true, trial: true, ended: true }, refusal: 'trial_expired', cost: 'none' },
  { when: { counted: true, trial: true, usedUp: true }, refusal: 'trial_exhausted', cost: 'none' },
  { when: { counted: true, usedUp: true }, refusal: 'quota_exhausted', cost: 'none' },
  { when: { short: true }, refusal: 'insufficient_balance', cost: 'price' },
  { when: {}, refusal: null, cost: 'price' },
];

/** The row of the table that decides a call with these facts. */
export function decide(facts: MeterFacts): MeterRow {
  return meteringTable.find((row) =>
    Object.entries(row.when).every(([fact, value]) => facts[fact as MeterFact] === value),
  )!;
}

/** The calendar month (UTC) `now` falls in, as [first of it, first of the next). */
export function monthBounds(now: number): [number, number] {
  const d = new Date(now);
  return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)];
}

/** What a call is, read on a key as stored: the table's facts, its price, and whether a monthly period rolls over. */
export interface CallReading {
  facts: MeterFacts;
  /** Rows a pay-as-you-go call serving `rows` costs, at least the plan's minimum; 0 for any other call. */
  price: number;
  /** A counted call on a monthly plan past its period's end starts a new period (kept only when admitted). */
  rolled: boolean;
}

/** Reads `step` on `record` as stored, for the table. */
export function readCall(record: KeyRecord, step: Pick<ChargeStep, 'now' | 'counted' | 'rows'>): CallReading {
  const rule = plans[record.plan];
  const payg = record.plan === 'payg';
  const rolled =
    step.counted && rule.calls_period === 'P1M' && record.periodEnd !== null && step.now >= record.periodEnd;
  const used = rolled ? 0 : record.callsUsed;
  const price = payg && step.counted && step.rows !== null ? Math.max(step.rows, plans.payg.min_rows_per_call ?? 0) : 0;
  return {
    facts: {
      revoked: record.revokedAt !== null,
      counted: step.counted,
      trial: record.plan === 'trial',
      ended: record.expiresAt !== null && step.now >= record.expiresAt,
      usedUp: rule.calls_limit !== null && used >= rule.calls_limit,
      short: payg && price > (record.balanceRows ?? 0),
    },
    price,
    rolled,
  };
}

/**
 * A store's admit-and-charge, on the key as stored: the table's row, and, admitted, the key as it
 * is to be kept (a new period, one more call counted, the price taken off the balance). A refused
 * call changes nothing: its outcome holds the key as stored.
 */
export function meter(stored: KeyRecord, step: ChargeStep): ChargeOutcome {
  const { facts, price, rolled } = readCall(stored, step);
  const row = decide(facts);
  const cost = row.cost === 'price' ? price : 0;
  const record = { ...stored };
  if (row.refusal !== null) return { record, cost, refusal: row.refusal };
  if (rolled) [record.periodStart, record.periodEnd, record.callsUsed] = [...monthBounds(step.now), 0];
  if (step.counted) record.callsUsed++;
  if (record.plan === 'payg') record.balanceRows = (record.balanceRows ?? 0) - price;
  return { record, cost, refusal: null };
}

/** A store's refund: the key with an admitted call taken back (not counted, its cost back on the balance). */
export function refunded(stored: KeyRecord, counted: boolean, cost: number): KeyRecord {
  const record = { ...stored };
  if (counted) record.callsUsed = Math.max(0, record.callsUsed - 1);
  if (record.plan === 'payg') record.balanceRows = (record.balanceRows ?? 0) + cost;
  return record;
}

/** Whether a trial key is live at `now` (one per e-mail address): not revoked, not ended, calls left. */
export function liveTrial(record: KeyRecord, now: number): boolean {
  const { facts } = readCall(record, { now, counted: true, rows: null });
  return !facts.revoked && !facts.ended && !facts.usedUp;
}
