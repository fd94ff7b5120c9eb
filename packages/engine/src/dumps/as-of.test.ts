import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { collectDataset, defaultDataset, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import { Dumps } from './dumps.ts';
import { MemoryStore } from '../stores/memory/dataset-store.ts';
import { companyFromRounds, portfolioCount } from '../data/derived-fields.ts';

// The embedded dataset, as `pnpm generate` writes it to dataset/ (as of 2026-11-20T03:00:00Z).
const dataset = collectDataset(defaultDataset);

function setup() {
  const store = new MemoryStore(structuredClone(dataset));
  const dumps = new Dumps(store, { sliceMs: 0 });
  /** A day's dump as its rows by resource, and its generated_at. */
  const day = async (date: string) => {
    const dump = await dumps.day(date);
    const rows = {} as Record<ResourceName, Row[]>;
    for (const file of dump.files) {
      const text = gunzipSync(new Uint8Array(await file.body.arrayBuffer())).toString('utf8');
      rows[file.resource as ResourceName] = text
        ? text
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line) as Row)
        : [];
    }
    return { generatedAt: dump.generated_at, rows, files: dump.files };
  };
  return { store, day };
}

const after = (time: unknown, generatedAt: string) => Date.parse(time as string) > Date.parse(generatedAt);
const byKey = (rows: Row[], key: string) => new Map(rows.map((row) => [row[key] as string, row]));

test("a past day's dump holds no row first seen after its generated_at, and every row first seen by then", async () => {
  const { store, day } = setup();
  for (const date of ['2026-11-18', '2026-11-19']) {
    const { generatedAt, rows } = await day(date);
    const seenLater = Object.entries(rows).flatMap(([resource, list]) =>
      list
        .filter((row) => after(row.first_seen_at, generatedAt))
        .map((row) => `${resource} ${row.service_url as string}`),
    );
    expect(seenLater, date).toEqual([]);
    for (const [resource, list] of Object.entries(rows) as [ResourceName, Row[]][])
      expect(list.length, `${date} ${resource}`).toBe(
        [...store.all(resource)].filter((row) => !after(row.first_seen_at, generatedAt)).length,
      );
  }
});

test('two days hold the same files exactly when nothing changed between their generated_at times', async () => {
  const { store, day } = setup();
  // The embedded dataset logs no change between 2026-11-18T04:00 and 2026-11-19T04:00; rebuilds run on the 22nd.
  store.applyDue(Date.parse('2026-11-23T12:00:00Z'));
  const [first, second, third] = [await day('2026-11-18'), await day('2026-11-19'), await day('2026-11-22')];
  expect(second.files).toBe(first.files);
  expect(third.files.map((f) => f.sha256)).not.toEqual(second.files.map((f) => f.sha256));
});

test("a row a rebuild changed after a day's generated_at is in that day's dump as it was then", async () => {
  const { store, day } = setup();
  const before = new MemoryStore(structuredClone(dataset));
  before.applyDue(Date.parse('2026-11-23T04:00:00Z'));
  // The rebuilds of the days after: rows created, revised and unpublished.
  const changes = store.applyDue(Date.parse('2026-11-26T12:00:00Z'));
  const { rows } = await day('2026-11-23');
  for (const kind of ['create', 'update', 'unpublish'] as const)
    expect(
      changes.some((c) => c.kind === kind && after(c.changed_at, '2026-11-23T04:00:00Z')),
      kind,
    ).toBe(true);
  for (const { resource, key, changed_at } of changes.filter((c) => after(c.changed_at, '2026-11-23T04:00:00Z'))) {
    const field = resource === 'firm' || resource === 'company' || resource === 'list' ? 'slug' : 'id';
    const then = before.get(resource, key);
    expect(byKey(rows[resource], field).get(key), `${resource} ${key} changed at ${changed_at}`).toEqual(then);
  }
});

test("a company in a past day's dump agrees with that dump's rounds, a firm with its edges", async () => {
  const { day } = setup();
  const { rows } = await day('2026-11-18');
  const rounds = Map.groupBy(rows.round, (round) => round.company_slug as string);
  const edges = Map.groupBy(rows.investment, (edge) => edge.firm_slug as string);
  for (const company of rows.company) {
    const derived = companyFromRounds(rounds.get(company.slug as string) ?? []);
    expect({ slug: company.slug, total: company.total_raised_usd, last: company.last_round }).toEqual({
      slug: company.slug,
      total: derived.total_raised_usd,
      last: derived.last_round,
    });
  }
  for (const firm of rows.firm)
    if (typeof firm.portfolio_count === 'number')
      expect([firm.slug, firm.portfolio_count]).toEqual([
        firm.slug,
        portfolioCount(edges.get(firm.slug as string) ?? []),
      ]);
});

test('with no changes feed back to a day (a dump read back has none), first_seen_at says if a row is in', async () => {
  const store = new MemoryStore({ ...structuredClone(dataset), changes: [] });
  const dump = await new Dumps(store, { sliceMs: 0 }).day('2026-11-19');
  const rounds = dump.files.find((f) => f.resource === 'round')!;
  const lines = gunzipSync(new Uint8Array(await rounds.body.arrayBuffer()))
    .toString('utf8')
    .trimEnd()
    .split('\n');
  const seenLater = lines
    .map((line) => JSON.parse(line) as Row)
    .filter((row) => after(row.first_seen_at, dump.generated_at));
  expect(seenLater).toEqual([]);
  expect(lines.length).toBe(dataset.rows.round.filter((row) => !after(row.first_seen_at, dump.generated_at)).length);
});
