/**
 * Answers of the embedded dataset to sample the sites from: every operation of the contract called
 * through an unbroken mock, with each plan's key given, in the ways the contract answers (a page
 * and the next, HEAD, no key, a bad parameter, a record that is not there, a preflight, another
 * method, a conditional request, a trial key's call and its refusals).
 */
import { failedAuth, operations, parameterEnum, plans, type PlanId } from '@investor-graph/contract';

export interface Sample {
  plan: PlanId;
  operation: string;
  method: string;
  status: number;
  /** Header names, lower case. */
  headers: string[];
  json: unknown;
}

type Call = { method?: string; path: string; key?: string | null; headers?: Record<string, string>; body?: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `base` as the plans' keys and keeps what came back by operation. Calls are paced under each
 * plan's rate, so which statuses come back does not hang on timing: the 429s come from bursts made
 * on purpose (each list the rate property may burst, and calls without a valid key), as the
 * contract tests make them. `operations` limits which operations a plan's key samples.
 */
export async function sampleAnswers(
  base: string,
  keys: Partial<Record<PlanId, string>>,
  only: Partial<Record<PlanId, string[]>> = {},
): Promise<Sample[]> {
  const samples: Sample[] = [];
  const call = async (plan: PlanId, operation: string, c: Call): Promise<Sample> => {
    await sleep(1000 / plans[plan].rate_per_second + 5);
    const headers: Record<string, string> = { ...c.headers };
    if (c.key) headers.authorization = `Bearer ${c.key}`;
    const response = await fetch(`${base}${c.path}`, {
      method: c.method ?? 'GET',
      headers,
      ...(c.body === undefined ? {} : { body: c.body }),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = /json/.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: no field sites */
    }
    const sample: Sample = {
      plan,
      operation,
      method: c.method ?? 'GET',
      status: response.status,
      headers: [...response.headers.keys()].sort(),
      json,
    };
    samples.push(sample);
    return sample;
  };

  for (const [plan, key] of Object.entries(keys) as [PlanId, string][]) {
    const first = async (path: string, field: string) => {
      const s = await call(plan, 'discover', { path, key });
      const row = (s.json as { data?: Record<string, string | number | boolean | null>[] } | null)?.data?.[0];
      return String(row?.[field] ?? 'none');
    };
    const values: Record<string, string> = {
      firm: await first('/api/v1/firms?limit=1', 'slug'),
      company: await first('/api/v1/companies?limit=1', 'slug'),
      fund: await first('/api/v1/funds?limit=1', 'id'),
      list: await first('/api/v1/lists?limit=1', 'slug'),
    };
    const manifest = (await call(plan, 'discover', { path: '/api/v1/exports', key })).json as {
      data?: { date: string; files: { name: string }[] }[];
    } | null;
    const day = manifest?.data?.[0];
    const fill = (path: string, missing = false) =>
      path
        .replace(/\/(firms|companies|lists)\/\{slug\}/, (_, r: string) => {
          const kind = { firms: 'firm', companies: 'company', lists: 'list' }[r]!;
          return `/${r}/${missing ? 'no-such-record-zz' : values[kind]}`;
        })
        .replace('{id}', missing ? 'fund_0000000000000000' : values.fund!)
        .replace('{date}', day?.date ?? '2026-01-01')
        .replace('{file}', missing ? 'nothing.jsonl.gz' : (day?.files[0]?.name ?? 'firms.jsonl.gz'))
        .replace(
          '{name}',
          missing ? 'no-such-statistic' : (parameterEnum('getStatistic', 'name')[0] ?? 'rounds-by-year'),
        );

    for (const op of operations) {
      if (op.method !== 'GET' || (only[plan] && !only[plan].includes(op.operationId))) continue;
      const query = [
        op.query.includes('limit') ? 'limit=2' : '',
        op.query.includes('since') ? 'since=2026-01-01T00:00:00Z' : '',
      ].filter(Boolean);
      const path = fill(op.path) + (query.length ? `?${query.join('&')}` : '');
      const id = op.operationId;
      const page = await call(plan, id, { path, key, headers: { 'x-request-id': 'req_mutationsample01' } });
      const next = (page.json as { next_cursor?: unknown } | null)?.next_cursor;
      if (typeof next === 'string')
        await call(plan, id, {
          path: `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(next)}`,
          key,
        });
      if (op.query.includes('include')) await call(plan, id, { path: `${path}&include=rows`, key });
      await call(plan, id, { method: 'HEAD', path, key });
      if (!op.security) continue;
      await call(plan, id, { path, key: null });
      await call(plan, id, { path, key: 'igk_team_notakeyofthismock00000000000' });
      await call(plan, id, { path: `${path}${path.includes('?') ? '&' : '?'}bogus=1`, key });
      if (op.path.includes('{')) await call(plan, id, { path: fill(op.path, true), key });
      await call(plan, id, {
        method: 'OPTIONS',
        path,
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      await call(plan, id, { method: 'DELETE', path, key });
      await sleep(1000 / plans[plan].rate_per_second + 5);
      const etag = (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } })).headers.get('etag');
      if (etag) await call(plan, id, { path, key, headers: { 'if-none-match': etag } });
      // The rate property's burst: three seconds' worth at once, on a list it may pick.
      if (!op.path.includes('{') && op.query.includes('limit') && op.operationId !== 'listChanges') {
        // Again until one is refused: on a loaded machine a burst can be spread thin enough to pass.
        const burst = Math.ceil(plans[plan].rate_per_second * 3);
        for (let tries = 0; tries < 5; tries++) {
          const answers = await Promise.all(
            Array.from({ length: burst }, () => call(plan, id, { path: `${op.path}?limit=1`, key })),
          );
          await sleep(2000);
          if (answers.some((a) => a.status === 429)) break;
        }
      }
    }
  }
  // The admission property's burst of calls without a valid key, on the list it uses.
  const refused = failedAuth.burst + Math.ceil(failedAuth.perSecond) + 10;
  for (let tries = 0; tries < 5; tries++) {
    const answers = await Promise.all(
      Array.from({ length: refused }, (_, i) =>
        call('enterprise', 'listFirms', {
          path: '/api/v1/firms?limit=1',
          key: `igk_trial_mutationsample${String(i).padStart(4, '0')}${'x'.repeat(14)}`,
        }),
      ),
    );
    if (answers.some((a) => a.status === 429)) break;
  }
  // The trial key's call, which needs no key: made, made again, and refused.
  const trial = (body: string, type = 'application/json') =>
    call('enterprise', 'createTrialKey', {
      method: 'POST',
      path: '/api/v1/keys/trial',
      headers: { 'content-type': type },
      body,
    });
  await trial(JSON.stringify({ email: 'mutation-sample@example.com' }));
  await trial(JSON.stringify({ email: 'mutation-sample@example.com' }));
  await trial(JSON.stringify({ email: 'not an address' }));
  await trial('email=x', 'text/plain');
  return samples.filter((s) => s.operation !== 'discover');
}
