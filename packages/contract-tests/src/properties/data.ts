/** Data as files and documents: the nightly dumps, the served description. */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { operations } from '@investor-graph/contract';
import { planRule } from '../core/context.ts';
import { cutBody } from '../shown/cut-body.ts';
import { answerShown, valueShown } from '../shown/failure-text.ts';
import { type Property, assert, expectStatus, keylessElsewhere, smallestFiles } from './support.ts';

export const nightlyDumps: Property = {
  id: 'exports',
  title:
    "the dump manifest's files are served as it says: their size, sha256 and row count, gzip " +
    'JSONL, a strong ETag; malformed dates and files refused',
  spec: ['1. What the service does', '4. Endpoints'],
  assumed: ['exports-manifest-and-files', 'path-formats', 'conditional-requests'],
  skip: (ctx) =>
    planRule(ctx).exports ? null : `the ${ctx.config.plan} plan has no nightly dumps (plan-features checks the 402)`,
  cost: (ctx) => ({ calls: 4, rows: ctx.client.rowCost(1) }),
  arbitrary: () =>
    fc.record({
      pick: fc.nat(),
      badDate: fc.constantFrom('2026-13-01', '20261101', 'latest'),
      badFile: fc.constantFrom('firms.json', 'people.jsonl.gz', '..'),
    }),
  examples: () => [{ pick: 0, badDate: '2026-13-01', badFile: 'people.jsonl.gz' }],
  async check(ctx, { pick, badDate, badFile }) {
    const manifest = await ctx.client.call('/api/v1/exports', { rows: 1 });
    expectStatus(manifest, 200, `/api/v1/exports on ${ctx.config.plan}`);
    const days: any[] = manifest.body.data;
    if (!days.length) return;
    // The smallest file of the newest day keeps the case cheap; pick chooses among the small ones.
    const files = smallestFiles(days[0]).slice(0, 3);
    const file = files[pick % files.length];
    const path = new URL(file.url, 'http://service.invalid').pathname;
    const download = await ctx.client.call(path, { rows: 0, raw: true });
    expectStatus(download, 200, `the dump file ${path}`);
    const bytes = download.bytes!;
    // The bytes as served are the file: fetch undoes a Content-Encoding, so none may stand over the gzip.
    assert(
      !download.headers.get('content-encoding'),
      path,
      'no Content-Encoding (the file is gzip itself)',
      `Content-Encoding ${download.headers.get('content-encoding')}`,
    );
    assert(bytes.length === file.bytes, path, `the ${file.bytes} bytes the manifest states`, `${bytes.length} bytes`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert(sha256 === file.sha256, path, `the sha256 the manifest states, ${file.sha256}`, `${sha256}`);
    assert(
      bytes[0] === 0x1f && bytes[1] === 0x8b,
      path,
      'gzip (starting 1f8b)',
      `bytes starting ${Buffer.from(bytes.slice(0, 4)).toString('hex')}`,
    );
    const lines = gunzipSync(bytes).toString('utf8').split('\n').filter(Boolean);
    assert(
      lines.length === file.rows,
      path,
      `the ${file.rows} rows the manifest states, a line each`,
      `${lines.length} lines`,
    );
    for (const line of lines.slice(0, 50)) {
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        row = null;
      }
      assert(
        row && typeof row === 'object' && !Array.isArray(row),
        path,
        'a JSON object on every line',
        `the line ${cutBody(line, 80)}`,
      );
    }
    const etag = download.headers.get('etag') ?? '';
    assert(
      /^"[^"]+"$/.test(etag),
      path,
      "a strong ETag (a dump file's bytes are fixed)",
      etag ? `ETag ${etag}` : 'no ETag',
    );
    const date = await ctx.client.call(path.replace(days[0].date, badDate), { rows: 0 });
    expectStatus(date, 400, `a dump date that is not YYYY-MM-DD (${badDate})`);
    const name = await ctx.client.call(path.replace(file.name, encodeURIComponent(badFile)), { rows: 0 });
    expectStatus(name, [400, 404], `a dump file that is not one of the nine resources' (${badFile})`);
  },
};

export const openapi: Property = {
  id: 'openapi',
  title: 'the served /api/v1/openapi.json describes every operation of the contract, with its parameters',
  spec: ['9. Versioning'],
  assumed: [],
  keyless: true,
  skip: (ctx) => keylessElsewhere(ctx),
  cost: () => ({ calls: 1, rows: 0 }),
  arbitrary: () => fc.constant(null),
  once: true,
  async check(ctx) {
    const answer = await ctx.client.call('/api/v1/openapi.json', { key: null, rows: 0 });
    expectStatus(answer, 200, 'GET /api/v1/openapi.json');
    type Parameter = { name?: string; in?: string; $ref?: string };
    type PathItem = Record<string, { parameters?: Parameter[] }> & { parameters?: Parameter[] };
    const served = answer.body as {
      paths?: Record<string, PathItem>;
      servers?: { url?: string }[];
      components?: { parameters?: Record<string, Parameter> };
    } | null;
    assert(
      served && typeof served.paths === 'object',
      '/api/v1/openapi.json',
      'a description with paths',
      served ? 'one without paths' : `${answerShown(answer)}`,
    );
    // Its parameters may be $refs into its own components, or written out; its paths may leave
    // the /api/v1 prefix to its server URL.
    const resolved = (p: Parameter): Parameter =>
      p.$ref?.startsWith('#/components/parameters/')
        ? (served.components?.parameters?.[p.$ref.split('/').at(-1)!] ?? p)
        : p;
    const prefix = (() => {
      try {
        return new URL(served.servers?.[0]?.url ?? '', 'http://server.invalid').pathname.replace(/\/+$/, '');
      } catch {
        return '';
      }
    })();
    // It lists this server, at the address the run reaches it by (DECISIONS.md#http-conventions).
    const origin = new URL(ctx.config.baseUrl).origin;
    const listed = (served.servers ?? []).map((s) => s.url ?? '');
    assert(
      listed.some((url) => {
        try {
          return new URL(url).origin === origin;
        } catch {
          return false;
        }
      }),
      '/api/v1/openapi.json',
      `servers listing ${origin}, the server that served it`,
      `servers ${valueShown(listed)}`,
    );
    for (const op of operations) {
      const item =
        served.paths[op.path] ??
        (prefix && op.path.startsWith(prefix) ? served.paths[op.path.slice(prefix.length)] : undefined);
      const entry = item?.[op.method.toLowerCase()];
      assert(
        item && entry,
        '/api/v1/openapi.json',
        `${op.method} ${op.path}, an operation of the contract`,
        'a description without it',
      );
      // A paged operation links its 200 to its next page, so a client can walk it from the description.
      if (op.query.includes('cursor')) {
        const ok = (entry as { responses?: Record<string, unknown> }).responses?.['200'] as
          { $ref?: string; links?: Record<string, { parameters?: Record<string, unknown> }> } | undefined;
        const response = ok?.$ref?.startsWith('#/components/responses/')
          ? ((served as { components?: { responses?: Record<string, typeof ok> } }).components?.responses?.[
              ok.$ref.split('/').at(-1)!
            ] ?? ok)
          : ok;
        assert(
          response?.links?.NextPage?.parameters?.cursor === '$response.body#/next_cursor',
          `/api/v1/openapi.json, ${op.method} ${op.path}`,
          'a NextPage link taking cursor from $response.body#/next_cursor',
          response?.links?.NextPage
            ? `a NextPage link taking cursor from ${valueShown(response.links.NextPage.parameters?.cursor)}`
            : 'no NextPage link',
        );
      }
      // Parameters of the path item hold for each of its operations (OpenAPI 3).
      const named = new Set(
        [...(item.parameters ?? []), ...(entry.parameters ?? [])].map(resolved).map((p) => `${p.in}:${p.name}`),
      );
      for (const parameter of op.parameters as Parameter[]) {
        assert(
          named.has(`${parameter.in}:${parameter.name}`),
          `/api/v1/openapi.json, ${op.method} ${op.path}`,
          `its ${parameter.in} parameter ${parameter.name}`,
          `only ${[...named].join(', ') || 'no parameters'}`,
        );
      }
    }
  },
};
