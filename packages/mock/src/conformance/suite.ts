/**
 * The mock's behaviour, once, for every adapter: the Node server runs it over loopback and the MSW
 * handlers run it in-process. Every response any case sees is held to every rule of
 * @investor-graph/contract/rules (the contract through prism-http among them), the same checks the
 * contract tests and the proxy run. An adapter may skip a case only with a reason.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkExchange, createContractValidator, PageTracker, parseBody, plans, type PlanId } from '@investor-graph/contract';

export interface ConformanceTarget {
  /** Where the API is, e.g. http://127.0.0.1:4321 (with MSW: the intercepted origin). */
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

export interface ConformanceSetup {
  /** Starts a fresh mock on the default dataset with the clock frozen at `now`. */
  (options: { now: string }): Promise<ConformanceTarget>;
}

export interface ConformanceOptions {
  name: string;
  setup: ConformanceSetup;
  /** Case title -> why this adapter cannot run it. */
  skip?: Record<string, string>;
}

const AS_OF = '2026-11-20T03:00:00Z';
const DAY = 86_400_000;
const validator = await createContractValidator();

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  bytes: Uint8Array;
}

export function runConformance(options: ConformanceOptions): void {
  const { name, setup, skip = {} } = options;

  describe(name, () => {
    let target: ConformanceTarget;
    const findings: string[] = [];
    const walks = new PageTracker();

    beforeAll(async () => {
      target = await setup({ now: AS_OF });
    });
    afterAll(async () => {
      await target?.close();
    });

    const it = (title: string, body: () => Promise<void>, timeout?: number): void => {
      if (skip[title]) test.skip(`${title} (skipped: ${skip[title]})`, body);
      else test(title, body, timeout);
    };

    /** A call through the adapter; its answer is validated against the contract on the way. */
    async function call(path: string, init: RequestInit & { key?: string | null } = {}, on: ConformanceTarget = target): Promise<Answer> {
      const headers = new Headers(init.headers);
      if (init.key) headers.set('authorization', `Bearer ${init.key}`);
      const response = await on.fetch(`${on.baseUrl}${path}`, { ...init, headers });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const body = parseBody(new TextDecoder().decode(bytes), response.headers.get('content-type'));
      // Stricter than the bad-input-no-5xx rule: the mock never fails, whatever it is sent.
      expect(response.status, `${init.method ?? 'GET'} ${path} must never be a 5xx`).toBeLessThan(500);
      // Every rule of @investor-graph/contract/rules (the contract, problem+json, actions, the
      // envelope, page limits, people data, cursor walks...) holds for every answer, control ones too.
      const exchange = { method: init.method ?? 'GET', url: `${on.baseUrl}${path}`, requestHeaders: Object.fromEntries(headers), status: response.status, headers: Object.fromEntries(response.headers), body };
      const found = checkExchange(validator, exchange, walks).map((f) => `${exchange.method} ${path} ${f.rule}: ${f.message}`);
      findings.push(...found);
      expect(found, `${path} keeps every rule`).toEqual([]);
      return { status: response.status, headers: response.headers, body, bytes };
    }

    async function control(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST', on = target): Promise<any> {
      const answer = await call(`/__control${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) }, on);
      expect(answer.status, `control ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    }

    /** A fresh key of a plan: each test gets its own rate bucket and counters. */
    async function newKey(plan: PlanId, prepaidRows?: number, on = target): Promise<{ key: string; key_id: string }> {
      return control('/keys', { plan, ...(prepaidRows === undefined ? {} : { prepaid_rows: prepaidRows }) }, 'POST', on);
    }

    /** A call that honours 429 Retry-After as a well-behaved client does (at most three waits). */
    async function politely(path: string, init: RequestInit & { key?: string | null } = {}, on: ConformanceTarget = target): Promise<Answer> {
      for (let attempt = 0; ; attempt++) {
        const answer = await call(path, init, on);
        if (answer.status !== 429 || attempt === 3) return answer;
        await new Promise((r) => setTimeout(r, Number(answer.headers.get('retry-after')) * 1000));
      }
    }

    /** Walks a list to its end and returns every row. */
    async function walk(path: string, key: string, limit: number, on: ConformanceTarget = target): Promise<any[]> {
      const rows: any[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10_000; page++) {
        const sep = path.includes('?') ? '&' : '?';
        const answer = await politely(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key }, on);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.data.length).toBeLessThanOrEqual(limit);
        rows.push(...answer.body.data);
        cursor = answer.body.next_cursor;
        if (cursor === null) return rows;
        expect(answer.body.data.length, 'a page before the end is full').toBe(limit);
      }
      throw new Error('the walk did not end');
    }

    // ---------------------------------------------------------------- part 1: the data

    it('every operation answers from the dataset with a body the contract accepts', async () => {
      const { key } = await newKey('enterprise');
      const firms = await call('/api/v1/firms?limit=3', { key });
      const firm = firms.body.data[0].slug;
      const companies = await call('/api/v1/companies?limit=3', { key });
      const company = companies.body.data[0].slug;
      const funds = await call('/api/v1/funds?limit=1', { key });
      const lists = await call('/api/v1/lists', { key });
      const paths = [
        `/api/v1/firms/${firm}`, `/api/v1/firms/${firm}/portfolio`, `/api/v1/firms/${firm}/filings`, `/api/v1/firms/${firm}/funds`,
        `/api/v1/companies/${company}`, `/api/v1/companies/${company}/rounds`, `/api/v1/companies/${company}/investors`, `/api/v1/companies/${company}/offerings`,
        '/api/v1/rounds', '/api/v1/investments', `/api/v1/funds/${funds.body.data[0].id}`, '/api/v1/filings', '/api/v1/offerings', '/api/v1/adv-funds',
        `/api/v1/lists/${lists.body.data[0].slug}`, '/api/v1/changes?since=2026-10-01T00:00:00Z', '/api/v1/exports', '/api/v1/account',
        '/api/v1/statistics/rounds-by-year', '/api/v1/statistics/rounds-by-stage', '/api/v1/statistics/most-active-investors', '/api/v1/statistics/fund-returns-by-vintage',
      ];
      for (const path of paths) {
        const answer = await call(path, { key });
        expect(answer.status, `${path}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
        expect(Object.keys(answer.body).sort()).toEqual(['as_of', 'data', 'next_cursor', 'plan', 'usage']);
        expect(answer.body.plan.id).toBe('enterprise');
        expect(answer.body.as_of).toBe(AS_OF);
      }
      const doc = await call('/api/v1/openapi.json');
      expect(doc.status).toBe(200);
      expect(doc.body.openapi).toBe('3.1.0');
      expect(Object.keys(doc.body.paths)).toHaveLength(26);
    });

    it('walking a list with any limit yields every row exactly once, in key order, and ends with next_cursor null', async () => {
      const { key } = await newKey('enterprise');
      const all = (await call('/api/v1/firms?limit=1000', { key })).body;
      expect(all.next_cursor).toBeNull();
      const slugs = all.data.map((f: any) => f.slug);
      expect(slugs).toEqual([...slugs].sort());
      for (const limit of [1, 7, 50, slugs.length - 1, slugs.length]) {
        const walked = (await walk('/api/v1/firms', key, limit)).map((f) => f.slug);
        expect(walked, `limit ${limit}`).toEqual(slugs);
      }
      const investors = await walk('/api/v1/investments', key, 997);
      expect(new Set(investors.map((i) => i.id)).size).toBe(investors.length);
    }, 120_000);

    it('a walk sees every row exactly once while rebuilds create rows during it', async () => {
      const mock = await setup({ now: AS_OF });
      try {
        const { key } = await newKey('enterprise', undefined, mock);
        const before = new Set<string>();
        let cursor: string | null = null;
        do {
          const page: Answer = await call(`/api/v1/rounds?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, { key }, mock);
          for (const r of page.body.data) before.add(r.id);
          cursor = page.body.next_cursor;
        } while (cursor);
        const seen: string[] = [];
        cursor = null;
        let pages = 0;
        do {
          const page: Answer = await call(`/api/v1/rounds?limit=150${cursor ? `&cursor=${cursor}` : ''}`, { key }, mock);
          seen.push(...page.body.data.map((r: any) => r.id));
          cursor = page.body.next_cursor;
          // Two days of rebuilds land between pages: new rounds appear behind and ahead of the cursor.
          if (pages++ === 2) await control('/clock/advance', { duration: 'P2D' }, 'POST', mock);
        } while (cursor);
        expect(new Set(seen).size, 'no duplicates').toBe(seen.length);
        for (const id of before) expect(seen.includes(id), `${id} seen`).toBe(true);
        expect(seen.length).toBeGreaterThan(before.size);
      } finally {
        await mock.close();
      }
    });

    it('a tampered, truncated, garbage or foreign cursor is rejected with 400 invalid_cursor', async () => {
      const { key } = await newKey('enterprise');
      const first = await call('/api/v1/rounds?limit=5&announced_since=2020-01-01', { key });
      const cursor: string = first.body.next_cursor;
      const [payload, signature] = cursor.split('.') as [string, string];
      const flipped = payload.slice(0, -2) + (payload.at(-2) === 'A' ? 'B' : 'A') + payload.at(-1);
      const bad = [
        `${flipped}.${signature}`, cursor.slice(0, cursor.length - 3), 'garbage', 'a.b', `${payload}.`, '....', '%00', 'x'.repeat(600),
      ];
      for (const c of bad) {
        const answer = await call(`/api/v1/rounds?limit=5&announced_since=2020-01-01&cursor=${encodeURIComponent(c)}`, { key });
        expect(answer.status, c).toBe(400);
        expect(['invalid_cursor', 'invalid_parameter'], c).toContain(answer.body.code);
        expect(answer.body.errors[0].parameter).toBe('cursor');
      }
      const otherFilters = await call(`/api/v1/rounds?limit=5&announced_since=2021-01-01&cursor=${cursor}`, { key });
      expect(otherFilters.body.code).toBe('invalid_cursor');
      const otherEndpoint = await call(`/api/v1/firms?limit=5&cursor=${cursor}`, { key });
      expect(otherEndpoint.body.code).toBe('invalid_cursor');
      const unchanged = await call(`/api/v1/rounds?limit=9&announced_since=2020-01-01&cursor=${cursor}`, { key });
      expect(unchanged.status, 'the genuine cursor still works, with another limit').toBe(200);
    });

    it('announced_since keeps rounds on or after the date, on rounds and through pages', async () => {
      const { key } = await newKey('enterprise');
      const rows = await walk('/api/v1/rounds?announced_since=2025-06-01', key, 200);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.announced_on >= '2025-06-01').toBe(true);
      const bad = await call('/api/v1/rounds?announced_since=2025-13-45', { key });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].parameter).toBe('announced_since');
    });

    it("limit defaults to 100, is capped silently at the plan's page size however long, and below 1 or not an integer is a 400", async () => {
      const team = await newKey('team');
      expect((await call('/api/v1/investments', { key: team.key })).body.data).toHaveLength(100);
      expect((await call('/api/v1/investments?limit=100000', { key: team.key })).body.data).toHaveLength(plans.team.rows_per_page);
      const enterprise = await newKey('enterprise');
      expect((await call('/api/v1/investments?limit=99999999999999999999', { key: enterprise.key })).body.data).toHaveLength(plans.enterprise.rows_per_page);
      // Any integer of at least 1, however many digits (regression: 33 digits were a 400), and 400
      // nines, past what a double holds; leading zeros are the same integer.
      for (const limit of ['9'.repeat(33), '9'.repeat(400)]) expect((await call(`/api/v1/investments?limit=${limit}`, { key: team.key })).body.data, `${limit.length} digits`).toHaveLength(plans.team.rows_per_page);
      expect((await call(`/api/v1/firms?limit=${'0'.repeat(20)}3`, { key: team.key })).body.data).toHaveLength(3);
      expect((await call(`/api/v1/firms?limit=${'0'.repeat(20)}`, { key: team.key })).status).toBe(400);
      for (const limit of ['0', '-1', '1.5', 'ten', '', '1e3', '0x10']) {
        const answer = await call(`/api/v1/firms?limit=${limit}`, { key: team.key });
        expect(answer.status, `limit=${limit}`).toBe(400);
        expect(answer.body.errors[0].parameter).toBe('limit');
      }
      const twice = await call('/api/v1/firms?limit=2&limit=3', { key: team.key });
      expect(twice.status).toBe(400);
    });

    it('a weak ETag sent back in If-None-Match gives 304 with no body, counted as a call but charging no rows', async () => {
      const { key } = await newKey('payg', 1_000);
      const first = await call('/api/v1/firms?limit=25', { key });
      const etag = first.headers.get('etag')!;
      // Weak: the body's usage changes every call while the data it validates does not.
      expect(etag).toMatch(/^W\/"[0-9a-f]{16}"$/);
      const again = await call('/api/v1/firms?limit=25', { key, headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.get('etag')).toBe(etag);
      // Compared weakly (RFC 9110): the tag without W/ matches too.
      expect((await call('/api/v1/firms?limit=25', { key, headers: { 'if-none-match': etag.slice(2) } })).status).toBe(304);
      const other = await call('/api/v1/firms?limit=6', { key, headers: { 'if-none-match': etag } });
      expect(other.status).toBe(200);
      const usage = (await call('/api/v1/account', { key })).body.data.usage;
      expect(usage.calls_used, 'every call counted, the 304s too').toBe(4);
      expect(usage.balance_rows, 'rows charged for the two 200s alone').toBe(1_000 - 25 - 10);
    });

    it('HEAD answers every GET with its status and headers and no body', async () => {
      const { key } = await newKey('enterprise');
      // Uncompressed, the GET's length is known without sending it; compressed, it is not (the Node
      // server's HEAD then says the GET's encoding and no length, as RFC 9110 9.3.2 allows).
      const identity = { 'accept-encoding': 'identity' };
      const get = await call('/api/v1/firms?limit=3', { key, headers: identity });
      const head = await call('/api/v1/firms?limit=3', { key, method: 'HEAD', headers: identity });
      expect(head.status).toBe(200);
      expect(head.bytes.length).toBe(0);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
      expect(Number(head.headers.get('content-length'))).toBe(get.bytes.length);
      const compressible = await call('/api/v1/firms?limit=50', { key, method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
      expect(compressible.headers.get('content-encoding')).toBe((await call('/api/v1/firms?limit=50', { key, headers: { 'accept-encoding': 'gzip' } })).headers.get('content-encoding'));
      expect((await call('/api/v1/firms/no-such-firm', { key, method: 'HEAD' })).status).toBe(404);
      expect((await call('/api/v1/firms?limit=3', { method: 'HEAD' })).status).toBe(401);
    });

    it('OPTIONS is 204 with Allow, and a CORS preflight from any origin is answered for the data API, never for control', async () => {
      const plain = await call('/api/v1/firms', { method: 'OPTIONS' });
      expect(plain.status).toBe(204);
      expect(plain.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      const preflight = await call('/api/v1/firms', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
      const trial = await call('/api/v1/keys/trial', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
      expect(trial.headers.get('access-control-allow-methods')).toContain('POST');
      const control = await call('/__control/state', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
      // Refused (403 over a network; under MSW there is no network to guard, and no such route).
      expect(control.status).toBeGreaterThanOrEqual(400);
      expect(control.headers.get('access-control-allow-origin')).toBeNull();
      expect((await call('/api/v1/nowhere', { method: 'OPTIONS' })).status).toBe(404);
    });

    it('data answers carry CORS, caching and request-id headers; a 401 carries WWW-Authenticate', async () => {
      const { key } = await newKey('team');
      const answer = await call('/api/v1/firms?limit=1', { key, headers: { origin: 'https://app.example', 'x-request-id': 'client-trace.42:a' } });
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Policy/);
      expect(answer.headers.get('cache-control')).toBe('private, no-cache');
      expect(answer.headers.get('vary')).toMatch(/Authorization/);
      expect(answer.headers.get('x-request-id')).toBe('client-trace.42:a');
      // Any origin allowed: the same answer with or without Origin, so a shared cache cannot hand a browser one without it.
      expect((await call('/api/v1/firms?limit=1', { key })).headers.get('access-control-allow-origin')).toBe('*');
      // A request id that is not one to echo (here, with a space) is replaced.
      const replaced = await call('/api/v1/firms?limit=1', { key, headers: { 'x-request-id': 'two words' } });
      expect(replaced.headers.get('x-request-id')).not.toBe('two words');
      // Nor is a key sent as one, whole or in part, by mistake or not: it would reach logs and problem bodies.
      const customKey = 'my-own-preset-key-9876';
      for (const id of [key, `trace.${customKey}`, customKey.slice(0, -4)]) {
        const answer = await call('/api/v1/firms?limit=1', { key: customKey, headers: { 'x-request-id': id } });
        expect(answer.body.request_id, id).not.toBe(id);
        expect(answer.headers.get('x-request-id'), id).not.toBe(id);
      }
      const missing = await call('/api/v1/firms?limit=1', { headers: { 'x-request-id': 'trace-401' } });
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="investor-graph"');
      expect(missing.headers.get('cache-control')).toBe('no-store');
      expect(missing.body.request_id).toBe('trace-401');
      const refused = await call('/api/v1/firms?limit=1', { key: 'igk_team_not_a_key_at_all_00000000' });
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="investor-graph", error="invalid_token"');
    });

    it('the monthly quota is a second item of the rate-limit headers, counting down with each call', async () => {
      const { key } = await newKey('team');
      const limit = plans.team.calls_limit!;
      const first = await call('/api/v1/firms?limit=1', { key });
      expect(first.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"default";q=${plans.team.rate_per_second};w=1, "quota";q=${limit};w=\\d+$`));
      expect(first.headers.get('ratelimit')).toMatch(new RegExp(`, "quota";r=${limit - 1};t=\\d+$`));
      const second = await call('/api/v1/firms?limit=1', { key });
      expect(second.headers.get('ratelimit')).toMatch(new RegExp(`, "quota";r=${limit - 2};t=\\d+$`));
    });

    it('the served contract names this server in servers', async () => {
      const answer = await call('/api/v1/openapi.json');
      expect(answer.body.servers).toEqual([{ url: target.baseUrl, description: expect.any(String) }]);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    });

    it('an unknown query parameter is a 400 that names it and suggests the right one', async () => {
      const { key } = await newKey('team');
      const answer = await call('/api/v1/firms?limt=5', { key });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('unknown_parameter');
      expect(answer.body.errors).toEqual([{ parameter: 'limt', detail: 'unknown; did you mean limit?' }]);
    });

    it('bad path formats are a 400 naming the parameter, unknown records a 404', async () => {
      const { key } = await newKey('enterprise');
      for (const [path, parameter] of [['/api/v1/firms/Not_A_Slug', 'slug'], ['/api/v1/funds/12', 'id'], ['/api/v1/exports/2026-99-01/firms.jsonl.gz', 'date'], ['/api/v1/companies/a--b/rounds', 'slug']] as const) {
        const answer = await call(path, { key });
        expect(answer.status, path).toBe(400);
        expect(answer.body.errors.map((e: any) => e.parameter), path).toContain(parameter);
      }
      for (const path of ['/api/v1/firms/no-such-firm', '/api/v1/companies/no-such-company/investors', '/api/v1/funds/fnd_000000000000', '/api/v1/lists/no-such-list']) {
        const answer = await call(path, { key });
        expect(answer.status, path).toBe(404);
        expect(answer.body.code).toBe('not_found');
      }
      const stat = await call('/api/v1/statistics/rounds-by-month', { key });
      expect(stat.status).toBe(404);
      expect(stat.body.code).toBe('unknown_statistic');
      expect(stat.body.allowed).toEqual(['rounds-by-year', 'rounds-by-stage', 'most-active-investors', 'fund-returns-by-vintage']);
    });

    it('statistics are computed from the data: stages in order, years add up, investors ranked', async () => {
      const { key } = await newKey('enterprise');
      const rounds = await walk('/api/v1/rounds', key, 1000);
      const byYear = (await call('/api/v1/statistics/rounds-by-year', { key })).body.data.rows;
      expect(byYear.reduce((n: number, r: any) => n + r.rounds, 0)).toBe(rounds.length);
      const byStage = (await call('/api/v1/statistics/rounds-by-stage', { key })).body.data.rows;
      const seed = byStage.find((r: any) => r.stage === 'seed');
      const seriesB = byStage.find((r: any) => r.stage === 'series_b');
      expect(seed.median_amount_usd).toBeLessThan(seriesB.median_amount_usd);
      const active = (await call('/api/v1/statistics/most-active-investors', { key })).body.data.rows;
      expect(active.map((r: any) => r.rank)).toEqual(active.map((_: any, i: number) => i + 1));
      const portfolio = await walk(`/api/v1/firms/${active[0].firm_slug}/portfolio`, key, 1000);
      expect(portfolio.length).toBe(active[0].investments);
    });

    it('exports: the manifest lists real gzip JSONL files whose row counts and sha256 match', async () => {
      const { key } = await newKey('business');
      const manifest = await call('/api/v1/exports', { key });
      expect(manifest.status).toBe(200);
      const day = manifest.body.data[0];
      expect(day.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // The manifest pages like any list, newest first (found by the contract tests' page-limit rule).
      expect(manifest.body.data.length).toBeGreaterThan(1);
      const first = await call('/api/v1/exports?limit=1', { key });
      expect(first.body.data.map((d: any) => d.date)).toEqual([day.date]);
      const second = await call(`/api/v1/exports?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key });
      expect(second.body.data.map((d: any) => d.date)).toEqual([manifest.body.data[1].date]);
      expect(day.files.map((f: any) => f.name).sort()).toEqual(['adv-funds.jsonl.gz', 'companies.jsonl.gz', 'filings.jsonl.gz', 'firms.jsonl.gz', 'funds.jsonl.gz', 'investments.jsonl.gz', 'lists.jsonl.gz', 'offerings.jsonl.gz', 'rounds.jsonl.gz']);
      for (const file of day.files.filter((f: any) => ['firms.jsonl.gz', 'lists.jsonl.gz', 'rounds.jsonl.gz'].includes(f.name))) {
        const download = await call(new URL(file.url).pathname, { key });
        expect(download.status).toBe(200);
        expect(download.headers.get('content-type')).toBe('application/gzip');
        expect(download.bytes.length).toBe(file.bytes);
        const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', download.bytes as BufferSource))].map((b) => b.toString(16).padStart(2, '0')).join('');
        expect(digest).toBe(file.sha256);
        const text = await new Response(new Blob([download.bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
        const lines = text.split('\n').filter(Boolean);
        expect(lines).toHaveLength(file.rows);
        expect(JSON.parse(lines[0]!)).toHaveProperty('service_url');
      }
      for (const traversal of ['%2e%2e%2f%2e%2e%2fetc%2fpasswd', '..%2fmanifest.json', 'firms.jsonl', 'firms.jsonl.gz%00', 'FIRMS.jsonl.gz']) {
        const answer = await call(`/api/v1/exports/${day.date}/${traversal}`, { key });
        expect(answer.status, traversal).toBe(400);
      }
      expect((await call('/api/v1/exports/2001-01-01/firms.jsonl.gz', { key })).status).toBe(404);
    });

    it('the changes feed lists changes since a time, in order, with rows on request', async () => {
      const { key } = await newKey('team');
      const since = '2026-11-01T00:00:00Z';
      const items = await walk(`/api/v1/changes?since=${since}`, key, 25);
      expect(items.length).toBeGreaterThan(5);
      const sequences = items.map((c) => c.sequence);
      expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
      for (const c of items) expect(c.changed_at >= since).toBe(true);
      const withRows = (await call(`/api/v1/changes?since=${since}&include=rows&limit=50`, { key })).body.data;
      for (const c of withRows) {
        if (c.kind === 'unpublish') expect(c.row).toBeNull();
        else expect(c.row).toBeTruthy();
      }
      expect((await call(`/api/v1/changes?since=${since}&include=everything`, { key })).status).toBe(400);
      expect((await call('/api/v1/changes', { key })).status).toBe(400);
      expect((await call('/api/v1/changes?since=2026-11-01', { key })).status).toBe(400);
    });

    it('a rebuild applies pending changes: creates, real updates, untouched re-hashes and unpublishes', async () => {
      const mock = await setup({ now: AS_OF });
      try {
        const { key } = await newKey('enterprise', undefined, mock);
        const before = (await call('/api/v1/investments?limit=1000', { key }, mock)).body;
        const result = await control('/clock/advance', { duration: 'P14D' }, 'POST', mock);
        expect(result.applied).toBeGreaterThan(0);
        const rebuild = await control('/rebuild', {}, 'POST', mock);
        expect(rebuild.pending_rebuilds).toBe(0);
        const feed = await walk(`/api/v1/changes?since=${AS_OF.replace('03:00', '03:01')}&include=rows`, key, 1000, mock);
        const kinds = new Set(feed.map((c) => c.kind));
        expect([...kinds].sort()).toEqual(['create', 'unpublish', 'update']);
        for (const c of feed) {
          if (c.kind === 'create') expect(c.row.first_seen_at).toBe(c.changed_at);
          if (c.kind === 'update') expect(c.row.updated_at >= c.changed_at).toBe(true);
        }
        const gone = feed.find((c) => c.kind === 'unpublish' && c.resource === 'investment');
        const unpublished = await call(`/api/v1/investments?limit=1000`, { key }, mock);
        expect(unpublished.body.data.some((i: any) => i.id === gone.key)).toBe(false);
        const firm = before.data.find((i: any) => i.id === gone.key)?.firm_slug;
        if (firm) {
          const portfolio = await walk(`/api/v1/firms/${firm}/portfolio`, key, 1000, mock);
          expect(portfolio.some((i) => i.id === gone.key)).toBe(false);
        }
        const created = feed.find((c) => c.kind === 'create' && c.resource === 'round');
        const company = await walk(`/api/v1/companies/${created.row.company_slug}/rounds`, key, 1000, mock);
        expect(company.some((r) => r.id === created.key)).toBe(true);
        // A record the rebuild saw with the same content keeps its updated_at: no feed entry names it twice.
        const state = await control('/state', undefined, 'GET', mock);
        expect(state.as_of > AS_OF).toBe(true);
        const newer = await call('/api/v1/firms?limit=1', { key }, mock);
        expect(newer.body.as_of > AS_OF).toBe(true);
      } finally {
        await mock.close();
      }
    });

    it('Prefer: code=NNN and example=NAME force a documented response, as with Prism', async () => {
      const forced = await call('/api/v1/firms', { headers: { prefer: 'code=429' } });
      expect(forced.status).toBe(429);
      expect(forced.headers.get('retry-after')).toBe('1');
      const example = await call('/api/v1/firms/harbor-lane-capital', { headers: { prefer: 'example=default' } });
      expect(example.status).toBe(200);
      expect(example.body.data.slug).toBe('harbor-lane-capital');
      expect((await call('/api/v1/firms', { headers: { prefer: 'code=418' } })).status).toBe(400);
    });

    it('bad input never gets a 5xx and never stops the server', async () => {
      const { key } = await newKey('enterprise');
      const attempts: [string, RequestInit?][] = [
        ['/api/v1/firms?limit=%'], ['/api/v1/firms?limit=%zz'], ['/api/v1/firms?%ff=1'], ['/api/v1/firms?limit=%ff%fe'], ['/api/v1/firms?&&&=&=='],
        ['/api/v1/firms?limit=-99999999999999999999'], ['/api/v1/firms?limit=1.0000001'], ['/api/v1/firms?limit=NaN'], ['/api/v1/firms?limit=Infinity'],
        ['/api/v1/firms?cursor='], ['/api/v1/firms?cursor=%00%01'], [`/api/v1/firms?cursor=${'A'.repeat(5000)}`],
        ['/api/v1/firms/%c3%28'], ['/api/v1/firms/%'], ['/api/v1/exports/2026-11-20/..%2F..%2Fpackage.json'], ['/api/v1/statistics/%2e%2e'],
        [`/api/v1/firms/${'a'.repeat(7000)}`], [`/api/v1/firms?x=${'y'.repeat(9000)}`], ['/api/v1/firms', { method: 'PATCH' }], ['/api/v1/firms', { method: 'DELETE' }],
        ['/api/v1/keys/trial', { method: 'GET' }], ['/api/v1', {}], ['/api/v2/firms'], ['/', {}],
        ['/api/v1/changes?since=2026-02-30T00:00:00Z'], ['/api/v1/changes?since=9999999999'], ['/api/v1/rounds?announced_since=2026-02-30'],
      ];
      for (const [path, init] of attempts) {
        const answer = await call(path, { key, ...init });
        expect(answer.status, path.slice(0, 80)).toBeGreaterThanOrEqual(400);
        expect(answer.status, path.slice(0, 80)).toBeLessThan(500);
      }
      const method = await call('/api/v1/firms', { key, method: 'PUT' });
      expect(method.status).toBe(405);
      expect(method.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect((await call('/api/v1/firms?limit=1', { key })).status, 'still serving').toBe(200);
    });

    // ---------------------------------------------------------------- part 2: the commercial service

    it('a trial key is issued once per e-mail, shown once, and works', async () => {
      const email = `trial-${Date.now()}@example.com`;
      const issued = await call('/api/v1/keys/trial', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      expect(issued.status).toBe(201);
      expect(issued.headers.get('cache-control')).toBe('no-store');
      expect(issued.body.key).toMatch(/^igk_trial_[A-Za-z0-9]{32}$/);
      expect(issued.body).toMatchObject({ plan: 'trial', calls_limit: 1000, calls_remaining: 1000 });
      expect(Date.parse(issued.body.expires_at) - Date.parse(AS_OF)).toBeGreaterThanOrEqual(7 * DAY - 60_000);
      const again = await call('/api/v1/keys/trial', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: email.toUpperCase() }) });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('trial_exists');
      expect(JSON.stringify(again.body)).not.toContain(issued.body.key);
      const account = await call('/api/v1/account', { key: issued.body.key });
      expect(account.status).toBe(200);
      expect(account.body.data.keys).toEqual([expect.objectContaining({ key_id: issued.body.key_id, last4: issued.body.key.slice(-4), prefix: 'igk_trial_' })]);
      expect(JSON.stringify(account.body)).not.toContain(issued.body.key);
      expect(JSON.stringify(account.body)).not.toContain(email);
    });

    it('the trial call checks content type, JSON, e-mail syntax, unknown members and body size', async () => {
      // The open trial call is rate-limited per client: space the cases out as a client would.
      const post = (body: string, type = 'application/json') => politely('/api/v1/keys/trial', { method: 'POST', headers: { 'content-type': type }, body });
      expect((await post('{"email":"a@example.com"}', 'text/plain')).status).toBe(415);
      expect((await post('{"email":"a@example.com"}', 'application/x-www-form-urlencoded')).body.code).toBe('unsupported_media_type');
      const cases: [string, number, string][] = [
        ['{"email":"not-an-address"}', 400, 'invalid_body'], ['{"email":""}', 400, 'invalid_body'], ['{}', 400, 'invalid_body'],
        ['{"email":"a@example.com","plan":"enterprise"}', 400, 'invalid_body'], ['{"email":', 400, 'invalid_body'], ['[]', 400, 'invalid_body'],
        ['"a@example.com"', 400, 'invalid_body'], [JSON.stringify({ email: `${'a'.repeat(5000)}@example.com` }), 413, 'payload_too_large'],
      ];
      for (const [body, status, code] of cases) {
        const answer = await post(body);
        expect(answer.status, body.slice(0, 60)).toBe(status);
        expect(answer.body.code, body.slice(0, 60)).toBe(code);
      }
      const bad = await post('{"email":"nope"}');
      expect(bad.body.errors[0].pointer).toBe('/email');
    }, 30_000);

    it('no key, an unknown key and a revoked key are 401s with a trial-key action', async () => {
      const none = await call('/api/v1/firms');
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('missing_key');
      const trialAction = none.body.actions.find((a: any) => a.type === 'get_trial_key');
      expect(trialAction).toMatchObject({ method: 'POST', href: '/api/v1/keys/trial', content_type: 'application/json', body: { email: '{email}' } });
      expect(none.body.actions.map((a: any) => a.type)).toContain('book_call');
      expect((await call('/api/v1/firms', { key: 'igk_team_doesnotexist0000000000000000' })).body.code).toBe('invalid_key');
      expect((await call('/api/v1/firms', { headers: { authorization: 'Basic Zm9vOmJhcg==' } })).body.code).toBe('invalid_key');
      const { key, key_id } = await newKey('team');
      expect((await call('/api/v1/firms?limit=1', { key })).status).toBe(200);
      await control(`/keys/${key_id}/revoke`, {});
      const revoked = await call('/api/v1/firms?limit=1', { key });
      expect(revoked.status).toBe(401);
      expect(revoked.body.code).toBe('revoked_key');
    });

    it('a trial runs out after 1,000 calls and expires after 7 days, each a 402 with actions', async () => {
      const mock = await setup({ now: AS_OF });
      try {
        const { key, key_id } = await newKey('trial', undefined, mock);
        await control(`/keys/${key_id}/usage`, { calls_used: 999 }, 'PUT', mock);
        const last = await call('/api/v1/firms?limit=1', { key }, mock);
        expect(last.status).toBe(200);
        expect(last.body.usage).toMatchObject({ calls_used: 1000, calls_limit: 1000, calls_remaining: 0 });
        const over = await call('/api/v1/firms?limit=1', { key }, mock);
        expect(over.status).toBe(402);
        expect(over.body.code).toBe('trial_exhausted');
        expect(over.body.actions.map((a: any) => a.type)).toEqual(['subscribe', 'buy_prepaid_rows', 'book_call']);
        expect(over.body.actions[0].plan).toBe('team');
        const fresh = await newKey('trial', undefined, mock);
        expect((await call('/api/v1/firms?limit=1', { key: fresh.key }, mock)).status).toBe(200);
        await control('/clock/advance', { duration: 'P7D' }, 'POST', mock);
        const expired = await call('/api/v1/firms?limit=1', { key: fresh.key }, mock);
        expect(expired.status).toBe(402);
        expect(expired.body.code).toBe('trial_expired');
        // A trial made eight days ago through the control API is expired without moving the clock.
        const clockBefore = (await control('/clock', undefined, 'GET', mock)).now;
        const past = await control('/keys', { plan: 'trial', created_at: new Date(Date.parse(clockBefore) - 8 * 86_400_000).toISOString() }, 'POST', mock);
        expect((await call('/api/v1/firms?limit=1', { key: past.key }, mock)).body.code).toBe('trial_expired');
        expect(Date.parse((await control('/clock', undefined, 'GET', mock)).now) - Date.parse(clockBefore)).toBeLessThan(60_000);
        const future = await call('/__control/keys', { method: 'POST', body: JSON.stringify({ plan: 'trial', created_at: '2999-01-01T00:00:00Z' }), headers: { 'content-type': 'application/json' } }, mock);
        expect(future.status).toBe(400);
      } finally {
        await mock.close();
      }
    });

    it('a trial key never sees rounds inside the 75-day lag, and has no changes feed', async () => {
      const trial = await newKey('trial');
      const team = await newKey('team');
      const cutoff = new Date(Date.parse(AS_OF) - plans.trial.round_lag_days * DAY).toISOString().slice(0, 10);
      const seen = await walk('/api/v1/rounds?announced_since=2026-06-01', trial.key, 100);
      for (const r of seen) expect(r.announced_on <= cutoff, r.announced_on).toBe(true);
      const all = await walk('/api/v1/rounds?announced_since=2026-06-01', team.key, 500);
      expect(all.some((r) => r.announced_on > cutoff)).toBe(true);
      const feed = await call('/api/v1/changes?since=2026-11-01T00:00:00Z', { key: trial.key });
      expect(feed.status).toBe(402);
      expect(feed.body.code).toBe('plan_feature_unavailable');
      expect(feed.body.actions.find((a: any) => a.type === 'subscribe').plan).toBe('team');
    }, 60_000);

    it('exports are for Business and Enterprise only', async () => {
      for (const plan of ['trial', 'team', 'payg'] as const) {
        const { key } = await newKey(plan, plan === 'payg' ? 1000 : undefined);
        const answer = await call('/api/v1/exports', { key });
        expect(answer.status, plan).toBe(402);
        expect(answer.body.code).toBe('plan_feature_unavailable');
        expect(answer.body.actions.find((a: any) => a.type === 'subscribe').plan).toBe('business');
      }
      for (const plan of ['business', 'enterprise'] as const) expect((await call('/api/v1/exports', { key: (await newKey(plan)).key })).status, plan).toBe(200);
    });

    it("over the plan's rate: 429 with Retry-After, RateLimit headers and a higher plan; honouring it succeeds", async () => {
      const { key } = await newKey('team');
      const rate = plans.team.rate_per_second;
      const sent = rate * 3;
      const answers = await Promise.all(Array.from({ length: sent }, () => call('/api/v1/firms?limit=1', { key })));
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
      const after = await call('/api/v1/account', { key });
      expect(after.status).toBe(200);
      expect(after.body.data.usage.calls_used, 'only accepted calls are counted').toBe(ok.length);
    }, 20_000);

    it('a used-up monthly quota is a 402 until the month rolls over', async () => {
      const mock = await setup({ now: '2026-11-29T12:00:00Z' });
      try {
        const { key, key_id } = await newKey('team', undefined, mock);
        const limit = plans.team.calls_limit!;
        await control(`/keys/${key_id}/usage`, { calls_used: limit - 1 }, 'PUT', mock);
        expect((await call('/api/v1/firms?limit=1', { key }, mock)).body.usage.calls_remaining).toBe(0);
        const over = await call('/api/v1/firms?limit=1', { key }, mock);
        expect(over.status).toBe(402);
        expect(over.body.code).toBe('quota_exhausted');
        expect(over.body.actions.map((a: any) => a.type)).toEqual(['subscribe', 'buy_prepaid_rows', 'book_call']);
        expect(over.body.actions[0].plan).toBe('business');
        const account = await call('/api/v1/account', { key }, mock);
        expect(account.status, 'the account call is free and still answers').toBe(200);
        await control('/clock/advance', { duration: 'P2D' }, 'POST', mock);
        const next = await call('/api/v1/firms?limit=1', { key }, mock);
        expect(next.status).toBe(200);
        expect(next.body.usage).toMatchObject({ calls_used: 1, period_start: '2026-12-01T00:00:00Z', period_end: '2027-01-01T00:00:00Z' });
      } finally {
        await mock.close();
      }
    });

    it('pay as you go charges max(rows, 10) from the balance and refuses a call it cannot cover, charging nothing', async () => {
      const { key, key_id } = await newKey('payg', 75);
      const small = await call('/api/v1/firms?limit=3', { key });
      expect(small.body.usage).toMatchObject({ rows_charged: plans.payg.min_rows_per_call, balance_rows: 65 });
      const big = await call('/api/v1/firms?limit=40', { key });
      expect(big.body.usage).toMatchObject({ rows_charged: 40, balance_rows: 25 });
      const refused = await call('/api/v1/firms?limit=30', { key });
      expect(refused.status).toBe(402);
      expect(refused.body.code).toBe('insufficient_balance');
      expect(refused.body.actions[0].type).toBe('buy_prepaid_rows');
      const account = await call('/api/v1/account', { key });
      expect(account.body.data.balance).toEqual({ prepaid_rows: 25, value_usd: 0.13 });
      expect(account.body.data.usage.calls_used).toBe(2);
      await control(`/keys/${key_id}/top-up`, { rows: 1000 });
      expect((await call('/api/v1/firms?limit=30', { key })).body.usage.balance_rows).toBe(995);
    });

    it('counters and balance stay exact under many parallel requests', async () => {
      const { key } = await newKey('payg', 10_000);
      const sent = 40;
      const answers = await Promise.all(Array.from({ length: sent }, (_, i) => call(`/api/v1/firms?limit=${(i % 4) + 9}`, { key })));
      const ok = answers.filter((a) => a.status === 200);
      const limited = answers.filter((a) => a.status === 429);
      expect(ok.length + limited.length).toBe(sent);
      const charged = ok.reduce((n, a) => n + a.body.usage.rows_charged, 0);
      expect(charged).toBe(ok.reduce((n, a) => n + Math.max(a.body.data.length, 10), 0));
      const usedNumbers = ok.map((a) => a.body.usage.calls_used).sort((a, b) => a - b);
      expect(usedNumbers, 'every accepted call got its own count').toEqual(usedNumbers.map((_, i) => i + 1));
      await new Promise((r) => setTimeout(r, 1100));
      const account = await call('/api/v1/account', { key });
      expect(account.body.data.usage.calls_used).toBe(ok.length);
      expect(account.body.data.balance.prepaid_rows).toBe(10_000 - charged);
    }, 20_000);

    it('the account call is neither counted nor charged', async () => {
      const { key } = await newKey('payg', 100);
      const a = await call('/api/v1/account', { key });
      const b = await call('/api/v1/account', { key });
      expect(a.body.data.usage.calls_used).toBe(0);
      expect(b.body.data.usage).toMatchObject({ calls_used: 0, rows_charged: 0, balance_rows: 100 });
    });

    it('every rule held for every response in this run', async () => {
      expect(findings).toEqual([]);
    });
  });
}
