/** Conformance cases of reading: every operation, walks and cursors, filters, limits. */
import { expect } from 'vitest';
import { plans } from '@investor-graph/contract';
import { AS_OF, type Answer, type ConformanceContext } from './context.ts';

export function readingCases(c: ConformanceContext): void {
  // ---------------------------------------------------------------- part 1: the data

  c.it('every operation answers from the dataset with a body the contract accepts', async () => {
    const { key } = await c.newKey('enterprise');
    const firms = await c.call('/api/v1/firms?limit=3', { key });
    const firm = firms.body.data[0].slug;
    const companies = await c.call('/api/v1/companies?limit=3', { key });
    const company = companies.body.data[0].slug;
    const funds = await c.call('/api/v1/funds?limit=1', { key });
    const lists = await c.call('/api/v1/lists', { key });
    const paths = [
      `/api/v1/firms/${firm}`,
      `/api/v1/firms/${firm}/portfolio`,
      `/api/v1/firms/${firm}/filings`,
      `/api/v1/firms/${firm}/funds`,
      `/api/v1/companies/${company}`,
      `/api/v1/companies/${company}/rounds`,
      `/api/v1/companies/${company}/investors`,
      `/api/v1/companies/${company}/offerings`,
      '/api/v1/rounds',
      '/api/v1/investments',
      `/api/v1/funds/${funds.body.data[0].id}`,
      '/api/v1/filings',
      '/api/v1/offerings',
      '/api/v1/adv-funds',
      `/api/v1/lists/${lists.body.data[0].slug}`,
      '/api/v1/changes?since=2026-10-01T00:00:00Z',
      '/api/v1/exports',
      '/api/v1/account',
      '/api/v1/statistics/rounds-by-year',
      '/api/v1/statistics/rounds-by-stage',
      '/api/v1/statistics/most-active-investors',
      '/api/v1/statistics/fund-returns-by-vintage',
    ];
    for (const path of paths) {
      const answer = await c.call(path, { key });
      expect(answer.status, `${path}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(['as_of', 'data', 'next_cursor', 'plan', 'usage']);
      expect(answer.body.plan.id).toBe('enterprise');
      expect(answer.body.as_of).toBe(AS_OF);
    }
    const doc = await c.call('/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toHaveLength(26);
  });

  c.it(
    'walking a list with any limit yields every row exactly once, in key order, and ends with next_cursor null',
    async () => {
      const { key } = await c.newKey('enterprise');
      const all = (await c.call('/api/v1/firms?limit=1000', { key })).body;
      expect(all.next_cursor).toBeNull();
      const slugs = all.data.map((f: any) => f.slug);
      expect(slugs).toEqual([...slugs].sort());
      for (const limit of [1, 7, 50, slugs.length - 1, slugs.length]) {
        const walked = (await c.walk('/api/v1/firms', key, limit)).map((f) => f.slug);
        expect(walked, `limit ${limit}`).toEqual(slugs);
      }
      const investors = await c.walk('/api/v1/investments', key, 997);
      expect(new Set(investors.map((i) => i.id)).size).toBe(investors.length);
    },
    120_000,
  );

  c.it('a walk sees every row exactly once while rebuilds create rows during it', async () => {
    const mock = await c.setup({ now: AS_OF });
    try {
      const { key } = await c.newKey('enterprise', undefined, mock);
      const before = new Set<string>();
      let cursor: string | null = null;
      do {
        const page: Answer = await c.call(
          `/api/v1/rounds?limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
          { key },
          mock,
        );
        for (const r of page.body.data) before.add(r.id);
        cursor = page.body.next_cursor;
      } while (cursor);
      const seen: string[] = [];
      cursor = null;
      let pages = 0;
      do {
        const page: Answer = await c.call(
          `/api/v1/rounds?limit=150${cursor ? `&cursor=${cursor}` : ''}`,
          { key },
          mock,
        );
        seen.push(...page.body.data.map((r: any) => r.id));
        cursor = page.body.next_cursor;
        // Two days of rebuilds land between pages: new rounds appear behind and ahead of the cursor.
        if (pages++ === 2) await c.control('/clock/advance', { duration: 'P2D' }, 'POST', mock);
      } while (cursor);
      expect(new Set(seen).size, 'no duplicates').toBe(seen.length);
      for (const id of before) expect(seen.includes(id), `${id} seen`).toBe(true);
      expect(seen.length).toBeGreaterThan(before.size);
    } finally {
      await mock.close();
    }
  });

  c.it('a tampered, truncated, garbage or foreign cursor is rejected with 400 invalid_cursor', async () => {
    const { key } = await c.newKey('enterprise');
    const first = await c.call('/api/v1/rounds?limit=5&announced_since=2020-01-01', { key });
    const cursor: string = first.body.next_cursor;
    const [payload, signature] = cursor.split('.') as [string, string];
    const flipped = payload.slice(0, -2) + (payload.at(-2) === 'A' ? 'B' : 'A') + payload.at(-1);
    const bad = [
      `${flipped}.${signature}`,
      cursor.slice(0, cursor.length - 3),
      'garbage',
      'a.b',
      `${payload}.`,
      '....',
      '%00',
      'x'.repeat(600),
    ];
    for (const wrong of bad) {
      const answer = await c.call(
        `/api/v1/rounds?limit=5&announced_since=2020-01-01&cursor=${encodeURIComponent(wrong)}`,
        { key },
      );
      expect(answer.status, wrong).toBe(400);
      expect(['invalid_cursor', 'invalid_parameter'], wrong).toContain(answer.body.code);
      expect(answer.body.errors[0].parameter).toBe('cursor');
    }
    const otherFilters = await c.call(`/api/v1/rounds?limit=5&announced_since=2021-01-01&cursor=${cursor}`, { key });
    expect(otherFilters.body.code).toBe('invalid_cursor');
    const otherEndpoint = await c.call(`/api/v1/firms?limit=5&cursor=${cursor}`, { key });
    expect(otherEndpoint.body.code).toBe('invalid_cursor');
    const unchanged = await c.call(`/api/v1/rounds?limit=9&announced_since=2020-01-01&cursor=${cursor}`, { key });
    expect(unchanged.status, 'the genuine cursor still works, with another limit').toBe(200);
  });

  c.it('announced_since keeps rounds on or after the date, on rounds and through pages', async () => {
    const { key } = await c.newKey('enterprise');
    const rows = await c.walk('/api/v1/rounds?announced_since=2025-06-01', key, 200);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.announced_on >= '2025-06-01').toBe(true);
    const bad = await c.call('/api/v1/rounds?announced_since=2025-13-45', { key });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].parameter).toBe('announced_since');
  });

  c.it(
    "limit defaults to 100, is capped silently at the plan's page size up to its maximum (int32's), and below 1, " +
      'above it or not an integer is a 400',
    async () => {
      const team = await c.newKey('team');
      expect((await c.call('/api/v1/investments', { key: team.key })).body.data).toHaveLength(100);
      expect((await c.call('/api/v1/investments?limit=100000', { key: team.key })).body.data).toHaveLength(
        plans.team.rows_per_page,
      );
      const enterprise = await c.newKey('enterprise');
      expect((await c.call('/api/v1/investments?limit=2147483647', { key: enterprise.key })).body.data).toHaveLength(
        plans.enterprise.rows_per_page,
      );
      // Leading zeros are the same integer, within the maximum however many there are.
      expect((await c.call(`/api/v1/firms?limit=${'0'.repeat(20)}3`, { key: team.key })).body.data).toHaveLength(3);
      expect((await c.call(`/api/v1/firms?limit=${'0'.repeat(20)}`, { key: team.key })).status).toBe(400);
      // Past the contract's maximum (DECISIONS.md#limit), and 400 nines, past what a double holds.
      for (const limit of ['2147483648', '9'.repeat(33), '9'.repeat(400), '0', '-1', '1.5', 'ten', '', '1e3', '0x10']) {
        const answer = await c.call(`/api/v1/firms?limit=${limit}`, { key: team.key });
        expect(answer.status, `limit=${limit}`).toBe(400);
        expect(answer.body.errors[0].parameter).toBe('limit');
      }
      const twice = await c.call('/api/v1/firms?limit=2&limit=3', { key: team.key });
      expect(twice.status).toBe(400);
    },
  );
}
