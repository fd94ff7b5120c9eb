/**
 * Faults of what a key keeps over time: a revocation, the failed-key budget, monthly periods,
 * prepaid rows, an ended trial, the rate limiter's clock.
 */
import { isPlanId } from '@investor-graph/contract';
import { boundedMap, onJson, untouched, withHeaders, type Fault } from './fault.ts';

const DAY = 86_400_000;
const isAccount = (url: URL): boolean => url.pathname === '/api/v1/account';
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Listed after keys.ts's faults, in the same table. */
export const keyStateFaults = {
  'revocation-forgotten': {
    breaks: 'refuses a revoked key once, then serves it again as an active key of its plan',
    wrap: (next, deps) => {
      // By the Authorization of a key refused once as revoked, the key that stands in for it.
      const forgotten = boundedMap<string, Promise<string>>();
      const remember = onJson(({ status, body, request }) => {
        const authorization = request.headers.get('authorization') ?? '';
        if (!deps.engine || status !== 401 || body.code !== 'revoked_key' || forgotten.has(authorization)) return;
        const plan = /^Bearer igk_([a-z]+)_/.exec(authorization)?.[1];
        const standIn = deps.engine.accounts
          .create(isPlanId(plan) ? plan : 'enterprise', deps.engine.clock.now())
          .then((made) => made.key);
        // A stand-in not made (the state store away) is forgotten, not left to reject unheard.
        standIn.catch(() => forgotten.delete(authorization));
        forgotten.set(authorization, standIn);
      })(next, deps);
      return async (request, context) => {
        const standIn = forgotten.get(request.headers.get('authorization') ?? '');
        if (!standIn) return remember(request, context);
        const key = await standIn;
        return next(
          withHeaders(request, (h) => h.set('authorization', `Bearer ${key}`)),
          context,
        );
      };
    },
  },
  'failed-auth-unlimited': {
    breaks: 'answers calls without a valid key with 401 however many an address sends (no 429 too_many_failures)',
    wrap: onJson((a) => {
      if (a.status !== 429 || a.body.code !== 'too_many_failures') return;
      a.answerWith('invalid_key', 'The key is not valid.');
      a.headers.delete('retry-after');
      a.headers.set('www-authenticate', 'Bearer realm="investor-graph"');
    }),
  },
  'periods-from-the-15th': {
    breaks: 'runs monthly periods from the 15th of a month instead of the first',
    wrap: onJson(({ status, body }) => {
      if (status !== 200) return;
      for (const usage of [body.usage, (body.data as { usage?: unknown } | undefined)?.usage] as {
        period_start?: string | null;
        period_end?: string | null;
      }[]) {
        if (
          !usage?.period_start ||
          !usage.period_end ||
          Date.parse(usage.period_end) - Date.parse(usage.period_start) < 20 * DAY
        )
          continue;
        usage.period_start = iso(Date.parse(usage.period_start) + 14 * DAY);
        usage.period_end = iso(Date.parse(usage.period_end) + 14 * DAY);
      }
    }),
  },
  'prepaid-rows-expire': {
    breaks: "shows a pay-as-you-go key's prepaid rows as gone a year after the key was made",
    wrap: (next, deps) =>
      onJson(({ status, body, url }) => {
        const data = body.data as
          | {
              keys?: { plan?: string; created_at?: string }[];
              balance?: Record<string, unknown>;
              usage?: Record<string, unknown>;
            }
          | undefined;
        const made = data?.keys?.[0];
        if (
          !deps.engine ||
          status !== 200 ||
          !isAccount(url) ||
          made?.plan !== 'payg' ||
          !(Date.parse(made.created_at ?? '') < deps.engine.clock.now() - 365 * DAY)
        )
          return;
        data!.balance = { ...data!.balance, prepaid_rows: 0, value_usd: 0 };
        for (const usage of [data!.usage, body.usage] as Record<string, unknown>[]) if (usage) usage.balance_rows = 0;
      })(next, deps),
  },
  'ended-trials-kept': {
    breaks: "keeps a trial's key known for ever after its end (402 trial_expired), never forgetting it",
    wrap: untouched,
    engine: () => ({ trialKeptMs: Number.POSITIVE_INFINITY }),
  },
  'limiter-on-clock': {
    breaks: "refills the rate limiter's buckets by the service's clock, so moving the test clock refills them",
    wrap: untouched,
    engine: (engine) => ({ limiterNow: () => engine().clock.now() }),
  },
} satisfies Record<string, Fault>;
