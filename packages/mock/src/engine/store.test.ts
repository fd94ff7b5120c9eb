import { describe, expect, test } from 'vitest';
import type { ResourceName, Row } from '@investor-graph/fixtures';
import { SortedKeys, Store, type StoreInput } from './store.ts';

const AS_OF = '2026-11-20T03:00:00Z';
const HOUR = 3_600_000;

function input(more: Partial<StoreInput> = {}): StoreInput {
  const rows = { firm: [], company: [], round: [], investment: [], fund: [], filing: [], offering: [], 'adv-fund': [], list: [] } as Record<ResourceName, Row[]>;
  rows.firm = ['cedar', 'alder', 'birch'].map((slug) => ({ slug, name: slug, first_seen_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }));
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
    expect([keys.after(''), keys.after('b'), keys.after('c'), keys.after('f'), keys.after('z')]).toEqual([0, 1, 1, 3, 3]);
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

describe('Store pages', () => {
  test('a list is served in key order, a page at a time, each page after the last key of the one before', () => {
    const store = new Store(input());
    const first = store.page('firm', null, 2);
    expect(first.rows.map((r) => r.slug)).toEqual(['alder', 'birch']);
    expect(first.nextKey).toBe('birch');
    const second = store.page('firm', first.nextKey, 2);
    expect(second.rows.map((r) => r.slug)).toEqual(['cedar']);
    expect(second.nextKey).toBeNull();
  });

  test('a cursor key that has since gone still seeks to the rows after it', () => {
    expect(new Store(input()).page('firm', 'b', 10).rows.map((r) => r.slug)).toEqual(['birch', 'cedar']);
  });

  test('a nested list holds only its parent\'s rows, and an unknown parent has an empty one', () => {
    const store = new Store(input());
    expect(store.nestedPage('listFirmPortfolio', 'alder', null, 10).rows.map((r) => r.id)).toEqual(['inv_1', 'inv_3']);
    expect(store.nestedPage('listCompanyInvestors', 'acme', 'inv_1', 10).rows.map((r) => r.id)).toEqual(['inv_2']);
    expect(store.nestedPage('listFirmPortfolio', 'nobody', null, 10)).toEqual({ rows: [], nextKey: null });
  });
});

describe('Store rebuilds', () => {
  const at = (hours: number) => new Date(Date.parse(AS_OF) + hours * HOUR).toISOString();

  test('a due rebuild creates, updates and unpublishes, each one change in sequence; an unchanged row is no change', () => {
    const store = new Store(input({
      pending: [
        { at: at(2), resource: 'firm', key: 'alder', row: null },
        { at: at(1), resource: 'firm', key: 'dogwood', row: { slug: 'dogwood', name: 'dogwood' } },
        { at: at(1), resource: 'firm', key: 'birch', row: { slug: 'birch', name: 'birch' } },
        { at: at(3), resource: 'firm', key: 'cedar', row: { slug: 'cedar', name: 'Cedar Partners' } },
      ],
    }));
    expect(store.applyDue(Date.parse(at(0)))).toEqual([]);
    const made = store.applyDue(Date.parse(at(3)));
    expect(made.map((c) => [c.kind, c.key])).toEqual([['create', 'dogwood'], ['unpublish', 'alder'], ['update', 'cedar']]);
    expect(made.map((c) => c.sequence)).toEqual([1, 2, 3]);
    expect(store.pendingCount()).toBe(0);
    expect(store.page('firm', null, 10).rows.map((r) => r.slug)).toEqual(['birch', 'cedar', 'dogwood']);
  });

  test('an update keeps first_seen_at and moves updated_at to the rebuild; a create sets both', () => {
    const store = new Store(input({ pending: [
      { at: at(1), resource: 'firm', key: 'cedar', row: { slug: 'cedar', name: 'Cedar Partners' } },
      { at: at(1), resource: 'firm', key: 'elm', row: { slug: 'elm', name: 'elm' } },
    ] }));
    store.applyDue(Date.parse(at(1)));
    expect(store.get('firm', 'cedar')).toMatchObject({ name: 'Cedar Partners', first_seen_at: '2026-01-01T00:00:00Z', updated_at: at(1) });
    expect(store.get('firm', 'elm')).toMatchObject({ first_seen_at: at(1), updated_at: at(1) });
  });

  test('caches of derived data see a new version on every change, and as_of moves to the last hour', () => {
    const store = new Store(input({ pending: [{ at: at(1), resource: 'firm', key: 'elm', row: { slug: 'elm' } }] }));
    const version = store.version;
    store.applyDue(Date.parse(at(1.5)));
    expect(store.version).toBe(version + 1);
    expect(new Date(store.asOf).toISOString()).toBe(at(1));
  });

  test('the changes feed pages from a time and a sequence, both seeks binary over the sequence order', () => {
    const store = new Store(input({
      changes: [
        { kind: 'create', resource: 'firm', key: 'alder', changed_at: '2026-01-01T00:00:00Z' },
        { kind: 'create', resource: 'firm', key: 'birch', changed_at: '2026-02-01T00:00:00Z' },
        { kind: 'update', resource: 'firm', key: 'alder', changed_at: '2026-03-01T00:00:00Z' },
      ],
    }));
    expect(store.changePage('2026-01-15T00:00:00Z', 0, 1)).toMatchObject({ items: [{ sequence: 2 }], more: true });
    expect(store.changePage('2026-01-15T00:00:00Z', 2, 5)).toMatchObject({ items: [{ sequence: 3 }], more: false });
  });
});
