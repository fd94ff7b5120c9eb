/**
 * Every GET operation of the contract asked of two mocks with the same key, walked page by page
 * through each one's own cursors: what they served differently (status, ETag, the body with the
 * envelope's usage aside, a dump file's bytes). The round trips of issue #55 hold a mock started on
 * another's data to it. Which operations were asked, and how often, comes back too, so a test can
 * hold the comparison to every operation of the contract.
 */
import { createHash } from 'node:crypto';
import { operations, parameterEnum } from '@investor-graph/contract';

export interface Compared {
  differences: string[];
  /** Calls compared, by operationId. */
  calls: Record<string, number>;
}

/** Operations not compared, and why. */
export const notCompared: Record<string, string> = {
  getAccount: "the key's own usage and summary, which differ between any two mocks",
  getOpenApiDocument: 'the contract, served with each mock as its server: no data',
  createTrialKey: 'a POST: it makes a key, reads no data',
};

type Answer = { status: number; etag: string | null; body: string; json: Record<string, unknown> | null };

export async function compareMocks(a: string, b: string, key: string, since: string): Promise<Compared> {
  const differences: string[] = [];
  const calls: Record<string, number> = {};
  const ask = async (base: string, path: string): Promise<Answer> => {
    const answer = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const type = answer.headers.get('content-type') ?? '';
    let json: Record<string, unknown> | null = null;
    let body = `sha256 ${createHash('sha256').update(bytes).digest('hex')}`;
    if (type.includes('json')) {
      json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      // The envelope's usage is the key's own; the manifest's links name each mock's own address.
      const { usage: _usage, ...rest } = json;
      body = JSON.stringify(rest).replaceAll(base, 'BASE');
    }
    return { status: answer.status, etag: answer.headers.get('etag'), body, json };
  };
  /** One path asked of both (B by its own path: its own cursor); differences noted; both answers given back. */
  const both = async (operationId: string, pathA: string, pathB = pathA): Promise<[Answer, Answer]> => {
    calls[operationId] = (calls[operationId] ?? 0) + 1;
    const [x, y] = await Promise.all([ask(a, pathA), ask(b, pathB)]);
    if (x.status !== y.status) differences.push(`${pathA}: status ${x.status} / ${y.status}`);
    // The manifest's links name each mock's own address, and its ETag is of those bytes: its body is
    // compared with the addresses blanked, and its ETag not.
    if (x.etag !== y.etag && operationId !== 'getExportManifest')
      differences.push(`${pathA}: ETag ${x.etag} / ${y.etag}`);
    if (x.body !== y.body)
      differences.push(`${pathA}: body differs:\n  ${x.body.slice(0, 300)}\n  ${y.body.slice(0, 300)}`);
    return [x, y];
  };
  /** Every page of a list, each mock walked through its own cursors; the rows of A's pages given back. */
  const walk = async (operationId: string, path: string): Promise<Record<string, unknown>[]> => {
    const rows: Record<string, unknown>[] = [];
    const page = (cursor: string | null): string =>
      `${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    for (let next: [string | null, string | null] | null = [null, null]; next;) {
      const [x, y] = await both(operationId, page(next[0]), page(next[1]));
      if (x.status !== 200 || !x.json || !y.json) break;
      rows.push(...(x.json.data as Record<string, unknown>[]));
      const [na, nb] = [x.json.next_cursor as string | null, y.json.next_cursor as string | null];
      next = na !== null && nb !== null ? [na, nb] : null;
    }
    return rows;
  };
  const gets = operations.filter((o) => o.method === 'GET' && !(o.operationId in notCompared));
  const keysOf = new Map<string, string[]>();
  for (const op of gets) {
    if (op.operationId === 'listChanges')
      for (const rows of ['', '&include=rows'])
        await walk(op.operationId, `${op.path}?since=${encodeURIComponent(since)}${rows}`);
    else if (op.operationId === 'getStatistic')
      for (const name of parameterEnum(op.operationId, 'name'))
        await both(op.operationId, op.path.replace('{name}', name));
    else if (!op.path.includes('{') && op.operationId !== 'getExportManifest') {
      // A top-level list: its rows name the records and parents the operations below ask for.
      const rows = await walk(op.operationId, op.path);
      if (op.query.includes('announced_since')) await walk(op.operationId, `${op.path}?announced_since=2025-06-01`);
      for (const field of ['slug', 'id'])
        keysOf.set(
          `${op.path}/{${field}}`,
          rows.map((r) => String(r[field])),
        );
    }
  }
  for (const op of gets.filter((o) => /^\/api\/v1\/[a-z-]+\/\{(slug|id)\}/.test(o.path))) {
    const parent = /^(.*?\/\{(?:slug|id)\})/.exec(op.path)![1]!;
    for (const k of keysOf.get(parent) ?? []) {
      const path = op.path.replace(/\{(slug|id)\}/, encodeURIComponent(k));
      if (op.query.includes('limit')) await walk(op.operationId, path);
      else await both(op.operationId, path);
    }
  }
  // The dump itself: the manifest, walked, then every file it lists, by its own link.
  const manifest = await walk('getExportManifest', '/api/v1/exports');
  for (const day of manifest as unknown as { files: { url: string }[] }[])
    for (const file of day.files) await both('getExportFile', new URL(file.url).pathname);
  return { differences, calls };
}
