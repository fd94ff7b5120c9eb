/**
 * The service's cursors with the model's own (issue #65). A cursor is opaque: its bytes are never
 * compared, what it leads to is. Each `next_cursor` the service gave is kept with the model's from
 * the model's answer to the same call, by the query that call asked: following the service's
 * cursor with that query asks the model for its own next page of that query, whatever other answer
 * the service may have given the same bytes (a cursor of another query handed out again).
 */

import { resources } from '@investor-graph/dataset-tools';

const MODEL_ORIGIN = 'http://model.invalid';
/** What names a row of a page: each resource's key, a change's `seq`, a dump's `date`. */
const rowKeys = new Set([...resources.map((r) => r.key), 'seq', 'date']);

/** A request's path and query without its cursor, in a stable order: the query a cursor was given for. */
export function queryOf(url: URL): string {
  const query = [...url.searchParams].filter(([name]) => name !== 'cursor');
  query.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return `${url.pathname}?${new URLSearchParams(query).toString()}`;
}

/** What the model asks for a request's cursor: its own, and whether it is the next page of an earlier answer. */
export interface ModelCursor {
  cursor: string;
  /** The service's `next_cursor` sent back with the query it was given for: it leads to the model's next page. */
  followed: boolean;
}

/**
 * Whether the model can judge the next page a request asks: it holds its own next page of that
 * query (`own`), it judged the page the cursor came with and had no next page of its own (`none`:
 * its data lacks it), or it never saw the cursor (`unseen`: a page read before it was built).
 */
export type Follows = 'own' | 'none' | 'unseen';

export class CursorPairs {
  /** By the query and the service's cursor: the model's cursor from its answer to that same call. */
  readonly #byQuery = new Map<string, string>();
  /** By the service's cursor alone: one sent with another query than it was given for (a foreign cursor). */
  readonly #byBytes = new Map<string, string>();
  /** Every query and service cursor the model judged an answer of, its own next page or none. */
  readonly #seen = new Set<string>();

  /** A call of `path` answered with `service`'s and `model`'s bodies: their `next_cursor`s paired. */
  learn(path: string, service: unknown, model: unknown): void {
    const s = (service as { next_cursor?: unknown } | null)?.next_cursor;
    const m = (model as { next_cursor?: unknown } | null)?.next_cursor;
    if (typeof s !== 'string') return;
    const asked = `${queryOf(new URL(path, MODEL_ORIGIN))}#${s}`;
    this.#seen.add(asked);
    if (typeof m !== 'string') return;
    this.#byQuery.set(asked, m);
    this.#byBytes.set(s, m);
  }

  /** The model's cursor for the one a request sends, or null when it sends none or one the model never paired. */
  modelCursor(url: URL): ModelCursor | null {
    const sent = url.searchParams.get('cursor');
    if (sent === null) return null;
    const own = this.#byQuery.get(`${queryOf(url)}#${sent}`);
    if (own !== undefined) return { cursor: own, followed: true };
    const other = this.#byBytes.get(sent);
    return other === undefined ? null : { cursor: other, followed: false };
  }

  /** For a request sending a `next_cursor` back with its query: the model's own next page, none, or unseen. */
  follows(url: URL): Follows {
    if (this.modelCursor(url)?.followed) return 'own';
    return this.#seen.has(`${queryOf(url)}#${url.searchParams.get('cursor')}`) ? 'none' : 'unseen';
  }
}

/**
 * The differences on the next page of an earlier answer that say where its cursor led: refused or
 * answered otherwise, other rows or more or fewer, a page that ends elsewhere. Each names the
 * sentence of `next_cursor` (the cursor for the next page of results); any other member of the
 * page names its own.
 */
export const ledByCursor = (pointer: string): boolean =>
  pointer === 'status' ||
  pointer === '/next_cursor' ||
  pointer === '/data/length' ||
  (/^\/data\/\d+\/[^/]+$/.test(pointer) && rowKeys.has(pointer.slice(pointer.lastIndexOf('/') + 1)));
