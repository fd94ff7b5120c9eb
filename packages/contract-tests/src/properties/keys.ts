/**
 * Keys and what they may do: a missing or wrong key, plan features, used-up, revoked and unpaid
 * keys (the trial's: trial.ts).
 */
import fc from 'fast-check';
import { operationById, planIds, plans, trialKeyKeptDays } from '@investor-graph/contract';
import { dataOperations, planRule } from '../core/context.ts';
import {
  type Property,
  DAY,
  assert,
  codeShown,
  expectStatus,
  expectActions,
  isoSecond,
  control,
  requestFor,
  features,
  keylessElsewhere,
} from './support.ts';

export const auth: Property = {
  id: 'auth',
  title: 'no key or a wrong key is a 401 with a get_trial_key action, on every operation',
  spec: ['5. Authentication', '7. Errors'],
  assumed: ['actions', 'status-codes'],
  skip: () => null,
  cost: () => ({ calls: 1, rows: 0 }),
  arbitrary: () =>
    fc.record({
      op: fc.constantFrom(...dataOperations),
      pick: fc.nat(),
      key: fc.oneof(
        fc.constant(null),
        fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /^[\x21-\x7e]+$/.test(s)),
        fc
          .record({ plan: fc.constantFrom(...planIds), tail: fc.stringMatching(/^[A-Za-z0-9]{32}$/) })
          .map(({ plan, tail }) => `igk_${plan}_${tail}`),
      ),
      typo: fc.boolean(),
    }),
  // No key, a key of another form and a well-formed unknown one, on a list, a record and the account.
  examples: () => [
    { op: operationById('listFirms'), pick: 0, key: null },
    { op: operationById('getCompany'), pick: 0, key: 'not-a-key' },
    { op: operationById('getAccount'), pick: 0, key: `igk_team_${'A'.repeat(32)}` },
    // A call is authenticated before its query is looked at: a misspelt parameter is still a 401.
    { op: operationById('listRounds'), pick: 0, key: null, typo: true },
  ],
  async check(ctx, { op, pick, key, typo }) {
    const base = requestFor(ctx, op, pick, 1, Date.parse(ctx.asOf) - DAY);
    if (!base) return;
    const path = typo ? `${base}${base.includes('?') ? '&' : '?'}limt=1` : base;
    const answer = await ctx.client.call(path, { key });
    expectStatus(answer, 401, `${path} with ${key === null ? 'no key' : 'a wrong key'}`);
    expectActions(answer, path, 'get_trial_key');
  },
};

export const planFeatures: Property = {
  id: 'plan-features',
  title:
    'what the plan includes (the changes feed, the nightly dumps) is served, and what it lacks is a 402 with actions',
  spec: ['6. Events', '8. Limits', '7. Errors'],
  assumed: ['status-codes', 'actions'],
  skip: () => null,
  cost: (ctx) => ({ calls: 1, rows: ctx.client.rowCost(1) }),
  arbitrary: () => fc.record({ feature: fc.constantFrom(...features), daysBack: fc.integer({ min: 0, max: 30 }) }),
  // Each feature once, whether the plan has it or not.
  examples: () => features.map((feature) => ({ feature, daysBack: 1 })),
  async check(ctx, { feature, daysBack }: { feature: (typeof features)[number]; daysBack: number }) {
    const included = feature === 'changes' ? planRule(ctx).changes_feed : planRule(ctx).exports;
    const path =
      feature === 'changes'
        ? `/api/v1/changes?since=${isoSecond(Date.parse(ctx.asOf) - daysBack * DAY)}&limit=1`
        : '/api/v1/exports';
    const answer = await ctx.client.call(path, { rows: 1 });
    if (included) {
      expectStatus(
        answer,
        200,
        `${path}: the ${ctx.config.plan} plan includes ` +
          `${feature === 'changes' ? 'the changes feed' : 'the nightly dumps'}`,
      );
      return;
    }
    expectStatus(answer, 402, `${path} on ${ctx.config.plan}`);
    expectActions(answer, path, 'subscribe');
  },
};

export const keyStates: Property = {
  id: 'key-states',
  title:
    "with the mock's control API: a paid plan's used-up quota is a 402 quota_exhausted " +
    'offering a plan up, prepaid rows and a call, its account still read; a revoked key is a ' +
    '401 revoked_key, and stays one; a call a pay-as-you-go balance cannot cover is a 402 ' +
    "insufficient_balance that costs nothing; an ended trial's key is a 402 trial_expired " +
    'for trial_key_kept_days, then a 401 invalid_key',
  spec: ['3. States and transitions', '7. Errors', '8. Limits'],
  assumed: [
    'exhausted-quota',
    'key-scopes-expiry-and-revocation',
    'record-and-key-states',
    'account',
    'actions',
    'pay-as-you-go-billing',
    'trial-key-response',
  ],
  keyless: true,
  skip: (ctx) =>
    keylessElsewhere(ctx) ??
    (ctx.control
      ? null
      : "needs --use-control against the kit's mock (a month's calls, or a key to revoke, are the service's to give)"),
  cost: () => ({ calls: 9, rows: 4 }),
  arbitrary: () => fc.constant(null),
  once: true,
  async check(ctx) {
    const made = await control(ctx, '/keys', 'POST', { plan: 'team' });
    assert(made.status === 201, "the mock's control API, asked for a Team key", '201 with the key', `${made.status}`);
    const { key, key_id: keyId } = (await made.json()) as { key: string; key_id: string };
    const used = await control(ctx, `/keys/${keyId}/usage`, 'PUT', { calls_used: plans.team.calls_limit });
    assert(
      used.status === 200,
      "the mock's control API, asked to use up the Team key's calls",
      '200',
      `${used.status}`,
    );
    const answer = await ctx.client.call('/api/v1/firms?limit=1', { key, rows: 1 });
    expectStatus(answer, 402, 'a Team key past its monthly calls');
    assert(
      answer.body?.code === 'quota_exhausted',
      'a Team key past its monthly calls',
      'code quota_exhausted',
      codeShown(answer.body),
    );
    for (const type of ['subscribe', 'buy_prepaid_rows', 'book_call'])
      expectActions(answer, 'a used-up monthly quota', type);
    const account = await ctx.client.call('/api/v1/account', { key });
    expectStatus(account, 200, "a used-up quota's /api/v1/account (it can still read its account)");
    const revoked = await control(ctx, `/keys/${keyId}/revoke`, 'POST', {});
    assert(revoked.status === 200, "the mock's control API, asked to revoke the key", '200', `${revoked.status}`);
    const refused = await ctx.client.call('/api/v1/account', { key });
    expectStatus(refused, 401, 'a revoked key, even on /api/v1/account');
    assert(
      refused.body?.code === 'revoked_key',
      'a revoked key on /api/v1/account',
      'code revoked_key',
      codeShown(refused.body),
    );
    // No key state goes back: refused once, a revoked key stays refused.
    const again = await ctx.client.call('/api/v1/firms?limit=1', { key, rows: 1 });
    expectStatus(again, 401, 'a revoked key, called again after its first refusal');

    // Pay as you go: a call that would cost more than the balance is refused and costs nothing.
    const minimum = plans.payg.min_rows_per_call!;
    const topped = await control(ctx, '/keys', 'POST', { plan: 'payg', prepaid_rows: minimum + 5 });
    assert(
      topped.status === 201,
      "the mock's control API, asked for a pay-as-you-go key",
      '201 with the key',
      `${topped.status}`,
    );
    const payg = ((await topped.json()) as { key: string }).key;
    const dear = await ctx.client.call(`/api/v1/firms?limit=${minimum + 10}`, { key: payg, rows: minimum + 10 });
    expectStatus(dear, 402, `a page of ${minimum + 10} rows on a balance of ${minimum + 5}`);
    assert(
      dear.body?.code === 'insufficient_balance',
      'a call the balance cannot cover',
      'code insufficient_balance',
      codeShown(dear.body),
    );
    expectActions(dear, 'a call the balance cannot cover', 'buy_prepaid_rows');
    const balance = await ctx.client.call('/api/v1/account', { key: payg });
    expectStatus(balance, 200, "a pay-as-you-go key's /api/v1/account");
    assert(
      balance.body.data.balance?.prepaid_rows === minimum + 5,
      'the balance after a refused call',
      `prepaid_rows ${minimum + 5} still (a refused call costs nothing)`,
      `${balance.body.data.balance?.prepaid_rows}`,
    );

    // An ended trial's key is known for trial_key_kept_days past its end (402 trial_expired), then
    // not (401 invalid_key).
    const clock = await control(ctx, '/clock');
    assert(clock.status === 200, "the mock's control API, asked for the clock", '200 with the time', `${clock.status}`);
    const now = Date.parse(((await clock.json()) as { now: string }).now);
    const lifetime = plans.trial.key_lifetime_days!;
    for (const [endedDaysAgo, status, code] of [
      [trialKeyKeptDays - 1, 402, 'trial_expired'],
      [trialKeyKeptDays + 1, 401, 'invalid_key'],
    ] as const) {
      const trial = await control(ctx, '/keys', 'POST', {
        plan: 'trial',
        created_at: isoSecond(now - (lifetime + endedDaysAgo) * DAY),
      });
      assert(
        trial.status === 201,
        "the mock's control API, asked for a trial key made in the past",
        '201 with the key',
        `${trial.status}`,
      );
      const ended = await ctx.client.call('/api/v1/firms?limit=1', {
        key: ((await trial.json()) as { key: string }).key,
        rows: 1,
      });
      expectStatus(
        ended,
        status,
        `a trial key whose trial ended ${endedDaysAgo} days ago (known for ${trialKeyKeptDays} days past its end)`,
      );
      assert(
        ended.body?.code === code,
        `a trial key whose trial ended ${endedDaysAgo} days ago`,
        `code ${code}`,
        codeShown(ended.body),
      );
    }
  },
};
