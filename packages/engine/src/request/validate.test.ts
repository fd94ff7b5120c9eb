import { expect, test } from 'vitest';
import { createContractValidator, openapiDocument, plans } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createEngine } from '../engine.ts';

const validator = await createContractValidator();
const dataset = collectDataset({ seed: 'validate', scale: 300, asOf: defaultDataset.asOf });
const key = 'igk_team_validate_bounds_key_00000000';

/** The bounds the contract declares on a parameter, read from it: the tests follow the contract. */
const schemaOf = (parameter: string) =>
  (openapiDocument.components.parameters[parameter] as { schema: { maximum?: number; maxLength?: number } }).schema;

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
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await engine.fetch(
      new Request(`http://mock${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } }),
    );
    return {
      status: answer.status,
      type: answer.headers.get('content-type'),
      body: (await answer.json()) as {
        code?: string;
        data?: unknown[];
        errors?: { parameter: string; detail: string }[];
      },
    };
  };
  return { get };
}

test(
  'an integer over its declared maximum is a 400 invalid_parameter ' +
    "naming it; the maximum itself is capped at the plan's page",
  async () => {
    const { get } = await setup();
    const maximum = schemaOf('Limit').maximum!;
    expect(maximum).toBe(2_147_483_647);
    const atMaximum = await get(`/api/v1/investments?limit=${maximum}`);
    expect(atMaximum.status).toBe(200);
    expect(atMaximum.body.data).toEqual((await get(`/api/v1/investments?limit=${plans.team.rows_per_page}`)).body.data);
    for (const over of [String(maximum + 1), '9'.repeat(400)]) {
      const answer = await get(`/api/v1/investments?limit=${over}`);
      expect(answer.status, `limit of ${over.length} digits`).toBe(400);
      expect(answer.type).toContain('application/problem+json');
      expect(answer.body.code).toBe('invalid_parameter');
      expect(new Set(answer.body.errors!.map((e) => e.parameter))).toEqual(new Set(['limit']));
    }
  },
);

test(
  'a query string over its declared maxLength is a 400 ' + 'invalid_parameter naming it; one at the length is served',
  async () => {
    const { get } = await setup();
    const maxLength = schemaOf('Since').maxLength!;
    // A UTC instant whose fraction fills the parameter to its bound, and then one digit more.
    const since = (length: number) => `2026-11-01T00:00:00.${'0'.repeat(length - 21)}Z`;
    expect(since(maxLength)).toHaveLength(maxLength);
    expect((await get(`/api/v1/changes?since=${since(maxLength)}&limit=1`)).status).toBe(200);
    const over = await get(`/api/v1/changes?since=${since(maxLength + 1)}&limit=1`);
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('invalid_parameter');
    expect(over.body.errors!.map((e) => e.parameter)).toEqual(['since']);
    expect(over.body.errors![0]!.detail).toMatch(/must NOT have more than 64 characters/);
  },
);

test('a header over its declared maxLength (If-None-Match) is a 400 invalid_parameter naming it', async () => {
  const { get } = await setup();
  const maxLength = schemaOf('IfNoneMatch').maxLength!;
  const tags = (length: number) => `W/"${'a'.repeat(length - 4)}"`;
  expect((await get('/api/v1/firms?limit=1', { 'if-none-match': tags(maxLength) })).status).toBe(200);
  const over = await get('/api/v1/firms?limit=1', { 'if-none-match': tags(maxLength + 1) });
  expect(over.status).toBe(400);
  expect(over.body.code).toBe('invalid_parameter');
  expect(over.body.errors!.map((e) => e.parameter.toLowerCase())).toEqual(['if-none-match']);
});
