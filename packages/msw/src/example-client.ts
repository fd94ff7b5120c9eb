/**
 * A small typed client of the kind an integrator writes, with types generated from the contract.
 * It lives here so the MSW tests can play an integrator; it is not part of the package's API.
 */
import type { components, paths } from '@investor-graph/contract';

type Problem = components['schemas']['Problem'] & { actions?: components['schemas']['Action'][] };
type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];
type Ok<P extends GetPath> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer B } } } };
}
  ? B
  : never;

export type Result<T> =
  | { ok: true; status: number; body: T; headers: Headers }
  | { ok: false; status: number; problem: Problem; headers: Headers };

export function createClient(baseUrl: string, options: { key?: string; retries?: number } = {}) {
  let key = options.key;
  const request = async <T>(method: string, path: string, body?: unknown): Promise<Result<T>> => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      // A polite client waits as long as Retry-After says, a bounded number of times.
      if (response.status === 429 && attempt < (options.retries ?? 0)) {
        await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      if (response.ok)
        return { ok: true, status: response.status, body: (await response.json()) as T, headers: response.headers };
      return {
        ok: false,
        status: response.status,
        problem: (await response.json()) as Problem,
        headers: response.headers,
      };
    }
  };
  return {
    useKey(next: string) {
      key = next;
    },
    getTrialKey: (email: string) => request<components['schemas']['TrialKey']>('POST', '/api/v1/keys/trial', { email }),
    get: <P extends GetPath>(
      path: P,
      params: { path?: Record<string, string>; query?: Record<string, string | number> } = {},
    ) => {
      const filled = Object.entries(params.path ?? {}).reduce<string>(
        (p, [k, v]) => p.replace(`{${k}}`, encodeURIComponent(v)),
        path,
      );
      const query = new URLSearchParams(Object.entries(params.query ?? {}).map(([k, v]) => [k, String(v)]));
      return request<Ok<P>>('GET', query.size ? `${filled}?${query}` : filled);
    },
    /** Every row of a list, page by page, following next_cursor. */
    async all<P extends GetPath>(
      path: P,
      query: Record<string, string | number> = {},
    ): Promise<Ok<P> extends { data: (infer R)[] } ? R[] : never> {
      const rows: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page = await this.get(path, { query: { ...query, ...(cursor ? { cursor } : {}) } });
        if (!page.ok) throw new Error(`${page.status} ${page.problem.code}: ${page.problem.detail}`);
        const body = page.body as { data: unknown[]; next_cursor: string | null };
        rows.push(...body.data);
        cursor = body.next_cursor;
      } while (cursor);
      return rows as never;
    },
  };
}
