/**
 * A timestamp parameter in the forms clients write it (DECISIONS.md#timestamps): Python's
 * isoformat() writes `+00:00`, other libraries a fraction or lowercase letters; each is the same
 * instant as its `Z` form and must get the same page. Another offset is refused.
 */
import fc from 'fast-check';
import { planRule } from '../core/context.ts';
import { valueShown } from '../shown/failure-text.ts';
import { type Property, DAY, assert, codeShown, expectStatus, isoSecond } from './support.ts';

/** The forms of an instant written with `Z` (`YYYY-MM-DDTHH:MM:SSZ`), and how each reads. */
const forms: Record<string, (z: string) => string> = {
  '+00:00': (z) => z.replace('Z', '+00:00'),
  '-00:00': (z) => z.replace('Z', '-00:00'),
  'lowercase t and z': (z) => z.replace('T', 't').replace('Z', 'z'),
  'a zero fraction': (z) => z.replace('Z', '.000Z'),
  'a fraction with +00:00': (z) => z.replace('Z', '.000000+00:00'),
};

/** A page of the feed: what must be alike for equal instants. */
const pageOf = (answer: { body: any; headers: Headers }) => ({
  sequences: Array.isArray(answer.body?.data)
    ? answer.body.data.map((item: { sequence?: unknown }) => item?.sequence)
    : null,
  more: answer.body?.next_cursor != null,
});

export const timestamps: Property = {
  id: 'timestamps',
  title:
    'a timestamp is read in any RFC 3339 form of a UTC instant, the same page as its Z form, ' +
    'and another offset is a 400',
  spec: ['6. Events'],
  assumed: ['timestamps'],
  skip: (ctx) => (planRule(ctx).changes_feed ? null : `the ${ctx.config.plan} plan has no changes feed`),
  cost: (ctx) => ({ calls: 5, rows: 4 * ctx.client.rowCost(5) }),
  arbitrary: () =>
    fc.record({
      daysBack: fc.integer({ min: 0, max: 30 }),
      form: fc.constantFrom(...Object.keys(forms)),
      fraction: fc.integer({ min: 1, max: 999 }),
    }),
  // The form the issue met first: Python's.
  examples: () => [{ daysBack: 7, form: '+00:00', fraction: 500 }],
  async check(ctx, { daysBack, form, fraction }) {
    const z = isoSecond(Date.parse(ctx.asOf) - daysBack * DAY);
    const feed = (since: string) =>
      ctx.client.call(`/api/v1/changes?since=${encodeURIComponent(since)}&limit=5`, { rows: 5 });
    const base = await feed(z);
    expectStatus(base, 200, `the changes feed since=${z}`);

    const written = forms[form]!(z);
    const same = await feed(written);
    expectStatus(same, 200, `the changes feed since=${written} (${form}, the instant ${z})`);
    assert(
      JSON.stringify(pageOf(same)) === JSON.stringify(pageOf(base)),
      `the changes feed since=${written}`,
      `the page of since=${z}, ${valueShown(pageOf(base))}`,
      valueShown(pageOf(same)),
    );

    // Changes are stamped to the second: an instant inside a second lists what the next second lists.
    const inside = z.replace('Z', `.${String(fraction).padStart(3, '0')}Z`);
    const next = isoSecond(Date.parse(z) + 1000);
    const [within, after] = [await feed(inside), await feed(next)];
    expectStatus(within, 200, `the changes feed since=${inside}`);
    assert(
      JSON.stringify(pageOf(within)) === JSON.stringify(pageOf(after)),
      `the changes feed since=${inside}`,
      `the page of since=${next}, ${valueShown(pageOf(after))}`,
      valueShown(pageOf(within)),
    );

    const elsewhere = z.replace('Z', '+02:00');
    const refused = await feed(elsewhere);
    expectStatus(refused, 400, `the changes feed since=${elsewhere} (not UTC)`);
    assert(
      refused.body?.code === 'invalid_parameter',
      `the changes feed since=${elsewhere}`,
      'code "invalid_parameter"',
      codeShown(refused.body),
    );
  },
};
