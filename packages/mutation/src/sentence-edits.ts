/**
 * The operators of what a sentence of DECISIONS.md fixes beyond a field's shape: a value's meaning
 * (`meaning`), the record or row it comes from (`source`), the case an answer is of (`case`), and
 * what a later call sees after an earlier one (`sequence`). Each keeps the shape the schema asks
 * for; only the sentence it names tells the changed answer from a correct one.
 */
import { operationById } from '@investor-graph/contract';
import { eachPlace, shiftDate } from './json-paths.ts';
import { answerSchema, fieldRule } from './schema.ts';
import type { Answer, Exchange, Mutate } from './proxy.ts';
import { jsonEdit, type Edit } from './body-edits.ts';
import { caseEdit, type CaseMutant } from './case-edits.ts';

type Json = unknown;
type Row = Record<string, Json>;

const isRow = (v: Json): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A body's records: the rows of a page, or the one record of `data`. */
const rowsOf = (body: Row): Row[] =>
  (Array.isArray(body.data) ? body.data : isRow(body.data) ? [body.data] : []).filter(isRow);
/** Every object in a JSON value, nested ones too. */
function objectsIn(value: Json, out: Row[] = []): Row[] {
  if (Array.isArray(value)) value.forEach((v) => objectsIn(v, out));
  else if (isRow(value)) {
    out.push(value);
    Object.values(value).forEach((v) => objectsIn(v, out));
  }
  return out;
}
const header = (headers: [string, string][], name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
const sent = (exchange: Exchange, name: string) => header(exchange.requestHeaders, name);
/** A row's identity across calls: its link, else its key. */
const identity = (row: Row) => {
  const id = row.service_url ?? row.slug ?? row.id ?? row.accession_number ?? '';
  return typeof id === 'string' ? id : JSON.stringify(id);
};
/** The values of a request's path parameters, by the operation's path template. */
function pathValues(operation: string, target: string): string[] {
  const template = operationById(operation).path.split('/');
  const path = target.split('?')[0]!.split('/');
  return template.flatMap((part, i) => (part.startsWith('{') && path[i] ? [decodeURIComponent(path[i])] : []));
}
const set = <T>(row: Row, key: string, value: T) => (row[key] === value ? false : ((row[key] = value), true));

/** `meaning`: a value of the right shape that says something else than its sentence fixes. */
function meaningEdit(operator: string, parts: string[]): Edit {
  return (body, answer, exchange) => {
    let changed = false;
    if (operator === 'amount-as-usd')
      // Resource fields: `amount` is in the round's currency, `amount_usd` in dollars.
      for (const o of objectsIn(body))
        if (typeof o.currency === 'string' && o.currency !== 'USD' && typeof o.amount_usd === 'number')
          changed = set(o, 'amount', o.amount_usd) || changed;
    if (operator === 'remaining-as-limit' && isRow(body.usage)) {
      // Plan and usage: what is left is the limit less what was used.
      const u = body.usage;
      if (typeof u.calls_limit === 'number' && typeof u.calls_remaining === 'number' && Number(u.calls_used) > 0)
        changed = set(u, 'calls_remaining', u.calls_limit);
    }
    if (operator === 'member-count-firms')
      // List shapes: `member_count` counts every member, firms and companies.
      for (const o of objectsIn(body))
        if (Array.isArray(o.members) && typeof o.member_count === 'number')
          changed = set(o, 'member_count', o.members.filter((m) => isRow(m) && m.kind === 'firm').length) || changed;
    if (operator === 'total-as-last-round')
      // Resource fields: `total_raised_usd` is the sum of the rounds, not the last one.
      for (const o of objectsIn(body))
        if (
          typeof o.total_raised_usd === 'number' &&
          isRow(o.last_round) &&
          typeof o.last_round.amount_usd === 'number'
        )
          changed = set(o, 'total_raised_usd', o.last_round.amount_usd) || changed;
    if (operator === 'enum-other') {
      // Another value the schema allows at this path, which means another thing.
      const values = fieldRule(answerSchema(exchange.operation!, answer.status), parts)?.values ?? [];
      eachPlace(body, parts, (parent, key) => {
        const at = values.indexOf((parent as Row)[key as string] as string);
        if (at < 0) return;
        (parent as Row)[key as string] = values[(at + 1) % values.length];
        changed = true;
      });
    }
    return changed;
  };
}

/** `source`: a value taken from another row or record of the same kind. */
function sourceEdit(operator: string, parts: string[]): Edit {
  const previous = new Map<string, Json>();
  const params: string[] = [];
  return (body, _answer, exchange) => {
    let changed = false;
    const rows = rowsOf(body);
    if (operator === 'swap-field') {
      // A field of the first two rows swapped, the rows left in place.
      const field = parts.at(-1)!;
      eachPlace(body, parts.slice(0, -2), (parent, key) => {
        const list = (parent as Row)[key as string];
        if (!Array.isArray(list) || !isRow(list[0]) || !isRow(list[1])) return;
        const [a, b] = [list[0], list[1]];
        if (!(field in a) || !(field in b) || JSON.stringify(a[field]) === JSON.stringify(b[field])) return;
        [a[field], b[field]] = [b[field], a[field]];
        changed = true;
      });
    }
    if (operator === 'parent-other') {
      // A field naming the record the path names, made to name the one an earlier call named.
      const [own] = pathValues(exchange.operation!, exchange.target);
      if (own === undefined) return false;
      if (!params.includes(own)) params.push(own);
      const other = params.filter((p) => p !== own).at(-1);
      if (other !== undefined)
        for (const row of rows)
          for (const [k, v] of Object.entries(row)) if (v === own) changed = set(row, k, other) || changed;
    }
    if (operator === 'updated-at-other') {
      // A record's `updated_at` from the next row, or from the record read before.
      const times = rows.map((r) => r.updated_at);
      if (Array.isArray(body.data) && rows.length >= 2)
        rows.forEach(
          (r, i) =>
            typeof r.updated_at === 'string' &&
            (changed = set(r, 'updated_at', times[(i + 1) % times.length]) || changed),
        );
      else if (rows.length === 1 && typeof rows[0]!.updated_at === 'string') {
        const id = identity(rows[0]!);
        const before = [...previous].filter(([k]) => k !== id).at(-1)?.[1];
        previous.delete(id);
        previous.set(id, rows[0]!.updated_at);
        if (typeof before === 'string') changed = set(rows[0]!, 'updated_at', before);
      }
    }
    return changed;
  };
}

/** `sequence` operators on a body: what a later call sees that its earlier calls rule out. */
function sequenceEdit(operator: string): Edit {
  const lastRowOf = new Map<string, Json>();
  const calls = new Map<string, number>();
  const firstSeen = new Map<string, string>();
  return (body, _answer, exchange) => {
    if (operator === 'page-overlap') {
      // Cursor: a walk sees every row once; this page repeats the last row of the page before.
      const cursor = new URLSearchParams(exchange.target.split('?')[1] ?? '').get('cursor');
      const data = body.data;
      if (typeof body.next_cursor === 'string' && Array.isArray(data) && data.length > 0)
        lastRowOf.set(body.next_cursor, data.at(-1));
      const repeated = cursor === null ? undefined : lastRowOf.get(cursor);
      if (repeated === undefined || !Array.isArray(data)) return false;
      body.data = [repeated, ...data];
      return true;
    }
    if (operator === 'usage-jump' && isRow(body.usage) && typeof body.usage.calls_used === 'number') {
      // Plan and usage: one call moves `calls_used` by one; from a key's second call on, it moved by two once.
      const who = sent(exchange, 'authorization') ?? '';
      const n = (calls.get(who) ?? 0) + 1;
      calls.set(who, n);
      if (n < 2) return false;
      body.usage.calls_used += 1;
      if (typeof body.usage.calls_remaining === 'number') body.usage.calls_remaining -= 1;
      return true;
    }
    if (operator === 'updated-at-back') {
      // Transitions: a record read again shows an `updated_at` before the one it showed first.
      let changed = false;
      for (const row of rowsOf(body)) {
        if (typeof row.updated_at !== 'string') continue;
        const first = firstSeen.get(identity(row));
        if (first === undefined) firstSeen.set(identity(row), row.updated_at);
        else changed = set(row, 'updated_at', shiftDate(first, -1)) || changed;
      }
      return changed;
    }
    return false;
  };
}

/** A mutant of the four families, as the rewrite reads it. */
export interface SentenceMutant extends CaseMutant {
  family: string;
  operation: string;
}

/** The rewrite of a mutant of the four families of sentences. */
export function sentenceMutator(spec: SentenceMutant): Mutate {
  const { family, operator, operation } = spec;
  const parts = Array.isArray(spec.target) ? spec.target : [];
  const edit =
    family === 'meaning'
      ? meaningEdit(operator, parts)
      : family === 'source'
        ? sourceEdit(operator, parts)
        : sequenceEdit(operator);
  let foreignCursor: string | null = null;
  const tags = new Map<string, { tag: string; data: string }>();
  return (answer, exchange) => {
    // Cursor: a cursor is bound to its operation; remember the last one another operation issued.
    if (operator === 'cursor-of-other' && exchange.operation !== operation && answer.status === 200)
      foreignCursor = /"next_cursor":"([^"]+)"/.exec(answer.body.toString('utf8'))?.[1] ?? foreignCursor;
    if (exchange.operation !== operation) return null;
    const ok = answer.status >= 200 && answer.status < 300;
    if (family === 'case') return caseEdit(spec, answer, exchange);
    if (!ok) return null;
    if (operator === 'cursor-of-other') {
      const other = foreignCursor;
      return other
        ? jsonEdit(answer, exchange, (body) => typeof body.next_cursor === 'string' && set(body, 'next_cursor', other))
        : null;
    }
    return operator === 'etag-shared' ? sharedTag(answer, exchange, tags) : jsonEdit(answer, exchange, edit);
  };
}

/** Conditional requests: the tag of the data; here one path's first tag kept while its data changes. */
function sharedTag(
  answer: Answer,
  exchange: Exchange,
  tags: Map<string, { tag: string; data: string }>,
): Answer | null {
  const tag = header(answer.headers, 'etag');
  if (!tag || exchange.method !== 'GET') return null;
  let data: string;
  try {
    const body = JSON.parse(answer.body.toString('utf8')) as Row;
    data = JSON.stringify([body.data, body.next_cursor]);
  } catch {
    return null;
  }
  const path = exchange.target.split('?')[0]!;
  const first = tags.get(path);
  if (!first) return (tags.set(path, { tag, data }), null);
  if (first.data === data || first.tag === tag) return null;
  return { ...answer, headers: answer.headers.map(([n, v]) => [n, n.toLowerCase() === 'etag' ? first.tag : v]) };
}
