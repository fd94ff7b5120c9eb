import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import type { ResourceName, Row } from '@investor-graph/dataset-tools';
import { Dumps } from './dumps.ts';
import { MemoryStore } from '../stores/memory/dataset-store.ts';
import type { StoreInput } from '../data/store.ts';

const AS_OF = '2026-11-20T03:00:00Z';

/** Firms inserted out of key order, and a few thousand investments: a file written in many pieces. */
function input(more: Partial<StoreInput> = {}): StoreInput {
  const rows = {
    firm: [],
    company: [],
    round: [],
    investment: [],
    fund: [],
    filing: [],
    offering: [],
    'adv-fund': [],
    list: [],
  } as Record<ResourceName, Row[]>;
  rows.firm = ['cedar', 'alder', 'birch'].map((slug) => ({ slug, name: slug, note: 'é ✓ "quoted"' }));
  rows.investment = Array.from({ length: 4_321 }, (_, i) => ({
    id: `inv_${String(4_321 - i).padStart(6, '0')}`,
    firm_slug: 'alder',
    company_slug: 'acme',
  }));
  return { asOf: AS_OF, rows, changes: [], pending: [], ...more };
}

const file = async (dumps: Dumps, date: string, name: string) => {
  const found = (await dumps.day(date)).files.find((f) => f.name === name)!;
  return { ...found, body: new Uint8Array(await found.body.arrayBuffer()) };
};

test(
  'a dump file is its rows in key order, one JSON a line, ' + 'gzipped, with the size and sha256 the manifest lists',
  async () => {
    const store = new MemoryStore(input());
    const dumps = new Dumps(store);
    for (const [name, resource, key] of [
      ['firms.jsonl.gz', 'firm', 'slug'],
      ['investments.jsonl.gz', 'investment', 'id'],
    ] as const) {
      const dump = await file(dumps, '2026-11-19', name);
      const rows = [...store.all(resource)].sort((a, b) => ((a[key] as string) < (b[key] as string) ? -1 : 1));
      expect(gunzipSync(dump.body).toString('utf8')).toBe(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      expect(dump.rows).toBe(rows.length);
      expect(dump.bytes).toBe(dump.body.length);
      expect(dump.sha256).toBe(createHash('sha256').update(dump.body).digest('hex'));
    }
    // An empty resource is an empty gzip file.
    expect(gunzipSync((await file(dumps, '2026-11-19', 'lists.jsonl.gz')).body).length).toBe(0);
  },
);

test(
  'the days a manifest lists share one build when nothing changed between them; ' +
    'a day holds the data as of its generated_at, and stays as it was built',
  async () => {
    const store = new MemoryStore(
      input({
        pending: [{ at: '2026-11-21T05:00:00Z', resource: 'firm', key: 'elm', row: { slug: 'elm', name: 'elm' } }],
      }),
    );
    const dumps = new Dumps(store);
    const [first, second] = await Promise.all([dumps.day('2026-11-21'), dumps.day('2026-11-20')]);
    expect(first.files).toBe(second.files);
    expect([first.generated_at, second.generated_at]).toEqual(['2026-11-21T04:00:00Z', '2026-11-20T04:00:00Z']);
    store.applyDue(Date.parse('2026-11-22T06:00:00Z'));
    const firms = async (of: Dumps, date: string) =>
      (await of.day(date)).files.find((f) => f.resource === 'firm')!.rows;
    const third = await dumps.day('2026-11-22');
    expect(third.files).not.toBe(first.files);
    expect(await firms(dumps, '2026-11-22')).toBe(4);
    // A day once built stays as it was: its sha256 keeps matching its bytes.
    expect((await dumps.day('2026-11-21')).files).toBe(first.files);
    // Built afresh now, the 21st holds the data as of its 04:00: elm came at 05:00.
    expect(await firms(new Dumps(store), '2026-11-21')).toBe(3);
  },
);

test('a resource changed while it is being taken is taken again: its file is the resource at one moment', async () => {
  // A store whose data changes once the dump has taken 2,000 investments (of 4,321), mid-take.
  class ChangingStore extends MemoryStore {
    reads = 0;
    override get(resource: ResourceName, key: string): Row | undefined {
      if (resource === 'investment' && ++this.reads === 2_000) this.applyDue(Date.parse('2026-11-20T04:00:00Z'));
      return super.get(resource, key);
    }
  }
  const store = new ChangingStore(
    input({
      pending: [
        {
          at: '2026-11-20T04:00:00Z',
          resource: 'investment',
          key: 'inv_000000',
          row: { id: 'inv_000000', firm_slug: 'birch', company_slug: 'acme' },
        },
      ],
    }),
  );
  // Slices of 0 ms: the take lets other work in every 1,024 rows, as it would on a large dataset.
  const dumps = new Dumps(store, { sliceMs: 0 });
  // The day whose 04:00 the change came by: its file holds it.
  const investments = await file(dumps, '2026-11-20', 'investments.jsonl.gz');
  const lines = gunzipSync(investments.body).toString('utf8').trimEnd().split('\n');
  expect(store.reads).toBeGreaterThan(4_321);
  expect(investments.rows).toBe(4_322);
  expect(lines).toHaveLength(4_322);
  expect(JSON.parse(lines[0]!).id).toBe('inv_000000');
});
