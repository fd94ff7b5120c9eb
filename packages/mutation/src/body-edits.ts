/**
 * The operators that rewrite a JSON answer's body: its fields, its rows, its cursor, its plan and
 * usage, and what a later call sees after an earlier one. Each returns an `Edit`, which `jsonEdit`
 * applies to a parsed body; operators.ts picks one for a mutant.
 */
import { plans, type PlanId } from '@investor-graph/contract';
import type { Answer, Exchange } from './proxy.ts';
import { eachPlace, kindOf, retyped, shiftDate } from './json-paths.ts';

type Json = unknown;
export type Edit = (body: Record<string, Json>, answer: Answer, exchange: Exchange) => boolean;

function isJson(answer: Answer): boolean {
  return /json/i.test(answer.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '');
}

/** Applies `edit` to the parsed body of a JSON answer; null when it changed nothing. */
export function jsonEdit(answer: Answer, exchange: Exchange, edit: Edit): Answer | null {
  if (!isJson(answer) || answer.body.length === 0) return null;
  let body: Json;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return null;
  }
  if (body === null || typeof body !== 'object' || !edit(body as Record<string, Json>, answer, exchange)) return null;
  return { ...answer, body: Buffer.from(JSON.stringify(body)) };
}

const setAt = (parent: Record<string, Json> | Json[], key: string | number, value: Json) =>
  ((parent as Record<string | number, Json>)[key] = value);
const getAt = (parent: Record<string, Json> | Json[], key: string | number) =>
  (parent as Record<string | number, Json>)[key];

/** A field operator: a new value for each place of the path, or undefined to leave it. */
export function fieldEdit(parts: string[], operator: string): Edit {
  return (body) => {
    let changed = false;
    eachPlace(body, parts, (parent, key) => {
      const value = getAt(parent, key);
      if (operator === 'drop') {
        if (Array.isArray(parent)) return;
        delete parent[key as string];
        changed = true;
        return;
      }
      const next = fieldValue(operator, value);
      if (next === undefined || JSON.stringify(next) === JSON.stringify(value)) return;
      setAt(parent, key, next);
      changed = true;
    });
    return changed;
  };
}

function fieldValue(operator: string, value: Json): Json {
  const kind = kindOf(value);
  switch (operator) {
    case 'null':
      return null;
    case 'retype':
      return retyped(value);
    case 'plus-one':
      return kind === 'number' ? (value as number) + 1 : undefined;
    case 'minus-one':
      return kind === 'number' ? (value as number) - 1 : undefined;
    case 'day-later':
      return kind === 'date' ? shiftDate(value as string, 1) : undefined;
    case 'day-earlier':
      return kind === 'date' ? shiftDate(value as string, -1) : undefined;
    case 'upper-case':
      return kind === 'string' ? (value as string).toUpperCase() : undefined;
    case 'empty':
      return kind === 'string' ? '' : undefined;
    default:
      throw new Error(`[mutation] no field operator ${operator}`);
  }
}

/** A rows operator on every array of objects the path meets. */
export function rowsEdit(parts: string[], operator: string): Edit {
  return (body) => {
    let changed = false;
    const edit = (rows: Json[]): Json[] | null => {
      if (
        rows.length === 0 ||
        (operator !== 'drop-first' && operator !== 'drop-last' && operator !== 'repeat' && rows.length < 2)
      )
        return null;
      switch (operator) {
        case 'drop-first':
          return rows.slice(1);
        case 'drop-last':
          return rows.slice(0, -1);
        case 'repeat':
          return [...rows, rows[rows.length - 1]];
        case 'reverse':
          return [...rows].reverse();
        case 'swap':
          return [rows[1], rows[0], ...rows.slice(2)];
        default:
          throw new Error(`[mutation] no rows operator ${operator}`);
      }
    };
    const apply = (parent: Record<string, Json> | Json[], key: string | number) => {
      const rows = getAt(parent, key);
      if (!Array.isArray(rows)) return;
      const next = edit(rows);
      if (next && JSON.stringify(next) !== JSON.stringify(rows)) {
        setAt(parent, key, next);
        changed = true;
      }
    };
    eachPlace(body, parts, apply);
    return changed;
  };
}

const queryCursor = (target: string) => new URLSearchParams(target.split('?')[1] ?? '').get('cursor');

/** Cursor operators, remembering the cursors this operation issued. */
export function cursorEdit(operator: string): Edit {
  let lastIssued: string | null = null;
  return (body, _answer, exchange) => {
    if (!('next_cursor' in body)) return false;
    const next = body.next_cursor;
    const sent = queryCursor(exchange.target);
    if (typeof next === 'string') lastIssued = next;
    if (operator === 'end-early' && typeof next === 'string') body.next_cursor = null;
    else if (operator === 'never-end' && next === null && (sent ?? lastIssued)) body.next_cursor = sent ?? lastIssued;
    else if (operator === 'unchanged' && typeof next === 'string' && sent) body.next_cursor = sent;
    else return false;
    return true;
  };
}

/** Another plan's numbers in the envelope. */
export function planEdit(operator: string, other: PlanId): Edit {
  const rule = plans[other];
  return (body) => {
    if (operator === 'plan-object' && body.plan && typeof body.plan === 'object') {
      const plan = body.plan as Record<string, Json>;
      for (const key of Object.keys(plan)) if (key in rule) plan[key] = (rule as unknown as Record<string, Json>)[key];
      return true;
    }
    if (operator === 'usage-limit' && body.usage && typeof body.usage === 'object') {
      const usage = body.usage as Record<string, Json>;
      usage.calls_limit = rule.calls_limit;
      usage.calls_remaining =
        rule.calls_limit === null ? null : Math.max(0, rule.calls_limit - Number(usage.calls_used ?? 0));
      return true;
    }
    if (operator === 'page-size' && Array.isArray(body.data) && body.data.length > rule.rows_per_page) {
      body.data = body.data.slice(0, rule.rows_per_page);
      return true;
    }
    return false;
  };
}

/** Operators on what a later call sees after an earlier one. */
export function statefulEdit(operator: string): Edit {
  const firstUsage = new Map<string, Json>();
  const seen = new Map<string, number>();
  let answers = 0;
  return (body, _answer, exchange) => {
    const who = exchange.requestHeaders.find(([n]) => n.toLowerCase() === 'authorization')?.[1] ?? '';
    answers++;
    const usage = body.usage as Record<string, Json> | undefined;
    if (operator === 'usage-frozen' && usage && typeof usage === 'object') {
      if (!firstUsage.has(who)) return (void firstUsage.set(who, structuredClone(usage)), false);
      body.usage = structuredClone(firstUsage.get(who));
      return true;
    }
    if (operator === 'usage-double' && usage && typeof usage.calls_used === 'number') {
      const n = (seen.get(who) ?? 0) + 1;
      seen.set(who, n);
      usage.calls_used += n;
      if (typeof usage.calls_remaining === 'number') usage.calls_remaining = Math.max(0, usage.calls_remaining - n);
      return true;
    }
    if (operator === 'as-of-back' && typeof body.as_of === 'string' && answers > 1) {
      body.as_of = shiftDate(body.as_of, -1);
      return true;
    }
    if (operator === 'updated-at-churn') {
      let changed = false;
      const rows = Array.isArray(body.data) ? body.data : [body.data];
      for (const row of rows as Record<string, Json>[]) {
        if (!row || typeof row !== 'object' || typeof row.updated_at !== 'string') continue;
        const { updated_at: _, ...content } = row;
        const key = JSON.stringify(content);
        const n = seen.get(key) ?? 0;
        seen.set(key, n + 1);
        if (n > 0)
          row.updated_at = new Date(Date.parse(row.updated_at) + n * 1000).toISOString().replace(/\.000Z$/, 'Z');
        changed ||= n > 0;
      }
      return changed;
    }
    return false;
  };
}
