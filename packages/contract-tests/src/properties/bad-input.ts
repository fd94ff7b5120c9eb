/** Requests the contract rejects, and ones it accepts, never answered 5xx. */
import fc from 'fast-check';
import { openapiDocument, operationById, operationFor, queryOf } from '@investor-graph/contract';
import { dataOperations, fillPath } from '../core/context.ts';
import { cutBody } from '../shown/cut-body.ts';
import { answerShown, valueShown } from '../shown/failure-text.ts';
import { type Property, DAY, assert, codeShown, expectStatus, cap, planServes, isoSecond } from './support.ts';

/** A parameter's bounds as the contract declares them (DECISIONS.md#bounds). */
const declared = (parameter: string) =>
  (openapiDocument.components.parameters[parameter] as { schema: { maximum?: number; maxLength?: number } }).schema;

export const badInput: Property = {
  id: 'bad-input',
  title: 'a request the contract rejects gets a 4xx problem, never a 5xx; one it accepts never a 5xx',
  spec: [],
  assumed: ['status-codes', 'limit', 'filters-and-sort-order', 'path-formats', 'bounds'],
  skip: () => null,
  cost: (ctx) => ({ calls: 1, rows: ctx.client.rowCost(Math.min(cap(ctx), 100)) }),
  // Rows come only with a limit the service takes (a whole number given once) on a list; the rest are refused.
  caseCost: (ctx, { op, param, value, twice, badSegment }) => ({
    calls: 1,
    rows:
      op.query.includes('limit') && param === 'limit' && /^[1-9]\d*$/.test(value) && !twice && badSegment === null
        ? ctx.client.rowCost(Math.min(cap(ctx), 100))
        : 0,
  }),
  arbitrary: () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        '',
        '-1',
        '0',
        '1.5',
        '1e3',
        'Infinity',
        '9'.repeat(30),
        '%00',
        '../',
        '2026-13-45',
        '2026-02-30T25:00:00Z',
      ),
    );
    return fc.record({
      op: fc.constantFrom(...dataOperations),
      pick: fc.nat(),
      param: fc.oneof(
        fc.constantFrom('limit', 'announced_since', 'since', 'include', 'cursor'),
        fc.stringMatching(/^[a-z_]{1,12}$/),
      ),
      value: junk,
      twice: fc.boolean(),
      badSegment: fc.option(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 30 }),
          fc.constantFrom('%', '%ZZ', '%C3%28', '..', 'a'.repeat(300)),
        ),
        { nil: null },
      ),
    });
  },
  // The limit's edges and bad forms, a parameter given twice, one misspelt, and path segments
  // that are dots or broken escapes.
  examples: () => [
    ...['0', '-1', '1.5', '1e3', '', '9'.repeat(400)].map((value) => ({
      op: operationById('listFirms'),
      pick: 0,
      param: 'limit',
      value,
      twice: false,
      badSegment: null,
    })),
    { op: operationById('listFirms'), pick: 0, param: 'limit', value: '2', twice: true, badSegment: null },
    // The declared bounds: the limit at its maximum is capped, one past it refused, and a since one
    // character longer than its maxLength refused.
    ...[declared('Limit').maximum!, declared('Limit').maximum! + 1].map((limit) => ({
      op: operationById('listFirms'),
      pick: 0,
      param: 'limit',
      value: String(limit),
      twice: false,
      badSegment: null,
    })),
    {
      op: operationById('listChanges'),
      pick: 0,
      param: 'since',
      value: `2026-11-01T00:00:00.${'0'.repeat(declared('Since').maxLength! - 20)}Z`,
      twice: false,
      badSegment: null,
    },
    { op: operationById('listRounds'), pick: 0, param: 'limt', value: '5', twice: false, badSegment: null },
    { op: operationById('listChanges'), pick: 0, param: 'include', value: 'row', twice: false, badSegment: null },
    { op: operationById('getFirm'), pick: 0, param: 'limit', value: '1', twice: false, badSegment: '..' },
    { op: operationById('getFirm'), pick: 0, param: 'limit', value: '1', twice: false, badSegment: '%ZZ' },
    // A URL over 8,192 characters (RFC 9110's recommended least) is a 414 on every operation.
    {
      op: operationById('listFirms'),
      pick: 0,
      param: 'note',
      value: 'x'.repeat(8_300),
      twice: false,
      badSegment: null,
    },
  ],
  async check(ctx, { op, pick, param, value, twice, badSegment }) {
    let path = fillPath(op.path, ctx.samples, pick);
    if (!path) return;
    if (badSegment !== null && op.path.includes('{')) {
      const segments = path.split('/');
      const at = op.path.split('/').findIndex((s: string) => s.startsWith('{'));
      segments[at] = /%/.test(badSegment) ? badSegment : encodeURIComponent(badSegment);
      path = segments.join('/');
    }
    const query = new URLSearchParams();
    if (op.query.includes('since') && param !== 'since') query.set('since', isoSecond(Date.parse(ctx.asOf) - DAY));
    query.append(param, value);
    if (twice) query.append(param, value);
    const url = `${path}?${query}`;
    const answer = await ctx.client.call(url, { rows: op.query.includes('limit') ? Math.min(cap(ctx), 100) : 1 });
    // Judged by the path as sent: URL parsing drops `.` and `..` segments (`/firms/..` is a
    // request for `/api/v1`), so the operation is the one the sent path routes to, if any.
    const sent = new URL(url, 'http://judge.invalid').pathname;
    const target = operationFor('GET', sent);
    const rejected =
      target === null ||
      ctx.validator
        .validateRequest(target.operationId, {
          method: 'GET',
          path: sent,
          query: queryOf(query),
          headers: { authorization: 'Bearer x' },
        })
        .some((v) => v.severity === 'error');
    assert(
      answer.status < 500,
      cutBody(url, 200),
      'no server error (a 4xx problem, or an answer)',
      answerShown(answer),
    );
    const served = planServes(ctx, op);
    if (url.length > 8_192) {
      expectStatus(answer, 414, `a URL of ${url.length} characters`);
      assert(
        answer.body?.code === 'uri_too_long',
        `a URL of ${url.length} characters`,
        'code uri_too_long',
        codeShown(answer.body),
      );
      return;
    }
    // What DECISIONS.md refuses though the contract's schemas let it through: a parameter the
    // operation does not define, and any parameter given empty or twice.
    const plain = badSegment === null && target?.operationId === op.operationId && served;
    if (plain && !op.query.includes(param))
      expectStatus(
        answer,
        400,
        `${cutBody(url, 200)}, where ${param} is no parameter of ${op.path} (a typo is refused, not ignored)`,
      );
    if (plain && (twice || value === ''))
      expectStatus(answer, 400, `${cutBody(url, 200)}, ${param} given ${twice ? 'twice' : 'empty'}`);
    // A whole limit of 1 or more, up to the contract's maximum, is capped at the plan's page size: never refused.
    if (
      !rejected &&
      param === 'limit' &&
      /^[1-9]\d*$/.test(value) &&
      !twice &&
      badSegment === null &&
      op.query.includes('limit') &&
      target?.operationId === op.operationId &&
      served
    ) {
      expectStatus(
        answer,
        200,
        `${cutBody(url, 200)}, whose ` +
          `limit=${value.length > 12 ? `${value.slice(0, 12)}... (${value.length} digits)` : value} ` +
          `is capped at the plan's ${cap(ctx)} rows, not refused`,
      );
      assert(
        answer.body.data.length <= cap(ctx),
        cutBody(url, 200),
        `at most the plan's ${cap(ctx)} rows a page`,
        `${answer.body.data.length} rows`,
      );
    }
    // A 400 says which parameter is wrong (DECISIONS.md#problem-body).
    if (answer.status === 400) {
      const errors = answer.body?.errors;
      assert(
        Array.isArray(errors) &&
          errors.length > 0 &&
          errors.every(
            (e: any) =>
              (typeof e?.parameter === 'string' || typeof e?.pointer === 'string') && typeof e?.detail === 'string',
          ),
        `${cutBody(url, 200)}, answered 400`,
        'errors naming each parameter (or pointer) and what is wrong with it',
        errors === undefined ? 'no errors' : `errors ${valueShown(errors)}`,
      );
    }
    if (rejected) {
      assert(
        answer.status >= 400,
        `${cutBody(url, 200)}, which breaks the contract's parameter rules`,
        'a 4xx',
        answerShown(answer),
      );
      assert(
        (answer.headers.get('content-type') ?? '').includes('application/problem+json'),
        cutBody(url, 200),
        `a ${answer.status} of type application/problem+json`,
        `type ${valueShown(answer.headers.get('content-type') ?? undefined)}`,
      );
    }
  },
};
