/** The operations that read the dataset as it is stored: a top-level list, one record, a list under a parent. */
import type { ResourceName, Row } from '@investor-graph/dataset-tools';
import type { Call } from '../context.ts';
import { ProblemError } from '../problems.ts';
import { pageLimit } from '../http/query.ts';
import { lagCutoff, lagKeep, viewRow } from '../data/round-lag.ts';
import { nested, type DateRange, type Store } from '../data/store.ts';
import type { KeyedOperation } from './types.ts';

const notFound = (what: string, key: string): never => {
  throw new ProblemError('not_found', `No ${what} has the ${what === 'fund' ? 'id' : 'slug'} ${key}.`);
};

/**
 * A page of a top-level resource, rows as the caller's plan sees them (a
 * round lag's edges left out, its records' derived fields without them).
 */
export const list = (
  resource: ResourceName,
  filter?: (call: Call, store: Store) => { keep: (row: Row) => boolean; range: DateRange } | undefined,
): KeyedOperation => ({
  counted: true,
  serve: ({ call, afterKey }, { store }) => {
    const cutoff = lagCutoff(store, call.plan);
    const only = filter?.(call, store);
    const page = store.page(
      resource,
      afterKey,
      pageLimit(call.plan, call.query),
      only?.keep ?? lagKeep(store, resource, cutoff),
      only?.range,
    );
    return {
      body: page.rows.map((r) => viewRow(store, resource, r, cutoff)),
      rows: page.rows.length,
      next: page.nextKey,
      stored: true,
    };
  },
});

/** One row by its slug (or a fund's id). */
export const single = (resource: ResourceName): KeyedOperation => ({
  counted: true,
  serve: ({ call }, { store }) => {
    const key = call.route.params.get(resource === 'fund' ? 'id' : 'slug')!;
    const row = store.get(resource, key) ?? notFound(resource, key);
    return { body: viewRow(store, resource, row, lagCutoff(store, call.plan)), rows: 1, stored: true };
  },
});

/**
 * A page of rows under a parent (a firm's portfolio, a company's
 * rounds), without the rounds and edges a round lag holds back.
 */
export const nestedList = (index: keyof typeof nested): KeyedOperation => ({
  counted: true,
  serve: ({ call, afterKey }, { store }) => {
    const parentKey = call.route.params.get('slug')!;
    if (!store.get(nested[index].parent, parentKey)) notFound(nested[index].parent, parentKey);
    const keep = lagKeep(store, nested[index].child, lagCutoff(store, call.plan));
    const page = store.nestedPage(index, parentKey, afterKey, pageLimit(call.plan, call.query), keep);
    return { body: page.rows, rows: page.rows.length, next: page.nextKey, stored: true };
  },
});
