/**
 * What a test may ask of the journal, read from what it sent: a page's query parameters and a
 * verification's body. Every wrong member is named at once (a pointer or a parameter and what is
 * wrong), never one a try; the control plane answers them as 400 (control/journal-routes.ts), the
 * MSW API throws them.
 */
import type { components } from '../control/generated/api.ts';
import { maxJournalPage } from './journal.ts';
import { patternProblem, type JournalFilter, type JournalPattern } from './match.ts';
import type { CallCount } from './verify.ts';

/** One wrong member: where (a JSON pointer into the body, or a query parameter) and what is wrong. */
export type InputError = components['schemas']['InputError'];

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: InputError[] };

export interface PageRequest {
  filter: JournalFilter;
  limit: number;
  cursor?: number;
}

export interface Expectation {
  pattern: JournalPattern;
  count?: CallCount;
}

const STATUS = /^([1-5]\d\d|[1-5]xx)$/i;
const STATUS_DETAIL = 'must be a status (402) or a class of them (4xx)';
const whole = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 500;

const pageParameters = 'operation, method, path, status, key_id, plan, since, limit, cursor';

/** A page's query: `operation`, `method`, `path`, `status`, `key_id`, `plan`, `since` (ISO 8601), `limit`, `cursor`. */
export function parsePageQuery(params: URLSearchParams): Parsed<PageRequest> {
  const errors: InputError[] = [];
  const wrong = (parameter: string, detail: string): void => void errors.push({ parameter, detail });
  const filter: JournalFilter = {};
  let limit = 100;
  let cursor: number | undefined;
  for (const [name, value] of params) {
    if (name === 'path') {
      const problem = patternProblem(value);
      if (problem) wrong(name, problem);
      else filter.path = value;
    } else if (['operation', 'method', 'key_id', 'plan'].includes(name)) {
      if (value.length <= 500) filter[name as 'operation' | 'method' | 'key_id' | 'plan'] = value;
      else wrong(name, 'must be at most 500 characters');
    } else if (name === 'status') {
      if (STATUS.test(value)) filter.status = value;
      else wrong(name, STATUS_DETAIL);
    } else if (name === 'since') {
      const since = Date.parse(value);
      if (/^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(since)) filter.since = since;
      else wrong(name, 'must be an ISO 8601 time, e.g. 2026-11-27T13:00:00Z');
    } else if (name === 'limit') {
      limit = Number(value);
      if (!/^\d+$/.test(value) || limit < 1 || limit > maxJournalPage)
        wrong(name, `must be a whole number from 1 to ${maxJournalPage}`);
    } else if (name === 'cursor') {
      cursor = Number(value);
      if (!/^\d{1,15}$/.test(value)) wrong(name, "must be a page's next_cursor");
    } else wrong(name, `is not a parameter of the journal (${pageParameters})`);
  }
  return errors.length
    ? { ok: false, errors }
    : { ok: true, value: { filter, limit, ...(cursor === undefined ? {} : { cursor }) } };
}

const patternMembers = ['operation', 'method', 'path', 'status', 'key_id', 'plan', 'query'];

/** A verification's body: `{pattern: {operation?, method?, path?, status?, key_id?, query?}, count?}`. */
export function parseExpectation(body: unknown): Parsed<Expectation> {
  const errors: InputError[] = [];
  const wrong = (pointer: string, detail: string): void => void errors.push({ pointer, detail });
  const record = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!record(body)) return { ok: false, errors: [{ pointer: '', detail: 'must be a JSON object' }] };
  for (const name of Object.keys(body))
    if (name !== 'pattern' && name !== 'count') wrong(`/${name}`, 'is not a member (pattern, count)');
  const pattern: JournalPattern = {};
  if (body.pattern !== undefined && !record(body.pattern)) wrong('/pattern', 'must be an object');
  const given = record(body.pattern) ? body.pattern : {};
  for (const [name, value] of Object.entries(given)) {
    const at = `/pattern/${name}`;
    if (!patternMembers.includes(name)) wrong(at, `is not a member (${patternMembers.join(', ')})`);
    else if (name === 'status') {
      if ((typeof value === 'number' || typeof value === 'string') && STATUS.test(String(value)))
        pattern.status = value;
      else wrong(at, STATUS_DETAIL);
    } else if (name === 'query') {
      if (!record(value)) wrong(at, 'must be an object of parameter names and values');
      else {
        for (const [param, v] of Object.entries(value)) if (!text(v)) wrong(`${at}/${param}`, 'must be a string');
        pattern.query = value as Record<string, string>;
      }
    } else if (name === 'path' && typeof value === 'string' && patternProblem(value)) wrong(at, patternProblem(value)!);
    else if (text(value)) pattern[name as 'operation' | 'method' | 'path' | 'key_id' | 'plan'] = value;
    else wrong(at, 'must be a non-empty string of at most 500 characters');
  }
  const count = body.count;
  if (count !== undefined && !whole(count)) {
    if (!record(count)) wrong('/count', 'must be a whole number or {min?, max?}');
    else {
      for (const name of Object.keys(count))
        if (name !== 'min' && name !== 'max') wrong(`/count/${name}`, 'is not a member (min, max)');
      if (count.min !== undefined && !whole(count.min)) wrong('/count/min', 'must be a whole number');
      if (count.max !== undefined && !whole(count.max)) wrong('/count/max', 'must be a whole number');
      if (whole(count.min) && whole(count.max) && count.min > count.max) wrong('/count', 'min must be at most max');
    }
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: { pattern, ...(count === undefined ? {} : { count: count as CallCount }) } };
}
