/**
 * Timestamp query parameters (those the contract gives `format: date-time`: `since`). Any RFC 3339
 * form of a UTC instant is read, and each becomes one text before the cursor and the store see it,
 * so equal instants get the same page, `next_cursor` and `ETag` (DECISIONS.md#timestamps).
 */
import { operations } from '@investor-graph/contract/document';
import { ProblemError } from '../problems.ts';
import type { RouteMatch } from './router.ts';

/**
 * Each operation's query parameters that carry an instant, from the contract: a new one is read here without a change.
 */
const instantParameters = new Map(
  operations
    .map(
      (op) =>
        [
          op.operationId,
          op.parameters
            .filter((p) => p.in === 'query' && (p.schema as { format?: string } | undefined)?.format === 'date-time')
            .map((p) => p.name as string),
        ] as const,
    )
    .filter(([, names]) => names.length > 0),
);

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const UTC = /^(?:[Zz]|[+-]00:00)$/;
const SECOND = 1000;

/** What a timestamp reads as: the instant in the one form the feed compares, or why it is refused. */
export type InstantReading = { instant: string } | { problem: string };

/**
 * Reads an RFC 3339 date-time of a UTC instant (`Z`, `z`, `+00:00`, `-00:00`; `T` or `t`; a
 * fraction of any length) as `YYYY-MM-DDTHH:MM:SSZ`. Changes are stamped to the whole second, so an
 * instant inside a second reads as the next whole second: the changes at or after that are exactly
 * the changes at or after the instant, whatever digits the fraction has (`since` is at most 64
 * characters: DECISIONS.md#bounds). A leap second
 * (`23:59:60`) is the second after it, for the same reason.
 */
export function readUtcInstant(text: string): InstantReading {
  const m = RFC3339.exec(text);
  // A `+` left unencoded in a query string arrives as a space: say so, rather than "not RFC 3339".
  if (!m && RFC3339.test(text.replace(/ (\d{2}:\d{2})$/, '+$1'))) {
    return {
      problem:
        "has a space where its offset's + was: a + in a query string is a space, so send it as %2B (e.g. " +
        '2026-11-01T00:00:00%2B00:00), or give the instant with Z',
    };
  }
  if (!m)
    return {
      problem:
        'is not an RFC 3339 date-time; give the instant in UTC, e.g. 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+00:00',
    };
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = m[7] ?? '';
  const offset = m[8]!;
  const leap = second === 60 && hour === 23 && minute === 59;
  const offsetOk = Number(offset.slice(1, 3)) <= 23 && Number(offset.slice(4, 6)) <= 59;
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year, month) ||
    hour > 23 ||
    minute > 59 ||
    (second > 59 && !leap) ||
    !offsetOk
  ) {
    return {
      problem:
        'is not a date and time that exists; give the instant in UTC, e.g. 2026-11-01T00:00:00Z or ' +
        '2026-11-01T00:00:00+00:00',
    };
  }
  if (!UTC.test(offset)) {
    const inUtc = writeUtc(utcMs(year, month, day, hour, minute, Math.min(second, 59)) - offsetMs(offset)).replace(
      /Z$/,
      fraction,
    );
    return {
      problem: `is at the offset ${offset}, not in UTC; give the instant in UTC, e.g. ${inUtc}Z or ${inUtc}+00:00`,
    };
  }
  const whole = utcMs(year, month, day, hour, minute, leap ? 59 : second);
  const up = leap || /[1-9]/.test(fraction) ? SECOND : 0;
  return { instant: writeUtc(whole + up) };
}

/**
 * Refuses the call's timestamp parameters that are not a UTC instant, with a 400 that says how to
 * write one, and returns the query with each written as `readUtcInstant` does (the query itself
 * when the operation has none).
 */
export function utcInstants(route: RouteMatch, query: Map<string, string>): Map<string, string> {
  const names = instantParameters.get(route.operationId)?.filter((name) => query.has(name));
  if (!names?.length) return query;
  const out = new Map(query);
  for (const name of names) {
    const reading = readUtcInstant(query.get(name)!);
    if ('problem' in reading) {
      const detail = `${name} ${reading.problem}.`;
      throw new ProblemError('invalid_parameter', detail, {
        extra: { errors: [{ parameter: name, detail: reading.problem }] },
      });
    }
    out.set(name, reading.instant);
  }
  return out;
}

/** The query parameters of an operation that carry an instant (the contract's `format: date-time`). */
export function instantParametersOf(operationId: string): readonly string[] {
  return instantParameters.get(operationId) ?? [];
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The time in ms since the epoch; Date.UTC reads years 0 to 99 as 1900 to 1999, so those are set again. */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (year < 100) at.setUTCFullYear(year, month - 1, day);
  return at.getTime();
}

function offsetMs(offset: string): number {
  const sign = offset[0] === '-' ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60 * SECOND;
}

/**
 * `YYYY-MM-DDTHH:MM:SSZ`, as changes are stamped, so that texts compare as instants. Past year
 * 9999 (9999-12-31T23:59:59.5Z rounds up there) the text is one after every stamp of year 9999.
 */
function writeUtc(ms: number): string {
  const text = new Date(ms).toISOString();
  return text.length === 24 ? `${text.slice(0, 19)}Z` : '9999-12-31T24:00:00Z';
}
