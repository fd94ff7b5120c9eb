import { describe, expect, test } from 'vitest';
import type { ResourceName, Row } from '@investor-graph/dataset-tools';
import { SqliteStore } from './sqlite/dataset-store.ts';
import { MemoryStore, SortedKeys } from '@investor-graph/engine/adapter';
import type { Store, StoreInput } from '@investor-graph/engine/adapter';

const AS_OF = '2026-11-20T03:00:00Z';
const HOUR = 3_600_000;

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
  rows.firm = ['cedar', 'alder', 'birch'].map((slug) => ({
    slug,
    name: slug,
    first_seen_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  }));
  rows.investment = [
    { id: 'inv_1', firm_slug: 'alder', company_slug: 'acme' },
    { id: 'inv_2', firm_slug: 'birch', company_slug: 'acme' },
    { id: 'inv_3', firm_slug: 'alder', company_slug: 'zeta' },
  ];
  return { asOf: AS_OF, rows, changes: [], pending: [], ...more };
}

describe('SortedKeys', () => {
  test('after() finds the first key past the one given, whether or not it is there', () => {
    const keys = new SortedKeys(['b', 'd', 'f']);
    expect([keys.after(''), keys.after('b'), keys.after('c'), keys.after('f'), keys.after('z')]).toEqual([
      0, 1, 1, 3, 3,
    ]);
  });

  test('insert keeps the order and never doubles a key; remove takes only what is there', () => {
    const keys = new SortedKeys(['b', 'd']);
    keys.insert('c');
    keys.insert('c');
    keys.insert('a');
    keys.remove('x');
    keys.remove('d');
    expect(keys.keys).toEqual(['a', 'b', 'c']);
  });
});

/** Every store the engine runs on holds to the same behaviour: the browser's in memory, the Node server's in SQLite. */
const stores: [string, (input: StoreInput) => Store][] = [
  ['MemoryStore', (input) => new MemoryStore(input)],
  ['SqliteStore', (input) => SqliteStore.fromInput(input)],
];

describe.each(stores)('%s', (_name, open) => {
  describe('pages', () => {
    test('a list is served in key order, a page at a time, each page after the last key of the one before', () => {
      const store = open(input());
      const first = store.page('firm', null, 2);
      expect(first.rows.map((r) => r.slug)).toEqual(['alder', 'birch']);
      expect(first.nextKey).toBe('birch');
      const second = store.page('firm', first.nextKey, 2);
      expect(second.rows.map((r) => r.slug)).toEqual(['cedar']);
      expect(second.nextKey).toBeNull();
    });

    test('a cursor key that has since gone still seeks to the rows after it', () => {
      expect(
        open(input())
          .page('firm', 'b', 10)
          .rows.map((r) => r.slug),
      ).toEqual(['birch', 'cedar']);
    });

    test("a nested list holds only its parent's rows, and an unknown parent has an empty one", () => {
      const store = open(input());
      expect(store.nestedPage('listFirmPortfolio', 'alder', null, 10).rows.map((r) => r.id)).toEqual([
        'inv_1',
        'inv_3',
      ]);
      expect(store.nestedPage('listCompanyInvestors', 'acme', 'inv_1', 10).rows.map((r) => r.id)).toEqual(['inv_2']);
      expect(store.nestedPage('listFirmPortfolio', 'nobody', null, 10)).toEqual({ rows: [], nextKey: null });
    });
  });

  describe('rebuilds', () => {
    const at = (hours: number) => new Date(Date.parse(AS_OF) + hours * HOUR).toISOString();

    test(
      'a due rebuild creates, updates and unpublishes, each ' + 'one change in sequence; an unchanged row is no change',
      () => {
        const store = open(
          input({
            pending: [
              { at: at(2), resource: 'firm', key: 'alder', row: null },
              { at: at(1), resource: 'firm', key: 'dogwood', row: { slug: 'dogwood', name: 'dogwood' } },
              { at: at(1), resource: 'firm', key: 'birch', row: { slug: 'birch', name: 'birch' } },
              { at: at(3), resource: 'firm', key: 'cedar', row: { slug: 'cedar', name: 'Cedar Partners' } },
            ],
          }),
        );
        expect(store.applyDue(Date.parse(at(0)))).toEqual([]);
        const made = store.applyDue(Date.parse(at(3)));
        expect(made.map((c) => [c.kind, c.key])).toEqual([
          ['create', 'dogwood'],
          ['unpublish', 'alder'],
          ['update', 'cedar'],
        ]);
        expect(made.map((c) => c.sequence)).toEqual([1, 2, 3]);
        expect(store.pendingCount()).toBe(0);
        expect(store.page('firm', null, 10).rows.map((r) => r.slug)).toEqual(['birch', 'cedar', 'dogwood']);
      },
    );

    test('an update keeps first_seen_at and moves updated_at to the rebuild; a create sets both', () => {
      const store = open(
        input({
          pending: [
            { at: at(1), resource: 'firm', key: 'cedar', row: { slug: 'cedar', name: 'Cedar Partners' } },
            { at: at(1), resource: 'firm', key: 'elm', row: { slug: 'elm', name: 'elm' } },
          ],
        }),
      );
      store.applyDue(Date.parse(at(1)));
      expect(store.get('firm', 'cedar')).toMatchObject({
        name: 'Cedar Partners',
        first_seen_at: '2026-01-01T00:00:00Z',
        updated_at: at(1),
      });
      expect(store.get('firm', 'elm')).toMatchObject({ first_seen_at: at(1), updated_at: at(1) });
    });

    test('caches of derived data see a new version on every change, and as_of moves to the last hour', () => {
      const store = open(input({ pending: [{ at: at(1), resource: 'firm', key: 'elm', row: { slug: 'elm' } }] }));
      const version = store.version;
      store.applyDue(Date.parse(at(1.5)));
      expect(store.version).toBe(version + 1);
      expect(new Date(store.asOf).toISOString()).toBe(at(1));
    });

    test('the changes feed pages from a time and a sequence, both seeks binary over the sequence order', () => {
      const store = open(
        input({
          changes: [
            { kind: 'create', resource: 'firm', key: 'alder', changed_at: '2026-01-01T00:00:00Z' },
            { kind: 'create', resource: 'firm', key: 'birch', changed_at: '2026-02-01T00:00:00Z' },
            { kind: 'update', resource: 'firm', key: 'alder', changed_at: '2026-03-01T00:00:00Z' },
          ],
        }),
      );
      expect(store.changePage('2026-01-15T00:00:00Z', 0, 1)).toMatchObject({ items: [{ sequence: 2 }], more: true });
      expect(store.changePage('2026-01-15T00:00:00Z', 2, 5)).toMatchObject({ items: [{ sequence: 3 }], more: false });
    });

    test(
      'rebuilt rows take their places in every list they ' + 'belong to, page after page, and unpublished ones leave',
      () => {
        const store = open(
          input({
            pending: [
              { at: at(1), resource: 'firm', key: 'beech', row: { slug: 'beech', name: 'beech' } },
              { at: at(1), resource: 'firm', key: 'cedar', row: null },
              { at: at(1), resource: 'firm', key: 'alder', row: { slug: 'alder', name: 'Alder Capital' } },
              {
                at: at(1),
                resource: 'investment',
                key: 'inv_0',
                row: { id: 'inv_0', firm_slug: 'alder', company_slug: 'zeta' },
              },
              { at: at(1), resource: 'investment', key: 'inv_2', row: null },
            ],
          }),
        );
        store.applyDue(Date.parse(at(1)));
        const walk = (
          page: (after: string | null) => { rows: Row[]; nextKey: string | null },
          key: string,
        ): unknown[] => {
          const seen: unknown[] = [];
          for (let after: string | null = null, first = true; first || after !== null; first = false) {
            const next = page(after);
            seen.push(...next.rows.map((r) => r[key]));
            after = next.nextKey;
          }
          return seen;
        };
        expect(walk((after) => store.page('firm', after, 1), 'slug')).toEqual(['alder', 'beech', 'birch']);
        expect(store.get('firm', 'alder')).toMatchObject({ name: 'Alder Capital' });
        expect(store.get('firm', 'cedar')).toBeUndefined();
        expect(store.count('firm')).toBe(3);
        expect(walk((after) => store.nestedPage('listFirmPortfolio', 'alder', after, 1), 'id')).toEqual([
          'inv_0',
          'inv_1',
          'inv_3',
        ]);
        expect(walk((after) => store.nestedPage('listCompanyInvestors', 'acme', after, 1), 'id')).toEqual(['inv_1']);
        expect(store.nestedRows('listCompanyInvestors', 'zeta').map((r) => r.id)).toEqual(['inv_0', 'inv_3']);
        expect([...store.all('firm')].map((r) => r.slug).sort()).toEqual(['alder', 'beech', 'birch']);
      },
    );

    test("the changes feed runs on from the dataset's changes into the rebuilds', in one sequence", () => {
      const store = open(
        input({
          changes: [
            { kind: 'create', resource: 'firm', key: 'alder', changed_at: '2026-11-19T00:00:00Z' },
            { kind: 'create', resource: 'firm', key: 'birch', changed_at: '2026-11-19T01:00:00Z' },
          ],
          pending: [
            { at: at(1), resource: 'firm', key: 'elm', row: { slug: 'elm' } },
            { at: at(2), resource: 'firm', key: 'birch', row: null },
          ],
        }),
      );
      store.applyDue(Date.parse(at(2)));
      expect(store.changeCount()).toBe(4);
      const page = store.changePage('2026-11-19T00:30:00Z', 0, 2);
      expect(page.items.map((c) => [c.sequence, c.kind, c.key])).toEqual([
        [2, 'create', 'birch'],
        [3, 'create', 'elm'],
      ]);
      expect(page.more).toBe(true);
      expect(store.changePage('2026-11-19T00:30:00Z', 3, 2)).toMatchObject({
        items: [{ sequence: 4, kind: 'unpublish', key: 'birch' }],
        more: false,
      });
      expect(store.changePage(at(1.5), 0, 5).items.map((c) => c.sequence)).toEqual([4]);
      expect(store.changePage(at(3), 0, 5)).toEqual({ items: [], more: false });
    });

    test('a scan is the resource as it was when asked for, whatever a rebuild changes while it is read', async () => {
      const store = open(
        input({
          pending: [
            { at: at(1), resource: 'firm', key: 'beech', row: { slug: 'beech' } },
            { at: at(1), resource: 'firm', key: 'alder', row: null },
          ],
        }),
      );
      const scan = await store.scan('firm', () => Promise.resolve(false));
      const first = scan.next(1);
      store.applyDue(Date.parse(at(1)));
      const rest = [...scan.next(10), ...scan.next(10)];
      expect([...first, ...rest].map((t) => JSON.parse(t).slug)).toEqual(['alder', 'birch', 'cedar']);
      const after = await store.scan('firm', () => Promise.resolve(false));
      expect(after.next(10).map((t) => JSON.parse(t).slug)).toEqual(['beech', 'birch', 'cedar']);
    });
  });
});
