/**
 * How the header operator alters each header it may meet: one wrong value a service could send,
 * one row a header (DECISIONS.md#http-conventions, #rate-limit-headers, #conditional-requests say
 * what the right one is).
 */
import type { Exchange } from './proxy.ts';

/** The headers the header operators touch, by lower-case name or prefix. */
export const mutableHeaders = new RegExp(
  '^(etag|ratelimit|ratelimit-policy|retry-after|cache-control|vary|content-type|x-request-id|' +
    'www-authenticate|allow|access-control-[a-z-]+)$',
);

const dropFirstItem = (value: string) =>
  value
    .split(',')
    .slice(1)
    .map((s) => s.trim())
    .join(', ');

const alters: Record<string, (value: string, exchange: Exchange) => string> = {
  // Another tag for the same content: a conditional request then misses.
  etag: (v) => v.replace(/(.)"$/, (_, c: string) => `${c === '0' ? '1' : '0'}"`),
  // The first number one higher: a remaining count or a rate off by one.
  ratelimit: (v) => v.replace(/\d+/, (n) => String(Number(n) + 1)),
  'ratelimit-policy': (v) => v.replace(/\d+/, (n) => String(Number(n) + 1)),
  // Not a whole number of seconds from 1 to 60.
  'retry-after': () => '0',
  // Cacheable by a shared cache.
  'cache-control': () => 'public, max-age=60',
  // Without the first varying header (Authorization).
  vary: dropFirstItem,
  'content-type': (v) =>
    /problem\+json/i.test(v)
      ? 'application/json'
      : /json/i.test(v)
        ? 'text/plain; charset=utf-8'
        : 'application/octet-stream',
  // Another well-formed id than the one the client sent, or than the one made.
  'x-request-id': (v) => (v.endsWith('0') ? `${v.slice(0, -1)}1` : `${v.slice(0, -1)}0`),
  'www-authenticate': () => 'Basic realm="investor-graph"',
  // Without HEAD, GET or whatever comes first.
  allow: dropFirstItem,
  'access-control-allow-origin': () => 'https://example.invalid',
  'access-control-allow-methods': dropFirstItem,
  'access-control-allow-headers': dropFirstItem,
  'access-control-expose-headers': dropFirstItem,
  'access-control-max-age': () => '-1',
};

/** The altered value of a header (a generic wrong one for a header without its own row). */
export function alterHeader(name: string, value: string, exchange: Exchange): string {
  return (alters[name] ?? (() => 'mutated'))(value, exchange);
}
