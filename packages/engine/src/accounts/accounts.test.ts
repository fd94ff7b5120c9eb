import { expect, test } from 'vitest';
import { failedAuth, plans, trialKeysPerMinute } from '@investor-graph/contract/plans';
import { Accounts } from './accounts.ts';
import { MemoryKeyStore } from '../stores/memory/key-store.ts';
import { ProblemError } from '../problems.ts';

const DAY = 86_400_000;
const start = Date.parse('2026-11-20T03:00:00Z');

/** Accounts on an injected clock (ms), so windows pass without sleeping. */
function setup() {
  let real = 0;
  const accounts = new Accounts(new MemoryKeyStore(), { realNow: () => real });
  return { accounts, advance: (ms: number) => (real += ms) };
}

const codeOf = async (work: () => unknown): Promise<string> => {
  try {
    await work();
    return 'ok';
  } catch (error) {
    return (error as ProblemError).code;
  }
};

test('one live trial per e-mail address, compared case-insensitively, and a new one once it has ended', async () => {
  const { accounts } = setup();
  expect(await codeOf(() => accounts.issueTrial('ops@example.com', start))).toBe('ok');
  expect(await codeOf(() => accounts.issueTrial(' OPS@example.com', start + DAY))).toBe('trial_exists');
  expect(
    await codeOf(() => accounts.issueTrial('ops@example.com', start + (plans.trial.key_lifetime_days! + 1) * DAY)),
  ).toBe('ok');
});

test(
  'the whole service issues at most its trial keys a minute, ' + 'then 429 with Retry-After until the minute is over',
  async () => {
    const { accounts, advance } = setup();
    for (let i = 0; i < trialKeysPerMinute; i++) await accounts.issueTrial(`t${i}@example.com`, start);
    const refused = await accounts.issueTrial('one-more@example.com', start).catch((e: ProblemError) => e);
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).code).toBe('rate_limited');
    expect((refused as ProblemError).headers['retry-after']).toBe('60');
    advance(60_000);
    expect(await codeOf(() => accounts.issueTrial('one-more@example.com', start))).toBe('ok');
  },
);

test(
  'the per-address table of the open call is bounded by ' + 'dropping the oldest address, not by forgetting everyone',
  async () => {
    const { accounts } = setup();
    const rate = plans.trial.rate_per_second;
    for (let i = 0; i < 10_000; i++) await accounts.takeToken(null, `10.0.${i >> 8}.${i & 255}`, rate);
    // One recent address spends its bucket...
    for (let i = 0; i < rate; i++) await accounts.takeToken(null, '192.0.2.7', rate);
    await expect(accounts.takeToken(null, '192.0.2.7', rate)).rejects.toThrow(ProblemError);
    // ...and a new address past the bound does not hand it a fresh one.
    await accounts.takeToken(null, '198.51.100.1', rate);
    await expect(accounts.takeToken(null, '192.0.2.7', rate)).rejects.toThrow(ProblemError);
  },
);

test(
  'calls without a valid key spend a per-address budget: past it, ' +
    '429 with Retry-After until it refills, other addresses unaffected',
  async () => {
    const { accounts, advance } = setup();
    const { key } = await accounts.create('team', start);
    for (let i = 0; i < failedAuth.burst; i++)
      expect(await codeOf(() => accounts.authenticateFrom(`Bearer igk_team_guess${i}`, '192.0.2.9', start))).toBe(
        'invalid_key',
      );
    const refused = await accounts
      .authenticateFrom('Bearer igk_team_guess', '192.0.2.9', start)
      .catch((e: ProblemError) => e);
    expect((refused as ProblemError).code).toBe('too_many_failures');
    expect((refused as ProblemError).headers['retry-after']).toBe('1');
    // The address is refused even with a good key until its budget refills; another address is not.
    expect(await codeOf(() => accounts.authenticateFrom(`Bearer ${key}`, '192.0.2.9', start))).toBe(
      'too_many_failures',
    );
    expect(await codeOf(() => accounts.authenticateFrom(`Bearer ${key}`, '192.0.2.10', start))).toBe('ok');
    advance(1_000);
    expect(await codeOf(() => accounts.authenticateFrom(`Bearer ${key}`, '192.0.2.9', start))).toBe('ok');
  },
);

test(
  'with the limits off (--no-rate-limit) nothing answers 429: ' +
    "not a key's rate, the trial cap or the budget of failed keys",
  async () => {
    const accounts = new Accounts(new MemoryKeyStore(), { realNow: () => 0, enforceLimits: false });
    const { record } = await accounts.create('team', start);
    for (let i = 0; i < plans.team.rate_per_second * 3; i++)
      await accounts.takeToken(record, '', plans.team.rate_per_second);
    for (let i = 0; i <= trialKeysPerMinute; i++)
      expect(await codeOf(() => accounts.issueTrial(`t${i}@example.com`, start))).toBe('ok');
    for (let i = 0; i <= failedAuth.burst; i++)
      expect(await codeOf(() => accounts.authenticateFrom(`Bearer igk_team_guess${i}`, '192.0.2.9', start))).toBe(
        'invalid_key',
      );
  },
);

test(
  'a key is kept and shown by its igk_<plan>_ prefix and last four alone, ' +
    'whatever its form (regression: a preset key was kept up to its last underscore)',
  async () => {
    const { accounts } = setup();
    for (const [key, prefix] of [
      ['igk_team_private_file_mode_check_0001', 'igk_team_'],
      ['my_own_key_with_underscores_9876', ''],
      ['igk_mysecretword_rest_of_it_4321', ''],
    ] as const) {
      const { record } = await accounts.create('team', start, { key });
      expect(accounts.summary(record, start)).toMatchObject({ prefix, last4: key.slice(-4) });
      expect(JSON.stringify(await accounts.list())).not.toContain(key.slice(0, -4));
    }
  },
);

test(
  'admit lets a counted call in only within the quota; admitAndCharge counts ' +
    'it in one step, and a pay-as-you-go call pays its rows, at least the minimum',
  async () => {
    const { accounts } = setup();
    const team = (await accounts.create('team', start)).record;
    await accounts.setCallsUsed(team, plans.team.calls_limit! - 1);
    expect(await codeOf(() => accounts.admit(team, start, true))).toBe('ok');
    expect(await accounts.admitAndCharge(team, start, true, 5)).toMatchObject({
      cost: 0,
      usage: { calls_used: plans.team.calls_limit, calls_remaining: 0 },
    });
    expect(await codeOf(() => accounts.admit(team, start, true))).toBe('quota_exhausted');
    expect(await codeOf(() => accounts.admitAndCharge(team, start, true, 5))).toBe('quota_exhausted');
    // The account call is free: let in, and not counted, past the quota.
    expect(await codeOf(() => accounts.admit(team, start, false))).toBe('ok');
    expect((await accounts.admitAndCharge(team, start, false, 0)).usage.calls_used).toBe(plans.team.calls_limit);

    const payg = (await accounts.create('payg', start, { prepaidRows: 1_000 })).record;
    const minimum = plans.payg.min_rows_per_call!;
    expect((await accounts.admitAndCharge(payg, start, true, 1)).cost).toBe(minimum);
    expect((await accounts.admitAndCharge(payg, start, true, 300)).cost).toBe(Math.max(300, minimum));
    // A 304 served nothing: counted, not charged.
    expect(await accounts.admitAndCharge(payg, start, true, null)).toMatchObject({ cost: 0, usage: { calls_used: 3 } });
    const left = (await accounts.byKeyId(payg.keyId))!.balanceRows!;
    expect(await codeOf(() => accounts.admitAndCharge(payg, start, true, left + 1))).toBe('insufficient_balance');
    expect(await accounts.byKeyId(payg.keyId)).toMatchObject({ balanceRows: left, callsUsed: 3 });
    // A call never answered is taken back: neither counted nor charged.
    const charged = await accounts.admitAndCharge(payg, start, true, 20);
    await accounts.refund(payg, true, charged.cost);
    expect(await accounts.byKeyId(payg.keyId)).toMatchObject({ balanceRows: left, callsUsed: 3 });
  },
);

test(
  'admission passes a key on its last charge here for a second, and the charge still refuses ' +
    'what another process changed meanwhile; a refusal or a control change here is read afresh',
  async () => {
    const store = new MemoryKeyStore();
    const [here, elsewhere] = [new Accounts(store), new Accounts(store)];
    const team = (await here.create('team', start)).record;
    await here.admitAndCharge(team, start, true, 1);
    // Another process uses the quota up: this one's admission passes on the charge it remembers...
    await elsewhere.setCallsUsed(team, plans.team.calls_limit!);
    expect(await codeOf(() => here.admit(team, start, true))).toBe('ok');
    // ...and the atomic charge, on the key as stored, refuses and counts nothing.
    expect(await codeOf(() => here.admitAndCharge(team, start, true, 1))).toBe('quota_exhausted');
    expect((await here.byKeyId(team.keyId))!.callsUsed).toBe(plans.team.calls_limit);
    // Its last charge was that refusal: admission reads afresh, and refuses before any work.
    expect(await codeOf(() => here.admit(team, start, true))).toBe('quota_exhausted');
    // A control change made here is seen at once.
    await here.setCallsUsed(team, 0);
    await here.admitAndCharge(team, start, true, 1);
    await here.revoke(team.keyId, start);
    expect(await codeOf(() => here.admit(team, start, true))).toBe('revoked_key');
  },
);
