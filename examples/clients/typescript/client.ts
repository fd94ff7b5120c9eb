/**
 * What an integrator does with a TypeScript client generated from the contract the mock serves
 * (openapi-typescript for the types, openapi-fetch for the calls): get a trial key and meet its 402
 * on the changes feed, page a list by its cursor to the end, read the feed with a paid key from a
 * `since` written with `+00:00`, and burst above a plan's rate into a 429 whose Retry-After it
 * reads. Every call goes through the typed client; ../generated-clients.test.ts runs it.
 */
import createClient from 'openapi-fetch';
import type { paths } from './api.ts';

/** A client of the API at `baseUrl`, with a key or without one (the trial call needs none). */
export function investorGraph(baseUrl: string, key?: string) {
  return createClient<paths>({ baseUrl, headers: key ? { authorization: `Bearer ${key}` } : {} });
}

/** A trial key from the open call, then the feed with it: the 402 and the actions it offers. */
export async function trialFeed(baseUrl: string, email: string) {
  const issued = await investorGraph(baseUrl).POST('/api/v1/keys/trial', { body: { email } });
  if (!issued.data) throw new Error(`no trial key: ${issued.response.status} ${JSON.stringify(issued.error)}`);
  const refused = await investorGraph(baseUrl, issued.data.key).GET('/api/v1/changes', {
    params: { query: { since: '2026-11-01T00:00:00Z' } },
  });
  return {
    plan: issued.data.plan,
    status: refused.response.status,
    code: refused.error?.code,
    actions: refused.error?.actions?.map((a) => a.type) ?? [],
  };
}

/** Every firm's slug, page by page, following next_cursor until it is null. */
export async function allFirms(baseUrl: string, key: string, limit: number) {
  const client = investorGraph(baseUrl, key);
  const slugs: string[] = [];
  let pages = 0;
  let cursor: string | undefined;
  for (;;) {
    const { data, error, response } = await client.GET('/api/v1/firms', {
      params: { query: { limit, ...(cursor ? { cursor } : {}) } },
    });
    if (!data) throw new Error(`firms page ${pages + 1}: ${response.status} ${error?.detail}`);
    pages++;
    slugs.push(...data.data.map((firm) => firm.slug));
    if (data.next_cursor === null) return { pages, slugs };
    cursor = data.next_cursor;
  }
}

/**
 * The whole changes feed from `since` (a UTC instant in any RFC 3339 form), page by page:
 * the sequences, and each URL sent.
 */
export async function feed(baseUrl: string, key: string, since: string) {
  const client = investorGraph(baseUrl, key);
  const sequences: number[] = [];
  const urls: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const { data, error, response } = await client.GET('/api/v1/changes', {
      params: { query: { since, limit: 40, ...(cursor ? { cursor } : {}) } },
    });
    urls.push(response.url);
    if (!data) throw new Error(`changes since ${since}: ${response.status} ${error?.code}: ${error?.detail}`);
    sequences.push(...data.data.map((change) => change.sequence));
    if (data.next_cursor === null) return { sequences, urls };
    cursor = data.next_cursor;
  }
}

/** Calls as fast as the client goes until the rate answers 429; its Retry-After and code as the client reads them. */
export async function burst(baseUrl: string, key: string) {
  const client = investorGraph(baseUrl, key);
  for (let calls = 1; calls <= 200; calls++) {
    const { error, response } = await client.GET('/api/v1/firms', { params: { query: { limit: 1 } } });
    if (response.status === 429) return { calls, retryAfter: response.headers.get('retry-after'), code: error?.code };
  }
  return { calls: 200, retryAfter: null, code: undefined };
}
