/** Faults of keys and plans: the refused key's answer, trials, quotas, the account, a plan's features and limits. */
import { plans } from '@investor-graph/contract';
import { planView } from '../accounts/accounts.ts';
import { rateHeaders } from '../accounts/rate-policy.ts';
import { onJson, withHeaders, type Fault } from './fault.ts';
import { knownParameters } from './http.ts';

const DAY = 86_400_000;
const isTrialCall = (url: URL): boolean => url.pathname === '/api/v1/keys/trial';
const isAccount = (url: URL): boolean => url.pathname === '/api/v1/account';
const trialRounds = (request: Request, url: URL): boolean =>
  /^Bearer igk_trial_/.test(request.headers.get('authorization') ?? '') &&
  /^\/api\/v1\/(rounds|companies\/[^/]+\/rounds|statistics\/rounds-by-(year|stage))$/.test(url.pathname);

export const keyFaults = {
  'drop-actions': {
    breaks: 'answers 401, 402 and 429 without their actions',
    wrap: onJson((a) => void ([401, 402, 429].includes(a.status) && delete a.body.actions)),
  },
  'query-before-auth': {
    breaks:
      'answers a call without a valid key that has a misspelt parameter with 400 instead of 401, looking at the ' +
      'query first',
    wrap: onJson(
      (a) =>
        void (
          a.status === 401 &&
          [...a.url.searchParams.keys()].some((k) => !knownParameters.has(k)) &&
          a.answerWith('unknown_parameter', 'An unknown query parameter.')
        ),
    ),
  },
  'revoked-as-403': {
    breaks: 'answers a revoked key with 403 instead of 401 revoked_key',
    wrap: onJson((a) => void (a.status === 401 && a.body.code === 'revoked_key' && a.relabel(403))),
  },
  'expired-trial-as-401': {
    breaks: 'answers an expired trial with 401 invalid_key instead of 402 trial_expired',
    wrap: onJson((a) => {
      if (a.status !== 402 || a.body.code !== 'trial_expired') return;
      a.relabel(401, 'invalid_key');
    }),
  },
  'trial-codes-swapped': {
    breaks: 'answers a used-up trial with 402 trial_expired and an expired one with 402 trial_exhausted',
    wrap: onJson((a) => {
      const swapped: Record<string, string> = { trial_exhausted: 'trial_expired', trial_expired: 'trial_exhausted' };
      if (a.status === 402 && typeof a.body.code === 'string' && swapped[a.body.code])
        a.body.code = swapped[a.body.code];
    }),
  },
  'quota-as-429': {
    breaks: 'answers a used-up trial or quota with 429 instead of 402',
    wrap: onJson((a) => {
      if (a.status !== 402 || (a.body.code !== 'trial_exhausted' && a.body.code !== 'quota_exhausted')) return;
      a.relabel(429);
      a.headers.set('retry-after', '1');
    }),
  },
  'quota-actions-trimmed': {
    breaks: "offers only subscribe with a used-up monthly quota's 402 (no prepaid rows, no call with sales)",
    wrap: onJson(
      (a) =>
        void (
          a.status === 402 &&
          a.body.code === 'quota_exhausted' &&
          Array.isArray(a.body.actions) &&
          (a.body.actions = (a.body.actions as { type?: string }[]).filter((x) => x.type === 'subscribe'))
        ),
    ),
  },
  'refuse-exports': {
    breaks: 'answers the nightly dumps with 402 on every plan, as if no plan had them',
    wrap: onJson(
      (a) =>
        void (
          a.status === 200 &&
          a.url.pathname.startsWith('/api/v1/exports') &&
          a.answerWith('plan_feature_unavailable', 'The nightly dumps are not in your plan.')
        ),
    ),
  },
  'paid-feed-refused': {
    breaks: 'refuses the changes feed with 402 on every plan, as if no plan had it',
    wrap: onJson(
      (a) =>
        void (
          a.status === 200 &&
          a.url.pathname === '/api/v1/changes' &&
          a.answerWith('plan_feature_unavailable', 'The changes feed is not in your plan.')
        ),
    ),
  },
  'trial-feed-open': {
    breaks: 'serves a trial key an (empty) changes feed instead of the 402',
    wrap: onJson((a) => {
      if (a.status !== 402 || a.body.code !== 'plan_feature_unavailable' || a.url.pathname !== '/api/v1/changes')
        return;
      a.status = 200;
      a.body = { data: [], next_cursor: null, as_of: new Date().toISOString(), plan: { id: 'trial' }, usage: {} };
      a.headers.set('content-type', 'application/json');
    }),
  },
  'plan-mislabelled': {
    breaks: "states the plan's rate_per_second one higher in the envelope than the plan table",
    wrap: onJson(({ status, body }) => {
      const plan = body.plan as { rate_per_second?: number } | undefined;
      if (status === 200 && typeof plan?.rate_per_second === 'number')
        body.plan = { ...plan, rate_per_second: plan.rate_per_second + 1 };
    }),
  },
  'echo-key': {
    breaks: "lists the caller's whole key in /account",
    wrap: onJson(({ status, body, url, request }) => {
      const keys = (body.data as { keys?: Record<string, unknown>[] } | undefined)?.keys;
      if (status === 200 && isAccount(url) && keys?.[0])
        keys[0] = { ...keys[0], key: (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '') };
    }),
  },
  'trial-lives-long': {
    breaks: 'lists a trial key in /account as expiring 30 days after it was made',
    wrap: onJson(({ status, body, url }) => {
      if (status !== 200 || !isAccount(url)) return;
      for (const k of (body.data as { keys?: Record<string, unknown>[] } | undefined)?.keys ?? [])
        if (k.plan === 'trial' && typeof k.created_at === 'string')
          k.expires_at = new Date(Date.parse(k.created_at) + 30 * DAY).toISOString();
    }),
  },
  'trial-statuses-as-400': {
    breaks:
      'answers every refused trial call with 400, where a body of another type is 415, one too large 413 and a ' +
      'taken address 409',
    wrap: onJson((a) => {
      if (!isTrialCall(a.url) || ![409, 413, 415].includes(a.status)) return;
      a.relabel(400, 'invalid_body');
    }),
  },
  'trial-call-unlimited': {
    breaks:
      'answers a burst of trial calls from one address as if there were no limit (400 for the bad bodies, no 429)',
    wrap: onJson((a) => {
      if (!isTrialCall(a.url) || a.status !== 429) return;
      a.relabel(400, 'invalid_body');
      a.headers.delete('retry-after');
    }),
  },
  'trial-needs-card': {
    breaks: 'answers the trial call with 402, asking for a card',
    wrap: onJson(
      (a) =>
        void (
          isTrialCall(a.url) &&
          a.status === 201 &&
          a.answerWith('plan_feature_unavailable', 'A card is needed for a trial.')
        ),
    ),
  },
  'trial-key-cacheable': {
    breaks: 'lets caches keep the answer that shows a trial key (Cache-Control: public)',
    wrap: onJson(
      (a) => void (isTrialCall(a.url) && a.status === 201 && a.headers.set('cache-control', 'public, max-age=3600')),
    ),
  },
  'short-trial-keys': {
    breaks: 'issues trial keys of 16 characters after their prefix instead of 32',
    wrap: onJson(
      ({ status, body, url }) =>
        void (
          isTrialCall(url) &&
          status === 201 &&
          typeof body.key === 'string' &&
          (body.key = body.key.slice(0, 'igk_trial_'.length + 16))
        ),
    ),
  },
  'lag-ignored': {
    breaks: "shows a trial key rounds inside its round lag (its rounds are served as a paid plan's)",
    wrap: (next, deps) => {
      // A paid key the trial's rounds are served with, made once; the answer dressed as the trial's own.
      let unlagged: Promise<string> | undefined;
      const dress = onJson(({ status, body, headers, request, url }) => {
        if (status !== 200 || !body.plan || !trialRounds(request, url)) return;
        body.plan = planView(plans.trial);
        headers.set('ratelimit-policy', rateHeaders.policy(plans.trial.rate_per_second));
        headers.set('ratelimit', rateHeaders.left(plans.trial.rate_per_second - 1, 1));
      });
      const swapped = dress(async (request, context) => {
        const engine = deps.engine;
        if (!engine || !trialRounds(request, new URL(request.url))) return next(request, context);
        unlagged ??= engine.accounts.create('enterprise', engine.clock.now()).then((issued) => issued.key);
        const key = await unlagged;
        return next(
          withHeaders(request, (h) => h.set('authorization', `Bearer ${key}`)),
          context,
        );
      }, deps);
      return swapped;
    },
  },
} satisfies Record<string, Fault>;
