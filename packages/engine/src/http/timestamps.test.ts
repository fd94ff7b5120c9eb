import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { openapiDocument, operations } from '@investor-graph/contract/document';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createEngine } from '../engine.ts';
import { instantParametersOf, readUtcInstant } from './timestamps.ts';

const validator = await createContractValidator();
const dataset = collectDataset({ seed: 'timestamps', scale: 300, asOf: defaultDataset.asOf });
const key = 'igk_team_timestamps0000000000000000000000';

async function setup() {
  const engine = createEngine({
    dataset: structuredClone(dataset),
    validator,
    now: Date.parse(defaultDataset.asOf),
    frozen: true,
    keys: [{ plan: 'team', key }],
    rateLimit: false,
  });
  await engine.ready;
  /** One page of the feed: status, ETag and the envelope's data and next_cursor. */
  const feed = async (since: string, extra = '') => {
    const answer = await engine.fetch(
      new Request(`http://mock/api/v1/changes?since=${encodeURIComponent(since)}&limit=5${extra}`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    const body = (await answer.json()) as {
      data?: { sequence: number; changed_at: string }[];
      next_cursor?: string | null;
      code?: string;
      detail?: string;
      errors?: { parameter: string; detail: string }[];
    };
    return { status: answer.status, etag: answer.headers.get('etag'), body };
  };
  /** What a page is, leaving out what changes every call (usage). */
  const page = async (since: string, extra = '') => {
    const { status, etag, body } = await feed(since, extra);
    return { status, etag, data: body.data, next_cursor: body.next_cursor };
  };
  return { feed, page };
}

// A change's own time, so that the window starts at a change and a fraction past it shows.
const at = dataset.changes[Math.floor(dataset.changes.length / 2)]!.changed_at;
const forms = (z: string) => [
  z.toLowerCase(),
  z.replace('Z', '+00:00'),
  z.replace('Z', '-00:00'),
  z.replace('T', 't'),
  z.replace('Z', '.000Z'),
  z.replace('Z', '.000000000+00:00'),
];

test('every RFC 3339 form of a UTC instant gives the same page as Z: the same rows, next_cursor and ETag', async () => {
  const { page } = await setup();
  const withZ = await page(at);
  expect(withZ.status).toBe(200);
  expect(withZ.data![0]!.changed_at).toBe(at);
  expect(withZ.next_cursor).toEqual(expect.any(String));
  for (const since of forms(at)) expect(await page(since), since).toEqual(withZ);
});

test('a cursor issued for one form of the instant pages on with another, as it is the same query', async () => {
  const { page } = await setup();
  const first = await page(at);
  const cursor = `&cursor=${encodeURIComponent(first.next_cursor!)}`;
  const next = await page(at, cursor);
  expect(next.status).toBe(200);
  expect(next.data![0]!.sequence).toBeGreaterThan(first.data!.at(-1)!.sequence);
  for (const since of forms(at)) expect(await page(since, cursor), since).toEqual(next);
});

test(
  'a fraction of any length is compared exactly: a change at the ' +
    "whole second is left out, and the page is the next second's",
  async () => {
    const { page } = await setup();
    const nextSecond = new Date(Date.parse(at) + 1000).toISOString().replace('.000Z', 'Z');
    const later = await page(nextSecond);
    for (const fraction of ['.5', '.001', '.0000000001', '.999999999999']) {
      const since = at.replace('Z', `${fraction}Z`);
      const answer = await page(since);
      expect(
        answer.data!.every((c) => c.changed_at !== at),
        since,
      ).toBe(true);
      expect(answer, since).toEqual(later);
    }
  },
);

test(
  'an instant at another offset (+02:00) is a 400 ' + 'invalid_parameter naming since, saying to give it in UTC',
  async () => {
    const { feed } = await setup();
    const answer = await feed('2026-11-01T02:00:00+02:00');
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_parameter');
    expect(answer.body.detail).toBe(
      'since is at the offset +02:00, not in UTC; give the instant in UTC, e.g. 2026-11-01T00:00:00Z or ' +
        '2026-11-01T00:00:00+00:00.',
    );
    expect(answer.body.errors).toEqual([
      { parameter: 'since', detail: expect.stringContaining('give the instant in UTC') },
    ]);
    expect((await feed('2026-11-01T00:00:00-05:30')).body.code).toBe('invalid_parameter');
  },
);

test(
  'a time that does not exist or is not RFC 3339 is a ' + '400 invalid_parameter, never a page of another day',
  async () => {
    const { feed } = await setup();
    for (const since of [
      '2026-02-29T00:00:00Z',
      '2026-11-01T24:00:00Z',
      '2026-11-01T00:00:61Z',
      '2026-11-01T00:00:00+24:00',
      '2026-11-01 00:00:00Z',
      '2026-11-01T00:00Z',
      '2026-11-01T00:00:00.Z',
      '2026-11-01T00:00:00',
    ]) {
      const answer = await feed(since);
      expect(answer.status, since).toBe(400);
      expect(answer.body.errors?.[0]?.parameter, since).toBe('since');
    }
  },
);

test(
  'readUtcInstant writes the instant as changes are stamped: a leap second ' +
    'and a fraction round up to the next whole second, across days and years',
  () => {
    expect(readUtcInstant('2024-02-29t12:00:00z')).toEqual({ instant: '2024-02-29T12:00:00Z' });
    expect(readUtcInstant('2016-12-31T23:59:60Z')).toEqual({ instant: '2017-01-01T00:00:00Z' });
    expect(readUtcInstant('2026-12-31T23:59:59.0001-00:00')).toEqual({ instant: '2027-01-01T00:00:00Z' });
    expect(readUtcInstant('0001-03-01T00:00:00Z')).toEqual({ instant: '0001-03-01T00:00:00Z' });
    expect(readUtcInstant('9999-12-31T23:59:59.5Z')).toEqual({ instant: '9999-12-31T24:00:00Z' });
    expect(readUtcInstant('2026-11-01T23:59:60Z')).toEqual({ instant: '2026-11-02T00:00:00Z' });
    expect(readUtcInstant('2026-11-01T12:59:60Z')).toHaveProperty('problem');
  },
);

test(
  'the timestamp parameters are the query parameters the contract gives format ' +
    'date-time (since on the feed), and its pattern takes the forms read here',
  () => {
    const withInstants = operations.filter((op) => instantParametersOf(op.operationId).length > 0);
    expect(withInstants.map((op) => [op.operationId, instantParametersOf(op.operationId)])).toEqual([
      ['listChanges', ['since']],
    ]);
    const since = (openapiDocument.components.parameters.Since as { schema: { pattern: string } }).schema;
    const pattern = new RegExp(since.pattern);
    for (const text of [
      ...forms(at),
      at,
      at.replace('Z', '.5Z'),
      at.replace('Z', '+02:00'),
      at.replace('Z', ''),
      `${at.slice(0, 10)}`,
    ]) {
      expect(pattern.test(text), text).toBe('instant' in readUtcInstant(text));
    }
  },
);

test('a + sent unencoded (a space once the query is read) is a 400 that says to send it as %2B', async () => {
  const { feed } = await setup();
  // feed() encodes what it is given: a space here is what `?since=...T00:00:00+00:00` becomes.
  const answer = await feed('2026-11-01T00:00:00 00:00');
  expect(answer.status).toBe(400);
  expect(answer.body.detail).toContain('send it as %2B');
  expect(readUtcInstant('2026-11-01T00:00:00 00:00')).toEqual({ problem: expect.stringContaining('%2B') });
  expect(readUtcInstant('2026-11-01 00:00:00Z')).toEqual({
    problem: expect.stringContaining('is not an RFC 3339 date-time'),
  });
});
