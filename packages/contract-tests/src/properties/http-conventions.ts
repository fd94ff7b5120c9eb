/** HTTP as DECISIONS.md writes it beyond caching: HEAD, OPTIONS and preflights, methods, headers. */
import fc from 'fast-check';
import { type Answer } from '../client/client.ts';
import { type Property, assert, expectStatus, requestFor, readOperations } from './support.ts';

export const httpConventions: Property = {
  id: 'http-conventions',
  title:
    'HEAD answers as GET without a body, OPTIONS and a browser preflight are answered, ' +
    'another method is 405 with Allow, caching and CORS headers are on data, a request id is ' +
    'echoed, a refused key says WWW-Authenticate',
  spec: [],
  assumed: ['http-conventions'],
  skip: () => null,
  cost: (ctx) => ({ calls: 7, rows: 3 * ctx.client.rowCost(5) }),
  arbitrary: () =>
    fc.record({
      op: fc.constantFrom(...readOperations),
      pick: fc.nat(),
      limit: fc.integer({ min: 1, max: 5 }),
      origin: fc.constantFrom('https://app.example', 'http://localhost:5173'),
      requestId: fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/),
    }),
  // A page and a record first: the conventions hold on both kinds of answer.
  examples: () =>
    ['listFirms', 'getCompany'].map((id) => ({
      op: readOperations.find((o) => o.operationId === id)!,
      pick: 0,
      limit: 2,
      origin: 'https://app.example',
      requestId: 'ct-conventions-1',
    })),
  async check(ctx, { op, pick, limit, origin, requestId }) {
    const path = requestFor(ctx, op, pick, limit, 0);
    if (!path) return;
    const rows = op.query.includes('limit') ? limit : 1;
    // Uncompressed, so GET and HEAD can be held to the same Content-Length.
    const plain = { 'accept-encoding': 'identity' };
    const get = await ctx.client.call(path, { rows, headers: { ...plain, origin, 'x-request-id': requestId } });
    expectStatus(get, 200, `${path}, a record or page that exists`);
    const header = (a: Answer, name: string) => a.headers.get(name) ?? '';
    const tokens = (a: Answer, name: string) =>
      header(a, name)
        .toLowerCase()
        .split(',')
        .map((t) => t.trim());
    assert(
      tokens(get, 'cache-control').includes('private'),
      path,
      'Cache-Control: private (a data answer is private to its key)',
      `Cache-Control "${header(get, 'cache-control')}"`,
    );
    assert(
      tokens(get, 'vary').includes('authorization'),
      path,
      'Vary: Authorization (a data answer varies by key)',
      `Vary "${header(get, 'vary')}"`,
    );
    assert(
      header(get, 'x-request-id') === requestId,
      `${path} with X-Request-Id ${requestId}`,
      `the well-formed X-Request-Id echoed, ${requestId}`,
      `X-Request-Id "${header(get, 'x-request-id')}"`,
    );
    const allowed = header(get, 'access-control-allow-origin');
    assert(
      allowed === '*' || allowed === origin,
      `${path} from ${origin}`,
      `Access-Control-Allow-Origin * or ${origin} (a browser app may read the answer)`,
      `Access-Control-Allow-Origin "${allowed}"`,
    );
    if (header(get, 'content-encoding'))
      assert(
        tokens(get, 'vary').includes('accept-encoding'),
        `${path}, compressed (${header(get, 'content-encoding')})`,
        'Vary: Accept-Encoding',
        `Vary "${header(get, 'vary')}"`,
      );

    const head = await ctx.client.call(path, { method: 'HEAD', rows, headers: plain });
    expectStatus(head, 200, `HEAD ${path} (the GET was 200)`);
    assert(head.text === '', `HEAD ${path}`, 'no body', `a body of ${head.text.length} bytes`);
    for (const name of ['content-type', 'cache-control']) {
      assert(
        header(head, name) === header(get, name),
        `HEAD ${path}`,
        `the GET's ${name}, "${header(get, name)}"`,
        `${name} "${header(head, name)}"`,
      );
    }
    // The length of the body a GET would get now: its usage counts one more call, so a counter
    // gaining a digit may make it a byte or two longer than the GET's. A GET sent chunked (no
    // Content-Length, as a proxy may send it) is measured by its body; its HEAD may then say no
    // length (RFC 9110, 9.3.2), but one it says must be the GET's.
    const getLength = get.headers.get('content-length') ?? String(Buffer.byteLength(get.text));
    const headLength = head.headers.get('content-length');
    const lengths = [Number(headLength), Number(getLength)];
    assert(
      (headLength === null && !get.headers.has('content-length')) ||
        (Number.isInteger(lengths[0]) && lengths[0]! > 0 && Math.abs(lengths[0]! - lengths[1]!) <= 8),
      `HEAD ${path}`,
      `the Content-Length of the GET's body (${getLength}, give or take 8 bytes of usage counters)`,
      `Content-Length "${headLength ?? ''}"`,
    );
    // The same tag, unless the data was rebuilt between the two calls: then a GET now has the HEAD's.
    if (header(head, 'etag') !== header(get, 'etag')) {
      const again = await ctx.client.call(path, { rows, headers: plain });
      assert(
        header(again, 'etag') === header(head, 'etag'),
        `HEAD ${path}`,
        `the ETag of the GET before it, "${header(get, 'etag')}", or of a GET since, "${header(again, 'etag')}"`,
        `ETag "${header(head, 'etag')}"`,
      );
    }

    // HEAD is the GET without its body: without a key, the GET's 401.
    const anonymous = await ctx.client.call(path, { method: 'HEAD', key: null, headers: plain });
    expectStatus(anonymous, 401, `HEAD ${path} without a key (the GET would be a 401)`);

    const preflight = await ctx.client.call(path, {
      method: 'OPTIONS',
      key: null,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expectStatus(preflight, [200, 204], `a browser's preflight of GET ${path} from ${origin}`);
    assert(
      tokens(preflight, 'access-control-allow-headers').includes('authorization'),
      `preflight of ${path}`,
      'Access-Control-Allow-Headers with Authorization',
      `Access-Control-Allow-Headers "${header(preflight, 'access-control-allow-headers')}"`,
    );
    assert(
      tokens(preflight, 'access-control-allow-methods').includes('get'),
      `preflight of ${path}`,
      'Access-Control-Allow-Methods with GET',
      `Access-Control-Allow-Methods "${header(preflight, 'access-control-allow-methods')}"`,
    );
    assert(
      ['*', origin].includes(header(preflight, 'access-control-allow-origin')),
      `preflight of ${path} from ${origin}`,
      `Access-Control-Allow-Origin * or ${origin}`,
      `Access-Control-Allow-Origin "${header(preflight, 'access-control-allow-origin')}"`,
    );

    // Without a key: a read-only API refuses the method before it looks for one.
    const other = await ctx.client.call(path, { method: 'DELETE', key: null });
    expectStatus(other, 405, `DELETE ${path} (a read-only API)`);
    assert(
      ['get', 'head'].every((m) => tokens(other, 'allow').includes(m)),
      `DELETE ${path}, answered 405`,
      'Allow with GET and HEAD',
      `Allow "${header(other, 'allow')}"`,
    );

    // A well-formed key that is no key (never the run's own key altered: a service that echoes
    // what it refused would put it in the report).
    const refused = await ctx.client.call(path, { key: `igk_team_${'Z'.repeat(32)}` });
    expectStatus(refused, 401, `${path} with a key that is not one`);
    assert(
      /^Bearer\b/i.test(header(refused, 'www-authenticate')),
      `${path} with a key that is not one, answered 401`,
      'WWW-Authenticate: Bearer (a 401 names its scheme)',
      `WWW-Authenticate "${header(refused, 'www-authenticate')}"`,
    );
  },
};
