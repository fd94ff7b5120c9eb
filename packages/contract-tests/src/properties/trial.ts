/** The trial key: the trial call that makes one, and a trial running out (used up or expired). */
import fc from 'fast-check';
import { operationById, plans } from '@investor-graph/contract';
import { type Answer } from '../client/client.ts';
import { valueShown } from '../shown/failure-text.ts';
import { dataOperations } from '../core/context.ts';
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
  keylessElsewhere,
} from './support.ts';

export const trialRunsOut: Property = {
  id: 'trial-runs-out',
  title: 'a used-up or expired trial is a 402 with actions on every data operation, and can still read its account',
  spec: ['3. States and transitions', '7. Errors', '8. Limits'],
  assumed: ['exhausted-quota', 'actions', 'trial-key-response', 'account'],
  keyless: true,
  skip: (ctx) =>
    keylessElsewhere(ctx) ??
    (ctx.control || ctx.config.exhaustTrial
      ? null
      : `needs --use-control against the kit's mock, or --exhaust-trial to spend a fresh trial's ` +
        `${plans.trial.calls_limit!.toLocaleString('en')} calls`),
  cost: (ctx) => ({
    calls: ctx.control ? 4 : plans.trial.calls_limit! + 3,
    rows: ctx.control ? 0 : plans.trial.calls_limit!,
  }),
  // A trial past its calls; with the control API also one past its days (made a week ago).
  arbitrary: () =>
    fc.record({
      op: fc.constantFrom(...dataOperations.filter((o) => o.operationId !== 'getAccount')),
      pick: fc.nat(),
      tag: fc.stringMatching(/^[a-z0-9]{10}$/),
      how: fc.constant('used-up'),
    }),
  examples: (ctx) => [
    { op: operationById('listFirms'), pick: 0, tag: 'usedup0001', how: 'used-up' },
    ...(ctx.control ? [{ op: operationById('getCompany'), pick: 0, tag: 'expired001', how: 'expired' }] : []),
  ],
  async check(ctx, { op, pick, tag, how }) {
    let key: string;
    if (how === 'expired') {
      // A trial made eight days ago through the control API: past its seven days without moving
      // the clock, which every other key and client of the mock shares.
      const clock = (await (await control(ctx, '/clock')).json()) as { now: string };
      const made = await control(ctx, '/keys', 'POST', {
        plan: 'trial',
        created_at: isoSecond(Date.parse(clock.now) - 8 * DAY),
      });
      assert(
        made.status === 201,
        "the mock's control API, asked for a trial key made eight days ago",
        '201 with the key',
        `${made.status}`,
      );
      key = ((await made.json()) as { key: string }).key;
    } else {
      const domain = ctx.config.email?.split('@')[1] ?? 'example.com';
      // The case's tag, the key's plan and the seed: a replay asks for the same address, which a
      // live trial may still hold (409).
      const issued = await ctx.client.call('/api/v1/keys/trial', {
        method: 'POST',
        key: null,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `contract-tests+${tag}-${ctx.config.plan}-${ctx.config.seed}@${domain}` }),
      });
      if (issued.status === 409) return;
      expectStatus(issued, 201, 'a fresh trial key');
      key = issued.body.key;
      const keyId = issued.body.key_id;
      assert(
        typeof key === 'string' && /^igk_trial_[A-Za-z0-9]{32}$/.test(key),
        'a fresh trial key',
        'igk_trial_ and 32 base62 characters (DECISIONS.md#key-scopes-expiry-and-revocation)',
        typeof key === 'string'
          ? `a key of ${key.length} characters${key.startsWith('igk_trial_') ? '' : ' not starting igk_trial_'}`
          : `key ${valueShown(key)}`,
      );
      assert(
        /\bno-store\b/.test(issued.headers.get('cache-control') ?? ''),
        'the answer that shows a trial key once',
        'Cache-Control: no-store (it is never stored)',
        `Cache-Control "${issued.headers.get('cache-control') ?? ''}"`,
      );
      if (ctx.control) {
        const set = await control(ctx, `/keys/${keyId}/usage`, 'PUT', { calls_used: plans.trial.calls_limit });
        assert(set.status === 200, "the mock's control API, asked to use up the trial's calls", '200', `${set.status}`);
      } else {
        for (let n = 0; n < plans.trial.calls_limit!; n++) {
          const used = await ctx.client.call('/api/v1/firms?limit=1', { key, rows: 1 });
          if (used.status === 402) break;
        }
      }
    }
    const path = requestFor(ctx, op, pick, 1, Date.parse(ctx.asOf) - DAY);
    if (!path) return;
    const answer = await ctx.client.call(path, { key });
    expectStatus(answer, 402, `${path} on ${how === 'expired' ? 'an' : 'a'} ${how} trial`);
    // Which way it ended (DECISIONS.md#exhausted-quota): its calls, or its days.
    const code = how === 'expired' ? 'trial_expired' : 'trial_exhausted';
    assert(
      answer.body?.code === code,
      `${path} on ${how === 'expired' ? 'an' : 'a'} ${how} trial`,
      `code ${code}`,
      codeShown(answer.body),
    );
    expectActions(answer, path);
    const account = await ctx.client.call('/api/v1/account', { key });
    expectStatus(
      account,
      200,
      `/api/v1/account of ${how === 'expired' ? 'an' : 'a'} ${how} trial ` +
        `(DECISIONS.md#account: it can still read its account)`,
    );
  },
};

export const trialCall: Property = {
  id: 'trial-call',
  title:
    'the trial call refuses what is not one JSON e-mail: another content type 415, over 4 ' +
    'KiB 413, anything but one valid email 400; an address with a live trial 409',
  spec: ['5. Authentication', '4. Endpoints'],
  assumed: ['trial-key-response', 'status-codes'],
  keyless: true,
  skip: (ctx) => keylessElsewhere(ctx),
  cost: (ctx) => ({ calls: ctx.config.allowRate ? Math.ceil(plans.trial.rate_per_second * 3) : 2, rows: 0 }),
  arbitrary: () => fc.constantFrom('text', 'large', 'empty', 'not-an-address', 'extra-member', 'taken'),
  // Each way the call goes wrong; none of them makes a key (the taken address needs one made
  // already: the run's own from --email, or one made through the mock's control API). With the
  // rate burst allowed, also three seconds' worth of the trial's rate at once.
  examples: (ctx) => [
    'text',
    'large',
    'empty',
    'not-an-address',
    'extra-member',
    'taken',
    ...(ctx.config.allowRate ? ['burst'] : []),
  ],
  async check(ctx, kind: string) {
    if (kind === 'burst') {
      // Anyone may call it, so each client address has the trial's rate: a burst meets a 429.
      const burst = Math.ceil(plans.trial.rate_per_second * 3);
      const answers = await Promise.all(
        Array.from({ length: burst }, () =>
          ctx.client.call('/api/v1/keys/trial', {
            method: 'POST',
            key: null,
            headers: { 'content-type': 'application/json' },
            body: '{}',
            honour429: false,
            unpaced: true,
          }),
        ),
      );
      const limited = answers.find((a) => a.status === 429);
      assert(
        limited,
        `${burst} trial calls at once from one address`,
        `a 429 among them (the trial's rate is ${plans.trial.rate_per_second} a second)`,
        `only ${[...new Set(answers.map((a) => a.status))].join(', ')}`,
      );
      expectActions(limited, 'a 429 of the trial call');
      assert(
        /^\d+$/.test(limited.headers.get('retry-after') ?? ''),
        'a 429 of the trial call',
        'Retry-After in whole seconds',
        `Retry-After ${valueShown(limited.headers.get('retry-after'))}`,
      );
      // Let the address's bucket fill again before the next case.
      await new Promise((r) => setTimeout(r, Number(limited.headers.get('retry-after')) * 1000 + 50));
      return;
    }
    const post = (body: string, type = 'application/json') =>
      ctx.client.call('/api/v1/keys/trial', { method: 'POST', key: null, headers: { 'content-type': type }, body });
    const want: Record<string, [number, string]> = {
      text: [415, 'unsupported_media_type'],
      large: [413, 'payload_too_large'],
      empty: [400, 'invalid_body'],
      'not-an-address': [400, 'invalid_body'],
      'extra-member': [400, 'invalid_body'],
      taken: [409, 'trial_exists'],
    };
    let answer: Answer;
    if (kind === 'taken') {
      // One live trial per address, compared case-insensitively.
      let address = ctx.config.email;
      if (!address) {
        if (!ctx.control) return;
        address = `contract-tests+taken-${ctx.config.plan}-${ctx.config.seed}@example.com`;
        const first = await post(JSON.stringify({ email: address }));
        if (first.status !== 201 && first.status !== 409) expectStatus(first, 201, `a trial key for ${address}`);
      }
      answer = await post(JSON.stringify({ email: address.toUpperCase() }));
    } else if (kind === 'text') answer = await post('email=someone@example.com', 'text/plain');
    else if (kind === 'large')
      answer = await post(JSON.stringify({ email: 'someone@example.com', note: 'x'.repeat(5_000) }));
    else if (kind === 'empty') answer = await post('{}');
    else if (kind === 'not-an-address') answer = await post(JSON.stringify({ email: 'not an address' }));
    else answer = await post(JSON.stringify({ email: 'someone@example.com', plan: 'enterprise' }));
    const [status, code] = want[kind]!;
    expectStatus(
      answer,
      status,
      `the trial call with ${kind === 'taken' ? 'an address that has a live trial, in capitals' : `a ${kind} body`}`,
    );
    assert(
      answer.body?.code === code,
      `the trial call with ${kind === 'taken' ? 'an address that has a live trial' : `a ${kind} body`}`,
      `code ${code}`,
      codeShown(answer.body),
    );
  },
};
