/**
 * Conformance cases of keys: trials, refused keys, the round lag,
 * plan features (rates, quotas, pay as you go and counters: metering.ts).
 */
import { expect } from 'vitest';
import { plans } from '@investor-graph/contract';
import { AS_OF, DAY, type ConformanceContext } from './context.ts';

export function keyCases(c: ConformanceContext): void {
  c.it('a trial key is issued once per e-mail, shown once, and works', async () => {
    const email = `trial-${Date.now()}@example.com`;
    const issued = await c.call('/api/v1/keys/trial', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(issued.status).toBe(201);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(issued.body.key).toMatch(/^igk_trial_[A-Za-z0-9]{32}$/);
    expect(issued.body).toMatchObject({ plan: 'trial', calls_limit: 1000, calls_remaining: 1000 });
    expect(Date.parse(issued.body.expires_at) - Date.parse(AS_OF)).toBeGreaterThanOrEqual(7 * DAY - 60_000);
    const again = await c.call('/api/v1/keys/trial', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: email.toUpperCase() }),
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('trial_exists');
    expect(JSON.stringify(again.body)).not.toContain(issued.body.key);
    const account = await c.call('/api/v1/account', { key: issued.body.key });
    expect(account.status).toBe(200);
    expect(account.body.data.keys).toEqual([
      expect.objectContaining({ key_id: issued.body.key_id, last4: issued.body.key.slice(-4), prefix: 'igk_trial_' }),
    ]);
    expect(JSON.stringify(account.body)).not.toContain(issued.body.key);
    expect(JSON.stringify(account.body)).not.toContain(email);
  });

  c.it(
    'the trial call checks content type, JSON, e-mail syntax, unknown members and body size',
    async () => {
      // The open trial call is rate-limited per client: space the cases out as a client would.
      const post = (body: string, type = 'application/json') =>
        c.politely('/api/v1/keys/trial', { method: 'POST', headers: { 'content-type': type }, body });
      expect((await post('{"email":"a@example.com"}', 'text/plain')).status).toBe(415);
      expect((await post('{"email":"a@example.com"}', 'application/x-www-form-urlencoded')).body.code).toBe(
        'unsupported_media_type',
      );
      const cases: [string, number, string][] = [
        ['{"email":"not-an-address"}', 400, 'invalid_body'],
        ['{"email":""}', 400, 'invalid_body'],
        ['{}', 400, 'invalid_body'],
        ['{"email":"a@example.com","plan":"enterprise"}', 400, 'invalid_body'],
        ['{"email":', 400, 'invalid_body'],
        ['[]', 400, 'invalid_body'],
        ['"a@example.com"', 400, 'invalid_body'],
        [JSON.stringify({ email: `${'a'.repeat(5000)}@example.com` }), 413, 'payload_too_large'],
      ];
      for (const [body, status, code] of cases) {
        const answer = await post(body);
        expect(answer.status, body.slice(0, 60)).toBe(status);
        expect(answer.body.code, body.slice(0, 60)).toBe(code);
      }
      const bad = await post('{"email":"nope"}');
      expect(bad.body.errors[0].pointer).toBe('/email');
    },
    30_000,
  );

  c.it('no key, an unknown key and a revoked key are 401s with a trial-key action', async () => {
    const none = await c.call('/api/v1/firms');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('missing_key');
    const trialAction = none.body.actions.find((a: any) => a.type === 'get_trial_key');
    expect(trialAction).toMatchObject({
      method: 'POST',
      href: '/api/v1/keys/trial',
      content_type: 'application/json',
      body: { email: '{email}' },
    });
    expect(none.body.actions.map((a: any) => a.type)).toContain('book_call');
    expect((await c.call('/api/v1/firms', { key: 'igk_team_doesnotexist0000000000000000' })).body.code).toBe(
      'invalid_key',
    );
    expect((await c.call('/api/v1/firms', { headers: { authorization: 'Basic Zm9vOmJhcg==' } })).body.code).toBe(
      'invalid_key',
    );
    const { key, key_id } = await c.newKey('team');
    expect((await c.call('/api/v1/firms?limit=1', { key })).status).toBe(200);
    await c.control(`/keys/${key_id}/revoke`, {});
    const revoked = await c.call('/api/v1/firms?limit=1', { key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('revoked_key');
  });

  c.it(
    'a trial runs out after 1,000 calls and expires after 7 days, each a 402 with actions; 30 days past its end ' +
      'its key is dropped',
    async () => {
      const mock = await c.setup({ now: AS_OF });
      try {
        const { key, key_id } = await c.newKey('trial', undefined, mock);
        await c.control(`/keys/${key_id}/usage`, { calls_used: 999 }, 'PUT', mock);
        const last = await c.call('/api/v1/firms?limit=1', { key }, mock);
        expect(last.status).toBe(200);
        expect(last.body.usage).toMatchObject({ calls_used: 1000, calls_limit: 1000, calls_remaining: 0 });
        const over = await c.call('/api/v1/firms?limit=1', { key }, mock);
        expect(over.status).toBe(402);
        expect(over.body.code).toBe('trial_exhausted');
        expect(over.body.actions.map((a: any) => a.type)).toEqual(['subscribe', 'buy_prepaid_rows', 'book_call']);
        expect(over.body.actions[0].plan).toBe('team');
        const fresh = await c.newKey('trial', undefined, mock);
        expect((await c.call('/api/v1/firms?limit=1', { key: fresh.key }, mock)).status).toBe(200);
        await c.control('/clock/advance', { duration: 'P7D' }, 'POST', mock);
        const expired = await c.call('/api/v1/firms?limit=1', { key: fresh.key }, mock);
        expect(expired.status).toBe(402);
        expect(expired.body.code).toBe('trial_expired');
        // A trial made eight days ago through the control API is expired without moving the clock.
        const clockBefore = (await c.control('/clock', undefined, 'GET', mock)).now;
        const past = await c.control(
          '/keys',
          { plan: 'trial', created_at: new Date(Date.parse(clockBefore) - 8 * 86_400_000).toISOString() },
          'POST',
          mock,
        );
        expect((await c.call('/api/v1/firms?limit=1', { key: past.key }, mock)).body.code).toBe('trial_expired');
        expect(
          Date.parse((await c.control('/clock', undefined, 'GET', mock)).now) - Date.parse(clockBefore),
        ).toBeLessThan(60_000);
        const future = await c.call(
          '/__control/keys',
          {
            method: 'POST',
            body: JSON.stringify({ plan: 'trial', created_at: '2999-01-01T00:00:00Z' }),
            headers: { 'content-type': 'application/json' },
          },
          mock,
        );
        expect(future.status).toBe(400);
        // A trial issued to an address is told apart for 30 days past
        // its end, then dropped (DECISIONS.md#trial-key-response).
        const issued = await c.call(
          '/api/v1/keys/trial',
          {
            method: 'POST',
            key: null,
            body: JSON.stringify({ email: 'pruned-later@example.com' }),
            headers: { 'content-type': 'application/json' },
          },
          mock,
        );
        expect(issued.status).toBe(201);
        await c.control('/clock/advance', { duration: 'P36D' }, 'POST', mock);
        expect((await c.call('/api/v1/firms?limit=1', { key: issued.body.key }, mock)).body.code).toBe('trial_expired');
        await c.control('/clock/advance', { duration: 'P2D' }, 'POST', mock);
        expect((await c.call('/api/v1/firms?limit=1', { key: issued.body.key }, mock)).body.code).toBe('invalid_key');
      } finally {
        await mock.close();
      }
    },
  );

  c.it(
    'a trial key never sees rounds inside the 75-day lag, and has no changes feed',
    async () => {
      const trial = await c.newKey('trial');
      const team = await c.newKey('team');
      const cutoff = new Date(Date.parse(AS_OF) - plans.trial.round_lag_days * DAY).toISOString().slice(0, 10);
      const seen = await c.walk('/api/v1/rounds?announced_since=2026-06-01', trial.key, 100);
      for (const r of seen) expect(r.announced_on <= cutoff, r.announced_on).toBe(true);
      const all = await c.walk('/api/v1/rounds?announced_since=2026-06-01', team.key, 500);
      expect(all.some((r) => r.announced_on > cutoff)).toBe(true);
      const feed = await c.call('/api/v1/changes?since=2026-11-01T00:00:00Z', { key: trial.key });
      expect(feed.status).toBe(402);
      expect(feed.body.code).toBe('plan_feature_unavailable');
      expect(feed.body.actions.find((a: any) => a.type === 'subscribe').plan).toBe('team');
    },
    60_000,
  );

  c.it('exports are for Business and Enterprise only', async () => {
    for (const plan of ['trial', 'team', 'payg'] as const) {
      const { key } = await c.newKey(plan, plan === 'payg' ? 1000 : undefined);
      const answer = await c.call('/api/v1/exports', { key });
      expect(answer.status, plan).toBe(402);
      expect(answer.body.code).toBe('plan_feature_unavailable');
      expect(answer.body.actions.find((a: any) => a.type === 'subscribe').plan).toBe('business');
    }
    for (const plan of ['business', 'enterprise'] as const)
      expect((await c.call('/api/v1/exports', { key: (await c.newKey(plan)).key })).status, plan).toBe(200);
  });
}
