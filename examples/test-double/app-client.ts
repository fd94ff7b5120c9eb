/**
 * An app's own client of the Investor Graph API, as an app writes one with nothing but `fetch`:
 * a GET that tries again after 429, 502, 503 or 504, waiting what `Retry-After` says, a few times
 * at most; and a pager that follows `next_cursor` to the end of a list.
 */

/** The answers worth trying again: rate limited, or the service (or its gateway) briefly down. */
const transient = new Set([429, 502, 503, 504]);

export interface AppClientOptions {
  /** The API's origin: https://api.investorgraph.com, or the mock's in tests. */
  baseUrl: string;
  key: string;
  /** Tries after the first, at most (3). */
  maxRetries?: number;
  /** How the client waits before trying again; a test passes one that records the wait instead. */
  sleep?: (ms: number) => Promise<void>;
}

/** An answer the client gave up on: its status and the problem's `code`. No key is in it. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, code: string | undefined, path: string) {
    super(`GET ${path.split('?')[0]}: ${status}${code ? ` ${code}` : ''}`);
    this.status = status;
    this.code = code;
  }
}

/** What to wait before the next try: `Retry-After` in seconds or as an HTTP date, else 1 s, 2 s, 4 s... */
export function retryDelay(retryAfter: string | null, attempt: number, now = Date.now()): number {
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter) * 1000;
  const at = retryAfter === null ? NaN : Date.parse(retryAfter);
  return Number.isNaN(at) ? 1000 * 2 ** attempt : Math.max(0, at - now);
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createAppClient(options: AppClientOptions) {
  const { baseUrl, key, maxRetries = 3, sleep = realSleep } = options;

  /** The JSON of a GET, after as many tries as a transient failure takes (maxRetries at most). */
  async function get<T = any>(path: string): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      // The global fetch is looked up on each call: MSW's setupServer replaces it once it listens.
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (response.ok) return (await response.json()) as T;
      const problem = (await response.json().catch(() => ({}))) as { code?: string };
      if (!transient.has(response.status) || attempt >= maxRetries)
        throw new ApiError(response.status, problem.code, path);
      await sleep(retryDelay(response.headers.get('retry-after'), attempt));
    }
  }

  /** Each page of a list (`/api/v1/firms?limit=50`), first to last, following `next_cursor` until it is null. */
  async function* pages<Row = any>(path: string): AsyncGenerator<Row[]> {
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page: { data: Row[]; next_cursor: string | null } = await get(
        cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`,
      );
      yield page.data;
      cursor = page.next_cursor;
    } while (cursor !== null);
  }

  /** Every row of a list, page after page. */
  async function listAll<Row = any>(path: string): Promise<Row[]> {
    const rows: Row[] = [];
    for await (const data of pages<Row>(path)) rows.push(...data);
    return rows;
  }

  return { get, pages, listAll };
}
