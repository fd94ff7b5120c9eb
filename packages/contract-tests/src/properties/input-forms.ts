/**
 * Every form of input the contract and DECISIONS.md accept or refuse, as a change to a call
 * (issue #65). A form is used only when a claim of the rule matrix names it (claims.ts `inputs`):
 * the sentences are what says which forms a call can take, and the sequences (sequences.ts) draw
 * from them, each call judged against the model.
 */
import type { OperationInfo } from '@investor-graph/contract';
import { fillPath, type Samples } from '../core/context.ts';
import type { Held } from './held.ts';

/** A call as the sequences build it, before it is sent. */
export interface CallRequest {
  method: string;
  /** The operation's path template and the value of each of its parameters. */
  template: string;
  params: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  /** The run's key, none, or a key of the kit's form no account holds. */
  key: 'own' | 'none' | 'unknown';
  /** The most rows it can serve. */
  rows: number;
}

export interface FormOn {
  op: OperationInfo;
  held: Held;
  /** Picks among a form's choices. */
  n: number;
  /** The most rows a page of the key's plan holds. */
  pageSize: number;
  asOf: string;
}

export interface InputForm {
  id: string;
  applies(op: OperationInfo): boolean;
  apply(req: CallRequest, on: FormOn): CallRequest;
}

const listOf = (op: OperationInfo): boolean => op.query.includes('limit');
const has = (name: string) => (op: OperationInfo) => op.query.includes(name);
const pathParam = (op: OperationInfo): boolean => op.path.includes('{');
const always = (): boolean => true;
const pick = <T>(from: readonly T[], n: number): T => from[n % from.length]!;
const setQuery = (req: CallRequest, name: string, value: string): CallRequest => ({
  ...req,
  query: [...req.query.filter(([k]) => k !== name), [name, value]],
});
const day = (asOf: string, daysBack: number): string =>
  new Date(Date.parse(asOf) - daysBack * 86_400_000).toISOString().slice(0, 10);
/** The first path parameter's value replaced. */
const withParam = (req: CallRequest, value: (name: string) => string): CallRequest => {
  const name = /\{(\w+)\}/.exec(req.template)?.[1];
  return name ? { ...req, params: { ...req.params, [name]: value(name) } } : req;
};
const unknownValue = (name: string, n: number): string =>
  name === 'id' ? `fnd_${'zz'.repeat(6)}` : name === 'name' ? `no-such-rollup-${n % 7}` : `no-such-record-${n % 97}`;

export const inputForms: readonly InputForm[] = [
  {
    id: 'limit-within-page',
    applies: listOf,
    apply: (req, on) => {
      const limit = 1 + (on.n % Math.min(on.pageSize, 20));
      return { ...setQuery(req, 'limit', String(limit)), rows: limit };
    },
  },
  {
    id: 'limit-over-page',
    applies: listOf,
    apply: (req, on) => ({
      ...setQuery(req, 'limit', String(pick([on.pageSize + 1, 1_000_000, 2_147_483_647], on.n))),
      rows: on.pageSize,
    }),
  },
  {
    id: 'limit-refused',
    applies: listOf,
    apply: (req, on) => ({
      ...setQuery(req, 'limit', pick(['0', '-1', '1.5', '1e3', 'Infinity', '', '2147483648', 'ten'], on.n)),
      rows: 0,
    }),
  },
  { id: 'param-twice', applies: listOf, apply: (req) => ({ ...req, query: [...req.query, ['limit', '1']], rows: 1 }) },
  {
    id: 'param-unknown',
    applies: always,
    apply: (req, on) => ({ ...req, query: [...req.query, [pick(['limt', 'sort', 'q', 'page'], on.n), '1']] }),
  },
  {
    id: 'cursor-next',
    applies: has('cursor'),
    apply: (req, on) => {
      const next = on.held.cursors.filter((c) => c.operationId === on.op.operationId);
      if (!next.length) return req;
      const held = pick(next, on.n);
      const limit = held.query.find(([k]) => k === 'limit')?.[1];
      return { ...req, query: [...held.query, ['cursor', held.cursor]], rows: limit ? Number(limit) : req.rows };
    },
  },
  {
    id: 'cursor-tampered',
    applies: has('cursor'),
    apply: (req, on) => {
      const held = on.held.cursors.length ? pick(on.held.cursors, on.n).cursor : 'eyJrIjoxfQ.c2ln';
      const at = on.n % held.length;
      const changed = held.slice(0, at) + (held[at] === 'A' ? 'B' : 'A') + held.slice(at + 1);
      return setQuery(req, 'cursor', pick([changed, held.slice(0, Math.max(1, at)), `${held}x`], on.n));
    },
  },
  {
    id: 'cursor-foreign',
    applies: has('cursor'),
    apply: (req, on) => {
      const foreign = on.held.cursors.filter((c) => c.operationId !== on.op.operationId);
      return foreign.length ? setQuery(req, 'cursor', pick(foreign, on.n).cursor) : req;
    },
  },
  {
    id: 'announced-since',
    applies: has('announced_since'),
    apply: (req, on) => setQuery(req, 'announced_since', day(on.asOf, (on.n % 800) - 5)),
  },
  {
    id: 'announced-since-refused',
    applies: has('announced_since'),
    apply: (req, on) =>
      setQuery(req, 'announced_since', pick(['2026-13-45', '2026-02-30', 'yesterday', '20260101'], on.n)),
  },
  {
    id: 'since',
    applies: has('since'),
    apply: (req, on) =>
      setQuery(req, 'since', `${new Date(Date.parse(on.asOf) - (on.n % 96) * 3_600_000).toISOString().slice(0, 19)}Z`),
  },
  {
    id: 'since-refused',
    applies: has('since'),
    apply: (req, on) => setQuery(req, 'since', pick(['2026-13-45T00:00:00Z', 'now', '1'.repeat(65)], on.n)),
  },
  { id: 'include-rows', applies: has('include'), apply: (req) => setQuery(req, 'include', 'rows') },
  {
    id: 'include-refused',
    applies: has('include'),
    apply: (req, on) => setQuery(req, 'include', pick(['all', 'ROWS', 'rows,edges'], on.n)),
  },
  { id: 'path-unknown', applies: pathParam, apply: (req, on) => withParam(req, (name) => unknownValue(name, on.n)) },
  {
    id: 'path-malformed',
    applies: pathParam,
    apply: (req, on) =>
      withParam(req, (name) =>
        name === 'date' ? '2026-13-45' : pick(['Not_A_Slug', 'a'.repeat(101), 'fnd_SHOUT', '-dash-'], on.n),
      ),
  },
  {
    id: 'if-none-match-held',
    applies: always,
    apply: (req, on) => {
      const tags = on.held.tags.filter((t) => t.path === pathOf(req)).map((t) => t.tag);
      const other = on.held.tags.map((t) => t.tag);
      const sent = pick([tags[0], other[0] && tags[0] ? `${other[0]}, ${tags[0]}` : tags[0], other[0]], on.n);
      return sent ? { ...req, headers: { ...req.headers, 'if-none-match': sent } } : req;
    },
  },
  {
    id: 'if-none-match-other',
    applies: always,
    apply: (req, on) => ({
      ...req,
      headers: { ...req.headers, 'if-none-match': pick(['*', 'W/"not-a-tag-of-this"', '"strong-other"'], on.n) },
    }),
  },
  { id: 'head', applies: always, apply: (req) => ({ ...req, method: 'HEAD' }) },
  { id: 'options', applies: always, apply: (req) => ({ ...req, method: 'OPTIONS', rows: 0 }) },
  {
    id: 'method-refused',
    applies: always,
    apply: (req, on) => ({ ...req, method: pick(['DELETE', 'POST', 'PUT', 'PATCH'], on.n), rows: 0 }),
  },
  {
    id: 'cors-preflight',
    applies: always,
    apply: (req) => ({
      ...req,
      method: 'OPTIONS',
      headers: { ...req.headers, origin: 'https://app.example', 'access-control-request-method': 'GET' },
      rows: 0,
    }),
  },
  {
    id: 'cors-origin',
    applies: always,
    apply: (req) => ({ ...req, headers: { ...req.headers, origin: 'https://app.example' } }),
  },
  {
    id: 'request-id',
    applies: always,
    apply: (req, on) => ({
      ...req,
      headers: { ...req.headers, 'x-request-id': pick(['trace-1.a:b_c', 'has space', 'x'.repeat(129)], on.n) },
    }),
  },
  { id: 'no-key', applies: always, apply: (req) => ({ ...req, key: 'none', rows: 0 }) },
  { id: 'unknown-key', applies: always, apply: (req) => ({ ...req, key: 'unknown', rows: 0 }) },
  {
    id: 'authorization-malformed',
    applies: always,
    apply: (req, on) => ({
      ...req,
      key: 'none',
      headers: { ...req.headers, authorization: pick(['Basic dXNlcjpwYXNz', 'Bearer', 'Token abc'], on.n) },
      rows: 0,
    }),
  },
];

export const formById = new Map(inputForms.map((f) => [f.id, f]));

/** The request's path with its parameters and query filled in. */
export function pathOf(req: CallRequest): string {
  const path = req.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(req.params[name] ?? ''));
  const query = req.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return query ? `${path}?${query}` : path;
}

/** An operation's plain call: its path from the run's samples, no query; null when no sample fits. */
export function plainCall(op: OperationInfo, samples: Samples, n: number): CallRequest | null {
  const filled = fillPath(op.path, samples, n);
  if (filled === null) return null;
  // Each parameter is one segment of the path (fillPath encodes every `/` in a value).
  const segments = filled.split('/');
  const params = Object.fromEntries(
    op.path.split('/').flatMap((part, i) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      return name ? [[name, decodeURIComponent(segments[i]!)]] : [];
    }),
  );
  return { method: 'GET', template: op.path, params, query: [], headers: {}, key: 'own', rows: listOf(op) ? 100 : 1 };
}
