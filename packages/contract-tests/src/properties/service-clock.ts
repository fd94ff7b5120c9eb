/**
 * What follows the service's clock and what does not: prepaid rows never expire, however old the
 * key; the rate limiter runs on real time, so moving the test clock refills no bucket.
 */
import fc from 'fast-check';
import { plans } from '@investor-graph/contract';
import { type Property, DAY, assert, control, expectStatus, isoSecond, keylessElsewhere } from './support.ts';

/** The clock's time, from the control API. */
async function clockNow(ctx: Parameters<Property['check']>[0]): Promise<number> {
  const answer = await control(ctx, '/clock');
  assert(answer.status === 200, "the mock's control API, asked for the clock", '200 with the time', `${answer.status}`);
  return Date.parse(((await answer.json()) as { now: string }).now);
}

export const serviceClock: Property = {
  id: 'service-clock',
  title:
    "with the mock's control API: a pay-as-you-go key made two years ago keeps its prepaid " +
    "rows; a key's rate limiter runs on real time, so moving the service's clock refills no bucket",
  spec: ['8. Limits'],
  assumed: ['pay-as-you-go-billing', 'rate-limit-headers'],
  keyless: true,
  skip: (ctx) =>
    keylessElsewhere(ctx) ??
    (ctx.control
      ? null
      : "needs --use-control against the kit's mock (a key made years ago, and a clock to move, " +
        "are the service's to give)"),
  // The old key's account and one call; up to three bursts of three seconds' worth of the trial's
  // rate and a call after each.
  cost: () => ({
    calls: 2 + 3 * (Math.ceil(plans.trial.rate_per_second * 3) + 1),
    rows: 2 + 3 * (Math.ceil(plans.trial.rate_per_second * 3) + 1),
  }),
  arbitrary: () => fc.constant(null),
  once: true,
  async check(ctx) {
    // Prepaid rows never expire: a balance bought two years ago is all there.
    const minimum = plans.payg.min_rows_per_call!;
    const madeAt = isoSecond((await clockNow(ctx)) - 730 * DAY);
    const made = await control(ctx, '/keys', 'POST', { plan: 'payg', prepaid_rows: minimum * 5, created_at: madeAt });
    assert(
      made.status === 201,
      `the mock's control API, asked for a pay-as-you-go key made at ${madeAt}`,
      '201 with the key',
      `${made.status}`,
    );
    const old = ((await made.json()) as { key: string }).key;
    const account = await ctx.client.call('/api/v1/account', { key: old, rows: 0 });
    expectStatus(account, 200, 'the account of a pay-as-you-go key made two years ago');
    assert(
      account.body.data.balance?.prepaid_rows === minimum * 5,
      `the account of a pay-as-you-go key made at ${madeAt}`,
      `the ${minimum * 5} prepaid rows bought (prepaid rows never expire)`,
      `prepaid_rows ${account.body.data.balance?.prepaid_rows}`,
    );
    const served = await ctx.client.call('/api/v1/firms?limit=1', { key: old, rows: 1 });
    expectStatus(served, 200, 'a call on prepaid rows bought two years ago');
    assert(
      served.body.usage?.balance_rows === minimum * 4,
      `a call of ${minimum} rows on a balance of ${minimum * 5} bought two years ago`,
      `balance_rows ${minimum * 4}`,
      `${served.body.usage?.balance_rows}`,
    );

    // The limiter runs on real time: a bucket emptied, then the service's clock moved on, is
    // still empty. A bucket refills one token in 1/rate of a real second: an answer served after
    // that long says nothing, and the burst is tried again (three times at most).
    const rate = plans.trial.rate_per_second;
    const keyMade = await control(ctx, '/keys', 'POST', { plan: 'trial' });
    assert(
      keyMade.status === 201,
      "the mock's control API, asked for a trial key",
      '201 with the key',
      `${keyMade.status}`,
    );
    const key = ((await keyMade.json()) as { key: string }).key;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const burst = await Promise.all(
        Array.from({ length: Math.ceil(rate * 3) }, () =>
          ctx.client.call('/api/v1/firms?limit=1', { key, rows: 1, honour429: false, unpaced: true }),
        ),
      );
      const emptied = performance.now();
      assert(
        burst.some((a) => a.status === 429),
        `${burst.length} calls at once on a trial key`,
        `a 429 among them (its rate is ${rate} a second)`,
        `only ${[...new Set(burst.map((a) => a.status))].join(', ')}`,
      );
      const moved = await control(ctx, '/clock/advance', 'POST', { seconds: 2 });
      assert(moved.status === 200, "the mock's control API, asked to move the clock 2 s", '200', `${moved.status}`);
      const after = await ctx.client.call('/api/v1/firms?limit=1', { key, rows: 1, honour429: false, unpaced: true });
      const waited = performance.now() - emptied;
      if (after.status === 429) return;
      assert(
        waited >= 1000 / rate,
        `a trial key whose bucket emptied ${waited.toFixed(0)} ms before (less than the ` +
          `${(1000 / rate).toFixed(0)} ms a token takes at ${rate} a second), after the service's ` +
          `clock moved 2 s`,
        'a 429 still (the limiter runs on real time, not the service clock)',
        `${after.status}`,
      );
      // Let the bucket fill before trying again.
      await new Promise((resolve) => setTimeout(resolve, 1_000 + 1000 / rate));
    }
  },
};
