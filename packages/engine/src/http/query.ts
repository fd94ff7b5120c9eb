/**
 * Reading a request's target strictly: its query string (no lenient decoding, no repeats), the
 * names the operation takes (with did-you-mean), the page size a plan allows, and what a cursor is
 * bound to.
 */
import { shorten } from '@investor-graph/cli/redact';
import { defaultLimit, type PlanRule } from '@investor-graph/contract/plans';
import { nearest } from '@investor-graph/cli/near';
import { fnv64 } from '../hash.ts';
import { ProblemError } from '../problems.ts';
import type { RouteMatch } from './router.ts';

const MAX_URL = 8192;

/**
 * Whether an absolute URL's path is `prefix` or under it, told from the text alone: the hot path
 * pays for no URL parse to know that a call is not for /__control or /docs.
 */
export function pathUnder(prefix: string): RegExp {
  return new RegExp(`^[a-z][a-z0-9+.-]*://[^/?#]*${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[/?#]|$)`, 'i');
}

/**
 * URLs parsed, by their text (parsing is pure, and clients ask the
 * same URLs again); short ones only, so the memory stays small.
 */
const parsed = new Map<string, URL>();
const MAX_PARSED = 2048;
const PARSED_UP_TO = 512;

/**
 * The request's URL, refused (414) past what any client of this API needs, and (400) when it is no
 * URL: an adapter that checks no Host hands on `http://127.0.0.256/...` as it came. Never edited by
 * a caller: it may be shared.
 */
export function parseUrl(request: Request): URL {
  const text = request.url;
  if (text.length > MAX_URL) throw new ProblemError('uri_too_long', `The URL is longer than ${MAX_URL} characters.`);
  let url = parsed.get(text);
  if (url === undefined) {
    try {
      url = new URL(text);
    } catch {
      throw new ProblemError(
        'invalid_request',
        "The request's URL cannot be parsed: its Host is no host and port, or its target no path.",
      );
    }
    if (text.length > PARSED_UP_TO) return url;
    // Cleared when full: cheaper than an order kept on every hit, and refilled by the next calls.
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(text, url);
  }
  return url;
}

/**
 * Parses the query string strictly: a malformed %-escape or bytes that are not UTF-8 are a 400
 * naming the parameter (URLSearchParams would silently turn them into U+FFFD), and so is a
 * parameter given twice.
 */
export function parseQuery(search: string): Map<string, string> {
  const out = new Map<string, string>();
  if (search.length <= 1) return out;
  for (const part of search.slice(1).split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      const label = /^[\w-]+$/.test(rawName) ? rawName : 'query';
      throw new ProblemError('invalid_parameter', `The query parameter ${label} is not valid percent-encoded UTF-8.`, {
        extra: { errors: [{ parameter: label, detail: 'not valid percent-encoded UTF-8' }] },
      });
    }
    if (out.has(name))
      throw new ProblemError('invalid_parameter', `The query parameter ${name} is given more than once.`, {
        extra: { errors: [{ parameter: name, detail: 'given more than once' }] },
      });
    out.set(name, value);
  }
  return out;
}

/**
 * Refuses query parameters the operation does not take (naming
 * the one meant), empty ones, and a limit that is not digits.
 */
export function checkQueryNames(route: RouteMatch, query: Map<string, string>): void {
  const unknown = [...query.keys()].filter((k) => !route.queryNames.includes(k));
  if (!unknown.length) {
    const empty = [...query].find(([, v]) => v === '');
    if (empty)
      throw new ProblemError('invalid_parameter', `The query parameter ${empty[0]} is empty; leave it out instead.`, {
        extra: { errors: [{ parameter: empty[0], detail: 'empty' }] },
      });
    // prism-http coerces "Infinity", "1e3" and " 7" to numbers; the contract says integer, so digits
    // only; from 1 to the contract's maximum it is capped at the plan's page size, past it the
    // contract's validation refuses it (DECISIONS.md#limit).
    const limit = query.get('limit');
    if (limit !== undefined && !/^[0-9]+$/.test(limit)) {
      throw new ProblemError(
        'invalid_parameter',
        `limit must be a whole number of at least 1, got "${shorten(limit, 40)}".`,
        { extra: { errors: [{ parameter: 'limit', detail: 'must be a whole number of at least 1' }] } },
      );
    }
    return;
  }
  const errors = unknown.map((name) => {
    const near = nearest(name, route.queryNames);
    return {
      parameter: name,
      detail: near
        ? `unknown; did you mean ${near}?`
        : `unknown; this endpoint takes ${route.queryNames.join(', ') || 'no query parameters'}`,
    };
  });
  throw new ProblemError('unknown_parameter', errors.map((e) => `${e.parameter}: ${e.detail}`).join('; '), {
    extra: { errors },
  });
}

/**
 * Rows a page holds: the limit asked for, capped silently at the
 * plan's (DECISIONS.md#limit); validation already refused < 1.
 */
export function pageLimit(plan: PlanRule, query: Map<string, string>): number {
  const asked = query.get('limit');
  return asked === undefined ? Math.min(defaultLimit, plan.rows_per_page) : Math.min(Number(asked), plan.rows_per_page);
}

/** The filters a cursor is bound to: the operation's path parameters and every query parameter but paging. */
export function filterDigest(route: RouteMatch, query: Map<string, string>): string {
  const parts = [
    ...route.params.entries(),
    ...[...query.entries()].filter(([k]) => k !== 'cursor' && k !== 'limit').sort(),
  ];
  return fnv64(JSON.stringify(parts));
}
