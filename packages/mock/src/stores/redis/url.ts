/**
 * What `--state redis://...` names: read and checked here, with nothing of the Redis client, so the
 * CLI can tell a Redis URL from a file and refuse a bad one without loading ioredis (73 ms).
 */

/** How long a command may take before the call gets 503 (`?timeout=MS` in the URL changes it). */
const defaultTimeoutMs = 1000;

/** A --state value that is a Redis URL, or a file name. */
export const isRedisUrl = (state: string): boolean => /^rediss?:\/\//i.test(state);

export class RedisStateError extends Error {}

export interface RedisTarget {
  /** What ioredis connects to: the URL without the kit's own query parameters. */
  url: string;
  /** The URL as it may be shown: never the user or password. */
  shown: string;
  timeoutMs: number;
  /** What every name the mock keeps on the server starts with. */
  prefix: string;
}

/** Reads `redis[s]://[user:password@]HOST:PORT[/DB][?timeout=MS&prefix=P]`; anything else is a clear error. */
export function parseRedisUrl(text: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RedisStateError(`--state ${redacted(text)} is not a URL: give redis://[user:password@]HOST:PORT[/DB]`);
  }
  const shown = `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  if (!['redis:', 'rediss:'].includes(url.protocol) || !url.hostname)
    throw new RedisStateError(`--state ${shown}: give redis://[user:password@]HOST:PORT[/DB] (or rediss:// for TLS)`);
  if (!/^(\/(\d|1[0-5]))?\/?$/.test(url.pathname))
    throw new RedisStateError(`--state ${shown}: the path is a database number (0-15), as in redis://localhost:6379/0`);
  let timeoutMs = defaultTimeoutMs;
  let prefix = 'igk:';
  for (const [name, value] of url.searchParams) {
    if (name === 'timeout') {
      timeoutMs = Number(value);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 10 || timeoutMs > 60_000)
        throw new RedisStateError(`--state ${shown}: timeout must be 10 to 60000 ms, got ${value}`);
    } else if (name === 'prefix') {
      if (!/^[\w:.-]{1,64}$/.test(value))
        throw new RedisStateError(
          `--state ${shown}: prefix must be 1-64 letters, digits, '_', '-', '.' or ':', got ${value}`,
        );
      prefix = value;
    } else {
      throw new RedisStateError(
        `--state ${shown}: the query parameters are timeout=MS (how long a command may take) and prefix=P (what ` +
          `the mock's names start with), not ${name}`,
      );
    }
  }
  url.search = '';
  return { url: url.toString(), shown: prefix === 'igk:' ? shown : `${shown}?prefix=${prefix}`, timeoutMs, prefix };
}

/** A text that may hold a password, shown without what lies between the scheme and an '@'. */
// Up to the last '@': a password may hold '/' or '@' (then the URL does not parse, and is echoed).
const redacted = (text: string): string => text.replace(/\/\/.*@/, '//***@');
