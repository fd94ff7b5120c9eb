/**
 * The proxy's walks (issue #51): a page that repeats a row of its walk is reported, and whatever
 * the upstream sends (a new cursor on every page, cursors and rows of megabytes, walks of any
 * length) they stay within their bounds, saying which pages those bounds left checked in part.
 */
import { expect, test } from 'vitest';
import { pageOf, WalkTracker } from './walks.ts';

let cursors = 0;
/** A page of `rows` new rows (or those given), fetched with `cursor`, handing out a new cursor. */
function page(cursor: string | null, rows: number | string[], next: string | null = `c${++cursors}`) {
  const ids =
    typeof rows === 'number'
      ? Array.from({ length: rows }, () => `https://api.example.com/api/v1/firms/f-${++cursors}`)
      : rows;
  const body = { data: ids.map((service_url) => ({ service_url })), next_cursor: next };
  return pageOf(200, `/api/v1/firms${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, body)!;
}

test(
  'a row that comes again on a later page of its walk is ' + 'reported, by its identity; another walk may hold it',
  () => {
    const walks = new WalkTracker();
    const first = page(null, ['https://x/a', 'https://x/b'], 'next-1');
    expect(walks.observe(first)).toEqual({ repeats: [], untracked: [] });
    expect(walks.observe(page('next-1', ['https://x/c', 'https://x/a'], null)).repeats).toEqual([
      '/api/v1/firms: row https://x/a came again on a later page of the same walk',
    ]);
    expect(walks.observe(page(null, ['https://x/a'], null)).repeats).toEqual([]);
  },
);

test('an upstream handing out a new cursor on every page: the walks held stay within their bounds', () => {
  const walks = new WalkTracker({ walks: 50, rows: 1_000, rowsPerWalk: 100 });
  let cursor: string | null = null;
  for (let i = 0; i < 500; i++) {
    // Every other page starts a walk of its own; the rest follow the last cursor handed out.
    const next = `cursor-${i}`;
    walks.observe(page(i % 2 ? cursor : null, 30, next));
    cursor = next;
    expect(walks.size.walks).toBeLessThanOrEqual(50);
    expect(walks.size.rows).toBeLessThanOrEqual(1_000);
  }
  expect(walks.size.rows).toBeGreaterThan(900);
});

test('a cursor or a row identity of megabytes is held as a number', () => {
  const long = 'x'.repeat(3_000_000);
  const seen = page(long, [`https://x/${long}`], long);
  expect([typeof seen.cursor, typeof seen.next, typeof seen.rows[0]]).toEqual(['number', 'number', 'number']);
  expect(seen.shown[0]!.length).toBeLessThanOrEqual(123);
  const walks = new WalkTracker();
  walks.observe(seen);
  expect(walks.observe(page(long, [`https://x/${long}`], null)).repeats).toEqual([
    `/api/v1/firms: row https://x/${'x'.repeat(110)}... came again on a later page of the same walk`,
  ]);
});

test(
  'a page of a walk the bounds pushed out says its rows went ' +
    'unchecked against the walk, once; an unknown cursor starts a walk',
  () => {
    const walks = new WalkTracker({ walks: 3 });
    walks.observe(page(null, 2, 'kept-out'));
    for (let i = 0; i < 3; i++) walks.observe(page(null, 2));
    const { untracked } = walks.observe(page('kept-out', 2, 'then'));
    expect(untracked).toHaveLength(1);
    expect(untracked[0]).toMatch(/^the walk this cursor continues was forgotten to keep the proxy's memory bounded/);
    expect(untracked[0]).toContain('memory bounded (3 walks, 500000 rows at most)');
    // The walk goes on from there, tracked again.
    expect(walks.observe(page('then', 2)).untracked).toEqual([]);
    expect(walks.observe(page('never-handed-out', 2)).untracked).toEqual([]);
  },
);

test('the row budget across walks pushes out the least recently continued walk', () => {
  const walks = new WalkTracker({ rows: 100, rowsPerWalk: 60 });
  walks.observe(page(null, 50, 'old'));
  walks.observe(page(null, 50, 'new'));
  expect(walks.observe(page('old', 1)).untracked).toEqual([expect.stringContaining('was forgotten')]);
  expect(walks.size.rows).toBeLessThanOrEqual(100);
});

test('a walk may hold the whole row budget, never more: bounds given that way round still keep it', () => {
  const walks = new WalkTracker({ rows: 50 });
  expect(walks.limits.rowsPerWalk).toBe(49);
  walks.observe(page(null, 60, 'on'));
  expect(walks.size.rows).toBe(49);
  expect(walks.observe(page('on', 1)).untracked).toEqual([expect.stringContaining('past the 49 rows')]);
});

test(
  'a walk past the rows it may keep says, on every later ' + 'page, that rows past them are not checked for repeats',
  () => {
    const walks = new WalkTracker({ rowsPerWalk: 10 });
    expect(walks.observe(page(null, 8, 'a')).untracked).toEqual([]);
    expect(walks.observe(page('a', 8, 'b')).untracked).toEqual([
      'the walk is past the 10 rows the proxy remembers of one walk: rows past them are not checked for repeats',
    ]);
    expect(walks.observe(page('b', 1)).untracked).toHaveLength(1);
    // A single page longer than the bound is cut where it is read, and says so too.
    expect(
      pageOf(200, '/api/v1/firms', { data: Array.from({ length: 25 }, (_, i) => ({ sequence: i })) }, 10)!.rows,
    ).toHaveLength(10);
    expect(
      walks.observe(
        pageOf(
          200,
          '/api/v1/firms',
          { data: Array.from({ length: 25 }, (_, i) => ({ sequence: i })), next_cursor: null },
          10,
        )!,
      ).untracked,
    ).toHaveLength(1);
  },
);

test('only a 200 whose body holds a data array is a page', () => {
  expect(pageOf(404, '/api/v1/firms', { data: [] })).toBeNull();
  expect(pageOf(200, '/api/v1/firms', 'not json')).toBeNull();
  expect(pageOf(200, '/api/v1/firms', { data: {} })).toBeNull();
  expect(pageOf(200, '/api/v1/firms', { data: [] })).toMatchObject({ cursor: null, next: null, rows: [], total: 0 });
});
