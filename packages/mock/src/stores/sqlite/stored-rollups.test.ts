import { expect, test } from 'vitest';
import { collectDataset, type Observation, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import { MemoryStore } from '@investor-graph/engine/adapter';
import { rollupFromRows } from '@investor-graph/engine/testing';
import { statisticNames, type StatisticName } from '@investor-graph/engine/adapter';
import { Statistics } from '@investor-graph/engine/adapter';
import type { Store, StoreInput } from '@investor-graph/engine/adapter';
import { SqliteStore } from './dataset-store.ts';

const options = { seed: 'stored-rollups', scale: 4_000, asOf: '2026-11-20T03:00:00Z' };
/** No cutoff (every paid plan), the trial's (75 days), and one far back that takes most rounds away. */
const cutoffs = [null, '2026-09-06', '2019-06-30'];

async function statistics(store: Store): Promise<string> {
  const stats = new Statistics(store, 1_000);
  const out: unknown[] = [];
  for (const name of statisticNames)
    for (const cutoff of cutoffs) out.push(name, cutoff, await stats.rows(name as StatisticName, cutoff));
  return JSON.stringify(out, null, 1);
}

/** The rollups as computed before the counts, from the rows the memory store holds now. */
async function reference(memory: MemoryStore): Promise<string> {
  const out: unknown[] = [];
  for (const name of statisticNames)
    for (const cutoff of cutoffs)
      out.push(name, cutoff, await rollupFromRows(name, (r: ResourceName) => memory.all(r), cutoff));
  return JSON.stringify(out, null, 1);
}

/** Both stores agree with the rollups computed from every row. */
async function agree(sqlite: SqliteStore, memory: MemoryStore): Promise<void> {
  const expected = await reference(memory);
  expect(await statistics(memory)).toBe(expected);
  expect(await statistics(sqlite)).toBe(expected);
}

/** The busiest firms are read four at a time, so the walk for the top 25 ends inside the table. */
function pair(input: () => StoreInput = () => collectDataset(options)): { sqlite: SqliteStore; memory: MemoryStore } {
  const sqlite = SqliteStore.fromInput(input(), { firmBatch: 4 });
  // The stored counts are read, never the rows: a scan here fails the test.
  sqlite.all = () => {
    throw new Error('a rollup read every row');
  };
  return { sqlite, memory: new MemoryStore(input()) };
}

test(
  'the statistics from counts stored with the dataset are ' +
    'those of every row counted, with and without a round lag',
  async () => {
    const { sqlite, memory } = pair();
    await agree(sqlite, memory);
    sqlite.close();
  },
);

test('they stay so as rebuilds create, revise and unpublish rows', async () => {
  const { sqlite, memory } = pair();
  for (const at of ['2026-11-24T00:00:00Z', '2026-12-31T00:00:00Z']) {
    expect(sqlite.applyDue(Date.parse(at))).toEqual(memory.applyDue(Date.parse(at)));
    await agree(sqlite, memory);
  }
  sqlite.close();
});

test(
  'they follow a round unpublished, one moved past the lag, ' +
    'edges revised or unpublished, and an edge naming no round',
  async () => {
    const { sqlite, memory } = pair();
    const rounds = [...memory.all('round')].filter((r) => (r.announced_on as string) < '2026-01-01');
    const busiest = await new Statistics(memory).rows('most-active-investors', null);
    const firm = busiest[0]!.firm_slug as string;
    const edges = memory.nestedRows('listFirmPortfolio', firm);
    const at = '2026-11-20T04:00:00Z';
    const edit = (row: Row, change: Row): Row => ({ ...structuredClone(row), ...change });
    const observations: Observation[] = [
      // A round with edges goes: its edges stop counting for their firms.
      { at, resource: 'round', key: edges[0]!.round_id as string, row: null },
      // A round is re-dated inside the trial's lag, and another out of it.
      { at, resource: 'round', key: rounds[1]!.id as string, row: edit(rounds[1]!, { announced_on: '2026-11-01' }) },
      {
        at,
        resource: 'round',
        key: rounds[2]!.id as string,
        row: edit(rounds[2]!, { announced_on: '2018-01-01', stage: 'seed', amount_usd: 777_000 }),
      },
      // The busiest firm's edges: one now a lead, one gone, one naming no round.
      {
        at,
        resource: 'investment',
        key: edges[1]!.id as string,
        row: edit(edges[1]!, { role: edges[1]!.role === 'lead' ? 'participant' : 'lead' }),
      },
      { at, resource: 'investment', key: edges[2]!.id as string, row: null },
      {
        at,
        resource: 'investment',
        key: 'inv_test_no_round',
        row: edit(edges[3]!, { id: 'inv_test_no_round', round_id: null }),
      },
      // A fund's returns revised, another fund gone.
      ...[...memory.all('fund')]
        .filter((f) => f.returns !== null)
        .slice(0, 2)
        .map((f, i): Observation => ({
          at,
          resource: 'fund',
          key: f.id as string,
          row: i ? null : edit(f, { returns: { ...(f.returns as Row), irr: 0.5 } }),
        })),
    ];
    const gone = [...memory.all('round')].find((r) => r.id === edges[0]!.round_id)!;
    for (const o of observations)
      expect(sqlite.observe(structuredClone(o))).toEqual(memory.observe(structuredClone(o)));
    await agree(sqlite, memory);
    // The round comes back: its edges count again.
    const back: Observation = { at: '2026-11-20T05:00:00Z', resource: 'round', key: gone.id as string, row: gone };
    for (const store of [sqlite, memory]) store.observe(structuredClone(back));
    await agree(sqlite, memory);
    sqlite.close();
  },
);

test(
  'firms tied on investments at the 25th place are told apart ' +
    'by leads and then slug, whoever rebuilds move into the tie',
  async () => {
    const { sqlite, memory } = pair();
    const top = await new Statistics(memory).rows('most-active-investors', null);
    const last = top[24]!;
    const busiest = new Set(top.map((r) => r.firm_slug));
    // Three firms below the top each get edges naming no round until they tie the 25th on
    // investments, one with its leads too: a tie on both is broken by the slug.
    const below = [...new Set([...memory.all('investment')].map((i) => i.firm_slug as string))]
      .filter((f) => !busiest.has(f))
      .sort()
      .slice(0, 3);
    const at = '2026-11-20T04:00:00Z';
    let n = 0;
    for (const [i, firm] of below.entries()) {
      const mine = memory.nestedRows('listFirmPortfolio', firm);
      const leads = mine.filter((e) => e.role === 'lead').length;
      for (let k = mine.length; k < (last.investments as number); k++) {
        const id = `inv_tie_${n++}`;
        const role = i === 0 && leads + (k - mine.length) < (last.leads as number) ? 'lead' : 'participant';
        const o: Observation = {
          at,
          resource: 'investment',
          key: id,
          row: { ...structuredClone(mine[0]!), id, round_id: null, role },
        };
        for (const store of [sqlite, memory]) store.observe(structuredClone(o));
      }
    }
    expect(n).toBeGreaterThan(0);
    await agree(sqlite, memory);
    sqlite.close();
  },
);

test('edges naming a round the dataset lacks count for nobody until a rebuild publishes the round', async () => {
  const dataset = collectDataset(options);
  const named = dataset.rows.investment[0]!.round_id as string;
  const round = dataset.rows.round.find((r) => r.id === named)!;
  const without = (): StoreInput => {
    const input = collectDataset(options);
    return { ...input, rows: { ...input.rows, round: input.rows.round.filter((r) => r.id !== named) } };
  };
  const { sqlite, memory } = pair(without);
  await agree(sqlite, memory);
  const o: Observation = { at: '2026-11-20T04:00:00Z', resource: 'round', key: named, row: round };
  for (const store of [sqlite, memory]) store.observe(structuredClone(o));
  await agree(sqlite, memory);
  sqlite.close();
});
