import { expect, test } from 'vitest';
import { CursorPairs, ledByCursor, queryOf } from './cursors.ts';

const url = (path: string) => new URL(path, 'http://model.invalid');

test(`a service's next_cursor sent back with its query is the model's own next page of that query, even where the \
service gave the same bytes for another query; sent with another query it is the model's by its bytes`, () => {
  const pairs = new CursorPairs();
  pairs.learn('/api/v1/firms?limit=2', { next_cursor: 'S' }, { next_cursor: 'firms-2' });
  // A cursor of another operation handed out again as this page's next_cursor.
  pairs.learn('/api/v1/companies/a/offerings?limit=1', { next_cursor: 'S' }, { next_cursor: 'offerings-2' });
  pairs.learn('/api/v1/rounds?limit=5', { next_cursor: 'R' }, { next_cursor: null });

  expect(pairs.modelCursor(url('/api/v1/firms?limit=2&cursor=S'))).toEqual({ cursor: 'firms-2', followed: true });
  expect(pairs.modelCursor(url('/api/v1/companies/a/offerings?cursor=S&limit=1'))).toEqual({
    cursor: 'offerings-2',
    followed: true,
  });
  expect(pairs.modelCursor(url('/api/v1/lists?cursor=S'))).toEqual({ cursor: 'offerings-2', followed: false });
  expect(pairs.modelCursor(url('/api/v1/firms?cursor=unknown'))).toBeNull();
  expect(pairs.modelCursor(url('/api/v1/firms?limit=2'))).toBeNull();

  expect(pairs.follows(url('/api/v1/firms?limit=2&cursor=S'))).toBe('own');
  expect(pairs.follows(url('/api/v1/rounds?limit=5&cursor=R'))).toBe('none');
  expect(pairs.follows(url('/api/v1/rounds?limit=6&cursor=R'))).toBe('unseen');
});

test('the query a cursor was given for is its path and parameters but the cursor, in any order', () => {
  expect(queryOf(url('/api/v1/rounds?limit=2&announced_since=2026-01-01&cursor=x'))).toBe(
    queryOf(url('/api/v1/rounds?cursor=y&announced_since=2026-01-01&limit=2')),
  );
  expect(queryOf(url('/api/v1/rounds?limit=2'))).not.toBe(queryOf(url('/api/v1/rounds?limit=3')));
});

test("where a followed cursor led: the status, the page's length and end, each row's key; no other member", () => {
  for (const pointer of ['status', '/data/length', '/next_cursor', '/data/0/slug', '/data/3/id', '/data/1/seq'])
    expect(ledByCursor(pointer), pointer).toBe(true);
  for (const pointer of ['/data/0/name', '/data/0/company/slug', '/usage/calls_used', 'header:etag'])
    expect(ledByCursor(pointer), pointer).toBe(false);
});
