/** Conformance cases of metering: rates, quotas, pay as you go, exact counters, the account call left free. */
import { expect } from 'vitest';
import { plans } from '@investor-graph/contract';
import type { ConformanceContext } from './context.ts';

export function meteringCases(c: ConformanceContext): void {
  c.it(
    "over the plan's rate: 429 with Retry-After, RateLimit headers and a higher plan; honouring it succeeds",
    async () => {
      const { key } = await c.newKey('team');
      const rate = plans.team.rate_per_second;
      const sent = rate * 3;
      const answers = await Promise.all(Array.from({ length: sent }, () => c.call('/api/v1/firms?limit=1', { key })));
      const ok = answers.filter((a) => a.status === 200);
      const limited = answers.filter((a) => a.status === 429);
      expect(ok.length + limited.length).toBe(sent);
      expect(ok.length).toBeGreaterThanOrEqual(rate);
      expect(limited.length).toBeGreaterThan(0);
      const one = limited[0]!;
      expect(Number(one.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(one.headers.get('ratelimit-policy')).toBe(`"default";q=${rate};w=1`);
      expect(one.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
      expect(one.body.code).toBe('rate_limited');
      expect(one.body.actions.map((a: any) => a.type)).toEqual(['subscribe', 'book_call']);
      expect(one.body.actions[0].plan).toBe('business');
      await new Promise((r) => setTimeout(r, Number(one.headers.get('retry-after')) * 1000));
      const after = await c.call('/api/v1/account', { key });
      expect(after.status).toBe(200);
      expect(after.body.data.usage.calls_used, 'only accepted calls are counted').toBe(ok.length);
    },
    20_000,
  );

  c.it('a used-up monthly quota is a 402 until the month rolls over', async () => {
    const mock = await c.setup({ now: '2026-11-29T12:00:00Z' });
    try {
      const { key, key_id } = await c.newKey('team', undefined, mock);
      const limit = plans.team.calls_limit!;
      await c.control(`/keys/${key_id}/usage`, { calls_used: limit - 1 }, 'PUT', mock);
      expect((await c.call('/api/v1/firms?limit=1', { key }, mock)).body.usage.calls_remaining).toBe(0);
      const over = await c.call('/api/v1/firms?limit=1', { key }, mock);
      expect(over.status).toBe(402);
      expect(over.body.code).toBe('quota_exhausted');
      expect(over.body.actions.map((a: any) => a.type)).toEqual(['subscribe', 'buy_prepaid_rows', 'book_call']);
      expect(over.body.actions[0].plan).toBe('business');
      const account = await c.call('/api/v1/account', { key }, mock);
      expect(account.status, 'the account call is free and still answers').toBe(200);
      await c.control('/clock/advance', { duration: 'P2D' }, 'POST', mock);
      const next = await c.call('/api/v1/firms?limit=1', { key }, mock);
      expect(next.status).toBe(200);
      expect(next.body.usage).toMatchObject({
        calls_used: 1,
        period_start: '2026-12-01T00:00:00Z',
        period_end: '2027-01-01T00:00:00Z',
      });
    } finally {
      await mock.close();
    }
  });

  c.it(
    'pay as you go charges max(rows, 10) from the balance and refuses a call it cannot cover, charging nothing',
    async () => {
      const { key, key_id } = await c.newKey('payg', 75);
      const small = await c.call('/api/v1/firms?limit=3', { key });
      expect(small.body.usage).toMatchObject({ rows_charged: plans.payg.min_rows_per_call, balance_rows: 65 });
      const big = await c.call('/api/v1/firms?limit=40', { key });
      expect(big.body.usage).toMatchObject({ rows_charged: 40, balance_rows: 25 });
      const refused = await c.call('/api/v1/firms?limit=30', { key });
      expect(refused.status).toBe(402);
      expect(refused.body.code).toBe('insufficient_balance');
      expect(refused.body.actions[0].type).toBe('buy_prepaid_rows');
      const account = await c.call('/api/v1/account', { key });
      expect(account.body.data.balance).toEqual({ prepaid_rows: 25, value_usd: 0.13 });
      expect(account.body.data.usage.calls_used).toBe(2);
      await c.control(`/keys/${key_id}/top-up`, { rows: 1000 });
      expect((await c.call('/api/v1/firms?limit=30', { key })).body.usage.balance_rows).toBe(995);
    },
  );

  c.it(
    'counters and balance stay exact under many parallel requests',
    async () => {
      const { key } = await c.newKey('payg', 10_000);
      const sent = 40;
      const answers = await Promise.all(
        Array.from({ length: sent }, (_, i) => c.call(`/api/v1/firms?limit=${(i % 4) + 9}`, { key })),
      );
      const ok = answers.filter((a) => a.status === 200);
      const limited = answers.filter((a) => a.status === 429);
      expect(ok.length + limited.length).toBe(sent);
      const charged = ok.reduce((n, a) => n + a.body.usage.rows_charged, 0);
      expect(charged).toBe(ok.reduce((n, a) => n + Math.max(a.body.data.length, 10), 0));
      const usedNumbers = ok.map((a) => a.body.usage.calls_used).sort((a, b) => a - b);
      expect(usedNumbers, 'every accepted call got its own count').toEqual(usedNumbers.map((_, i) => i + 1));
      await new Promise((r) => setTimeout(r, 1100));
      const account = await c.call('/api/v1/account', { key });
      expect(account.body.data.usage.calls_used).toBe(ok.length);
      expect(account.body.data.balance.prepaid_rows).toBe(10_000 - charged);
    },
    20_000,
  );

  c.it('the account call is neither counted nor charged', async () => {
    const { key } = await c.newKey('payg', 100);
    const a = await c.call('/api/v1/account', { key });
    const b = await c.call('/api/v1/account', { key });
    expect(a.body.data.usage.calls_used).toBe(0);
    expect(b.body.data.usage).toMatchObject({ calls_used: 0, rows_charged: 0, balance_rows: 100 });
  });
}
