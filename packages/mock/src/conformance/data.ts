/** Conformance cases of data: statistics, exports, the changes feed, rebuilds, Prefer, bad input. */
import { expect } from 'vitest';
import { AS_OF, type ConformanceContext } from './context.ts';

export function dataCases(c: ConformanceContext): void {
  c.it('statistics are computed from the data: stages in order, years add up, investors ranked', async () => {
    const { key } = await c.newKey('enterprise');
    const rounds = await c.walk('/api/v1/rounds', key, 1000);
    const byYear = (await c.call('/api/v1/statistics/rounds-by-year', { key })).body.data.rows;
    expect(byYear.reduce((n: number, r: any) => n + r.rounds, 0)).toBe(rounds.length);
    const byStage = (await c.call('/api/v1/statistics/rounds-by-stage', { key })).body.data.rows;
    const seed = byStage.find((r: any) => r.stage === 'seed');
    const seriesB = byStage.find((r: any) => r.stage === 'series_b');
    expect(seed.median_amount_usd).toBeLessThan(seriesB.median_amount_usd);
    const active = (await c.call('/api/v1/statistics/most-active-investors', { key })).body.data.rows;
    expect(active.map((r: any) => r.rank)).toEqual(active.map((_: any, i: number) => i + 1));
    const portfolio = await c.walk(`/api/v1/firms/${active[0].firm_slug}/portfolio`, key, 1000);
    expect(portfolio.length).toBe(active[0].investments);
  });

  c.it('exports: the manifest lists real gzip JSONL files whose row counts and sha256 match', async () => {
    const { key } = await c.newKey('business');
    const manifest = await c.call('/api/v1/exports', { key });
    expect(manifest.status).toBe(200);
    const day = manifest.body.data[0];
    expect(day.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The manifest pages like any list, newest first (found by the contract tests' page-limit rule).
    expect(manifest.body.data.length).toBeGreaterThan(1);
    const first = await c.call('/api/v1/exports?limit=1', { key });
    expect(first.body.data.map((d: any) => d.date)).toEqual([day.date]);
    const second = await c.call(`/api/v1/exports?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`, {
      key,
    });
    expect(second.body.data.map((d: any) => d.date)).toEqual([manifest.body.data[1].date]);
    expect(day.files.map((f: any) => f.name).sort()).toEqual([
      'adv-funds.jsonl.gz',
      'companies.jsonl.gz',
      'filings.jsonl.gz',
      'firms.jsonl.gz',
      'funds.jsonl.gz',
      'investments.jsonl.gz',
      'lists.jsonl.gz',
      'offerings.jsonl.gz',
      'rounds.jsonl.gz',
    ]);
    for (const file of day.files.filter((f: any) =>
      ['firms.jsonl.gz', 'lists.jsonl.gz', 'rounds.jsonl.gz'].includes(f.name),
    )) {
      const download = await c.call(new URL(file.url).pathname, { key });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/gzip');
      expect(download.bytes.length).toBe(file.bytes);
      const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', download.bytes as BufferSource))]
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('');
      expect(digest).toBe(file.sha256);
      const text = await new Response(
        new Blob([download.bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip')),
      ).text();
      const lines = text.split('\n').filter(Boolean);
      expect(lines).toHaveLength(file.rows);
      expect(JSON.parse(lines[0]!)).toHaveProperty('service_url');
    }
    for (const traversal of [
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '..%2fmanifest.json',
      'firms.jsonl',
      'firms.jsonl.gz%00',
      'FIRMS.jsonl.gz',
    ]) {
      const answer = await c.call(`/api/v1/exports/${day.date}/${traversal}`, { key });
      expect(answer.status, traversal).toBe(400);
    }
    expect((await c.call('/api/v1/exports/2001-01-01/firms.jsonl.gz', { key })).status).toBe(404);
  });

  c.it('the changes feed lists changes since a time, in order, with rows on request', async () => {
    const { key } = await c.newKey('team');
    const since = '2026-11-01T00:00:00Z';
    const items = await c.walk(`/api/v1/changes?since=${since}`, key, 25);
    expect(items.length).toBeGreaterThan(5);
    const sequences = items.map((change) => change.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    for (const change of items) expect(change.changed_at >= since).toBe(true);
    const withRows = (await c.call(`/api/v1/changes?since=${since}&include=rows&limit=50`, { key })).body.data;
    for (const change of withRows) {
      if (change.kind === 'unpublish') expect(change.row).toBeNull();
      else expect(change.row).toBeTruthy();
    }
    expect((await c.call(`/api/v1/changes?since=${since}&include=everything`, { key })).status).toBe(400);
    expect((await c.call('/api/v1/changes', { key })).status).toBe(400);
    expect((await c.call('/api/v1/changes?since=2026-11-01', { key })).status).toBe(400);
  });

  c.it('a rebuild applies pending changes: creates, real updates, untouched re-hashes and unpublishes', async () => {
    const mock = await c.setup({ now: AS_OF });
    try {
      const { key } = await c.newKey('enterprise', undefined, mock);
      const before = (await c.call('/api/v1/investments?limit=1000', { key }, mock)).body;
      const firmTags = new Map<string, string>();
      for (const firm of (await c.call('/api/v1/firms?limit=5', { key }, mock)).body.data)
        firmTags.set(firm.slug, (await c.call(`/api/v1/firms/${firm.slug}`, { key }, mock)).headers.get('etag')!);
      const result = await c.control('/clock/advance', { duration: 'P14D' }, 'POST', mock);
      expect(result.applied).toBeGreaterThan(0);
      const rebuild = await c.control('/rebuild', {}, 'POST', mock);
      expect(rebuild.pending_rebuilds).toBe(0);
      const feed = await c.walk(
        `/api/v1/changes?since=${AS_OF.replace('03:00', '03:01')}&include=rows`,
        key,
        1000,
        mock,
      );
      const kinds = new Set(feed.map((change) => change.kind));
      // A new version of the dataset is a new entity tag, even for a record it left as it was.
      const untouched = [...firmTags].filter(
        ([slug]) => !feed.some((change) => change.resource === 'firm' && change.key === slug),
      );
      expect(untouched.length).toBeGreaterThan(0);
      for (const [slug, tag] of untouched) {
        const again = await c.call(`/api/v1/firms/${slug}`, { key, headers: { 'if-none-match': tag } }, mock);
        expect(again.status).toBe(200);
        expect(again.headers.get('etag')).not.toBe(tag);
      }
      expect([...kinds].sort()).toEqual(['create', 'unpublish', 'update']);
      for (const change of feed) {
        if (change.kind === 'create') expect(change.row.first_seen_at).toBe(change.changed_at);
        if (change.kind === 'update') expect(change.row.updated_at >= change.changed_at).toBe(true);
      }
      const gone = feed.find((change) => change.kind === 'unpublish' && change.resource === 'investment');
      const unpublished = await c.call(`/api/v1/investments?limit=1000`, { key }, mock);
      expect(unpublished.body.data.some((i: any) => i.id === gone.key)).toBe(false);
      const firm = before.data.find((i: any) => i.id === gone.key)?.firm_slug;
      if (firm) {
        const portfolio = await c.walk(`/api/v1/firms/${firm}/portfolio`, key, 1000, mock);
        expect(portfolio.some((i) => i.id === gone.key)).toBe(false);
      }
      const created = feed.find((change) => change.kind === 'create' && change.resource === 'round');
      const company = await c.walk(`/api/v1/companies/${created.row.company_slug}/rounds`, key, 1000, mock);
      expect(company.some((r) => r.id === created.key)).toBe(true);
      // A record the rebuild saw with the same content keeps its updated_at: no feed entry names it twice.
      const state = await c.control('/state', undefined, 'GET', mock);
      expect(state.as_of > AS_OF).toBe(true);
      const newer = await c.call('/api/v1/firms?limit=1', { key }, mock);
      expect(newer.body.as_of > AS_OF).toBe(true);
    } finally {
      await mock.close();
    }
  });

  c.it('Prefer: code=NNN and example=NAME force a documented response, as with Prism', async () => {
    const forced = await c.call('/api/v1/firms', { headers: { prefer: 'code=429' } });
    expect(forced.status).toBe(429);
    expect(forced.headers.get('retry-after')).toBe('1');
    const example = await c.call('/api/v1/firms/harbor-lane-capital', { headers: { prefer: 'example=default' } });
    expect(example.status).toBe(200);
    expect(example.body.data.slug).toBe('harbor-lane-capital');
    expect((await c.call('/api/v1/firms', { headers: { prefer: 'code=418' } })).status).toBe(400);
  });

  c.it('bad input never gets a 5xx and never stops the server', async () => {
    const { key } = await c.newKey('enterprise');
    const attempts: [string, RequestInit?][] = [
      ['/api/v1/firms?limit=%'],
      ['/api/v1/firms?limit=%zz'],
      ['/api/v1/firms?%ff=1'],
      ['/api/v1/firms?limit=%ff%fe'],
      ['/api/v1/firms?&&&=&=='],
      ['/api/v1/firms?limit=-99999999999999999999'],
      ['/api/v1/firms?limit=1.0000001'],
      ['/api/v1/firms?limit=NaN'],
      ['/api/v1/firms?limit=Infinity'],
      ['/api/v1/firms?cursor='],
      ['/api/v1/firms?cursor=%00%01'],
      [`/api/v1/firms?cursor=${'A'.repeat(5000)}`],
      ['/api/v1/firms/%c3%28'],
      ['/api/v1/firms/%'],
      ['/api/v1/exports/2026-11-20/..%2F..%2Fpackage.json'],
      ['/api/v1/statistics/%2e%2e'],
      [`/api/v1/firms/${'a'.repeat(7000)}`],
      [`/api/v1/firms?x=${'y'.repeat(9000)}`],
      ['/api/v1/firms', { method: 'PATCH' }],
      ['/api/v1/firms', { method: 'DELETE' }],
      ['/api/v1/keys/trial', { method: 'GET' }],
      ['/api/v1', {}],
      ['/api/v2/firms'],
      ['/', {}],
      ['/api/v1/changes?since=2026-02-30T00:00:00Z'],
      ['/api/v1/changes?since=9999999999'],
      ['/api/v1/rounds?announced_since=2026-02-30'],
    ];
    for (const [path, init] of attempts) {
      const answer = await c.call(path, { key, ...init });
      expect(answer.status, path.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(answer.status, path.slice(0, 80)).toBeLessThan(500);
    }
    const method = await c.call('/api/v1/firms', { key, method: 'PUT' });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await c.call('/api/v1/firms?limit=1', { key })).status, 'still serving').toBe(200);
  });

  // ---------------------------------------------------------------- part 2: the commercial service
}
