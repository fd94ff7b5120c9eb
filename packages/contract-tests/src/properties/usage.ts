/** What calls spend: the rate, the account, what each call costs. */
import fc from 'fast-check';
import { operationById, plans } from '@investor-graph/contract';
import { listOperations, planRule } from '../core/context.ts';
import { valueShown } from '../shown/failure-text.ts';
import {
  type Property,
  DAY,
  assert,
  expectStatus,
  expectActions,
  planServes,
  isoSecond,
  smallestFiles,
  burstUntilLimited,
} from './support.ts';

export const rate: Property = {
  id: 'rate',
  title: "a burst above the plan's rate meets 429 with Retry-After, and honouring it succeeds",
  spec: ['8. Limits', '7. Errors'],
  assumed: ['rate-limit-headers'],
  skip: (ctx) =>
    ctx.config.allowRate ? null : 'the burst above the rate was left out (--no-rate-burst, or allowRate unset)',
  cost: (ctx) => ({
    calls: Math.ceil(planRule(ctx).rate_per_second * 3) + 2,
    rows: (Math.ceil(planRule(ctx).rate_per_second * 3) + 2) * ctx.client.rowCost(1),
  }),
  // Only what the plan serves: a burst on a feature it lacks meets 402s, not the rate. One burst a
  // run: another shows nothing the first did not, at three seconds' worth of calls each.
  arbitrary: (ctx) =>
    fc.record({
      op: fc.constantFrom(
        ...listOperations.filter((o) => !o.path.includes('{') && o.operationId !== 'listChanges' && planServes(ctx, o)),
      ),
    }),
  examples: () => [{ op: operationById('listFirms') }],
  once: true,
  async check(ctx, { op }) {
    const burst = Math.ceil(planRule(ctx).rate_per_second * 3);
    const answers = await burstUntilLimited(ctx, burst, () =>
      Promise.all(
        Array.from({ length: burst }, () =>
          ctx.client.call(`${op.path}?limit=1`, { rows: 1, honour429: false, unpaced: true }),
        ),
      ),
    );
    const limited = answers.find((a) => a.status === 429);
    assert(
      limited,
      `${burst} calls at once to ${op.path} on a ${planRule(ctx).rate_per_second} req/s plan`,
      'a 429 among them',
      `only ${[...new Set(answers.map((a) => a.status))].join(', ')}`,
    );
    const wait = Number(limited.headers.get('retry-after'));
    // The contract's RetryAfter: a whole number of seconds, at least 1; more than a minute would be no plan's rate.
    assert(
      Number.isInteger(wait) && wait >= 1 && wait <= 60,
      'a 429 of the burst',
      'Retry-After a whole number of seconds from 1 to 60',
      `Retry-After ${valueShown(limited.headers.get('retry-after'))}`,
    );
    expectActions(limited, 'a 429');
    await new Promise((r) => setTimeout(r, wait * 1000 + 50));
    const after = await ctx.client.call(`${op.path}?limit=1`, { rows: 1, honour429: false, unpaced: true });
    expectStatus(after, 200, `a call after waiting Retry-After ${wait}`);
  },
};

export const account: Property = {
  id: 'account',
  title: 'the account lists the key by its prefix and last four characters, never whole, and reading it is free',
  spec: ['5. Authentication'],
  assumed: ['account', 'trial-key-response'],
  skip: () => null,
  cost: () => ({ calls: 2, rows: 0 }),
  arbitrary: () => fc.constant(null),
  once: true,
  async check(ctx) {
    const first = await ctx.client.call('/api/v1/account', { rows: 0 });
    expectStatus(first, 200, 'GET /api/v1/account');
    const second = await ctx.client.call('/api/v1/account', { rows: 0 });
    expectStatus(second, 200, 'GET /api/v1/account again');
    const [a, b] = [first.body.data, second.body.data];
    assert(
      a?.plan?.id === ctx.config.plan,
      `the account of a ${ctx.config.plan} key`,
      `plan.id ${ctx.config.plan}`,
      `plan.id ${valueShown(a?.plan?.id)}`,
    );
    // Free: neither counted nor charged (DECISIONS.md#account).
    assert(
      b.usage.calls_used === a.usage.calls_used,
      'the account read twice',
      `calls_used ${a.usage.calls_used} both times (the account call is free)`,
      `${a.usage.calls_used}, then ${b.usage.calls_used}`,
    );
    if (ctx.config.plan === 'payg')
      assert(
        b.balance?.prepaid_rows === a.balance?.prepaid_rows,
        'the account read twice',
        `prepaid_rows ${a.balance?.prepaid_rows} both times (the account call is free)`,
        `${a.balance?.prepaid_rows}, then ${b.balance?.prepaid_rows}`,
      );
    else
      assert(
        a.balance === null,
        `the account of a ${ctx.config.plan} key`,
        'balance null (only pay as you go has one)',
        `balance ${valueShown(a.balance)}`,
      );
    // The key the run holds is listed by its last four characters, and shown nowhere whole
    // (the key-not-echoed rule reads the whole answer; this reads where a key would be listed).
    const key = ctx.client.options.key ?? '';
    const keys: any[] = Array.isArray(a.keys) ? a.keys : [];
    assert(
      keys.some((k) => k?.last4 === key.slice(-4)),
      "the account's keys",
      "one whose last4 is the run's key's last four characters",
      `last4 ${keys.map((k) => valueShown(k?.last4)).join(', ') || 'of no key'}`,
    );
    // A trial lives 7 days or 1,000 calls: its account says so, no control API needed.
    const trial = plans.trial;
    if (ctx.config.plan === 'trial') {
      assert(
        a.usage.calls_limit === trial.calls_limit,
        "a trial's account",
        `calls_limit ${trial.calls_limit}, as the spec says`,
        `${a.usage.calls_limit}`,
      );
      const mine = keys.find((k) => k?.last4 === key.slice(-4));
      const days = (Date.parse(mine?.expires_at) - Date.parse(mine?.created_at)) / DAY;
      assert(
        days === trial.key_lifetime_days,
        "a trial's account",
        `a key that expires ${trial.key_lifetime_days} days after it was made`,
        `one made ${mine?.created_at} that expires ${mine?.expires_at}, ${days} days`,
      );
    }
    for (const k of keys) {
      for (const [field, value] of Object.entries(k ?? {}))
        assert(
          typeof value !== 'string' || !key || !value.includes(key),
          "the account's keys",
          'the key never whole',
          `the whole key in ${field}`,
        );
      assert(
        typeof k?.prefix !== 'string' || k.prefix === '' || /^igk_[a-z]+_$/.test(k.prefix),
        "the account's keys",
        'a prefix of igk_<plan>_ and never more of the key',
        `a prefix of ${String(k?.prefix).length} characters`,
      );
    }
  },
};

export const billing: Property = {
  id: 'billing',
  title:
    'what a call costs, as the free account shows it: an error nothing, a HEAD what its GET ' +
    'would, the feed a row an item (pay as you go), a dump download one call',
  spec: ['8. Limits'],
  assumed: [
    'pay-as-you-go-billing',
    'plan-and-usage-in-the-envelope',
    'http-conventions',
    'changes-feed',
    'exports-manifest-and-files',
  ],
  skip: () => null,
  cost: (ctx) => ({ calls: 10, rows: ctx.client.rowCost(2) + ctx.client.rowCost(25) + ctx.client.rowCost(1) }),
  arbitrary: () => fc.constant(null),
  once: true,
  async check(ctx) {
    const payg = ctx.config.plan === 'payg';
    const usage = async () => {
      const account = await ctx.client.call('/api/v1/account', { rows: 0 });
      expectStatus(account, 200, '/api/v1/account');
      return account.body.data.usage as { calls_used: number; balance_rows: number | null };
    };
    const moved = (
      before: { calls_used: number; balance_rows: number | null },
      after: typeof before,
      calls: number,
      rows: number,
      what: string,
    ) => {
      assert(
        after.calls_used === before.calls_used + calls,
        what,
        calls ? `calls_used up by ${calls}, to ${before.calls_used + calls}` : `calls_used ${before.calls_used} still`,
        `${after.calls_used}, from ${before.calls_used}`,
      );
      if (payg)
        assert(
          after.balance_rows === before.balance_rows! - rows,
          what,
          rows
            ? `balance_rows down by ${rows}, to ${before.balance_rows! - rows}`
            : `balance_rows ${before.balance_rows} still`,
          `${after.balance_rows}, from ${before.balance_rows}`,
        );
    };
    const start = await usage();
    const missing = await ctx.client.call(`/api/v1/firms/no-such-firm-${ctx.config.seed}`, { rows: 0 });
    expectStatus(missing, 404, 'a firm that does not exist');
    const afterError = await usage();
    moved(start, afterError, 0, 0, 'the account after a 404 (an error costs nothing and is no call)');
    const head = await ctx.client.call('/api/v1/firms?limit=2', { method: 'HEAD', rows: 2 });
    expectStatus(head, 200, 'HEAD /api/v1/firms?limit=2');
    const afterHead = await usage();
    moved(afterError, afterHead, 1, ctx.client.rowCost(2), 'the account after a HEAD (counted and charged as its GET)');
    let last = afterHead;
    if (planRule(ctx).changes_feed) {
      const feed = await ctx.client.call(
        `/api/v1/changes?since=${isoSecond(Date.parse(ctx.asOf) - 365 * DAY)}&limit=25`,
        { rows: 25 },
      );
      expectStatus(feed, 200, 'a page of the changes feed');
      const items = feed.body.data.length;
      if (payg)
        assert(
          feed.body.usage.rows_charged === ctx.client.rowCost(items),
          `a feed page of ${items} items`,
          `rows_charged ${ctx.client.rowCost(items)} (every item a row, at least the minimum a call)`,
          `${feed.body.usage.rows_charged}`,
        );
      const afterFeed = await usage();
      moved(afterHead, afterFeed, 1, ctx.client.rowCost(items), `the account after a feed page of ${items} items`);
      last = afterFeed;
    }
    if (planRule(ctx).exports) {
      const manifest = await ctx.client.call('/api/v1/exports?limit=1', { rows: 1 });
      expectStatus(manifest, 200, '/api/v1/exports');
      const file = smallestFiles(manifest.body.data[0])[0];
      if (!file) return;
      const download = await ctx.client.call(new URL(file.url, 'http://service.invalid').pathname, {
        rows: 0,
        raw: true,
      });
      expectStatus(download, 200, `the dump file ${file.name}`);
      moved(last, await usage(), 2, 0, 'the account after the manifest and a download (a call each)');
    }
  },
};
