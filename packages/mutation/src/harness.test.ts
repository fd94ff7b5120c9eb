// @module-tag servers
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import type { PlanId } from '@investor-graph/contract';
import { runSeed, type SeedRun } from './cli-run.ts';
import { families, mutatorFor, type MutantSpec } from './operators.ts';
import { startPair } from './pair.ts';
import { sampleAnswers, type Sample } from './sample.ts';
import { classify } from './score.ts';
import { enumerateMutants, pickMutants } from './sites.ts';

const keys = Object.fromEntries(
  (['trial', 'team', 'business', 'enterprise', 'payg'] as const).map((p) => [
    p,
    `igk_${p}_${'harnesstest'.padEnd(32, '0')}`,
  ]),
) as Record<PlanId, string>;
const fake = [process.execPath, fileURLToPath(new URL('./fake-contract-tests.test-support.ts', import.meta.url))];
const mutant = (m: Omit<MutantSpec, 'id' | 'plan'>): MutantSpec => ({
  id: `${m.family}:${m.operator}:${m.operation}`,
  plan: 'enterprise',
  ...m,
});

let samples: Sample[] = [];
beforeAll(async () => {
  const pair = await startPair({ mutant: null, keys });
  samples = await sampleAnswers(
    pair.url,
    { enterprise: keys.enterprise },
    { enterprise: ['listFirms', 'getFirm'] },
  ).finally(() => pair.close());
});

test(`every mutant is enumerated from the sampled answers, and the same seed picks the same sample, stratified by \
family`, () => {
  const all = enumerateMutants(samples);
  expect(enumerateMutants([...samples].reverse()).map((m) => m.id)).toEqual(all.map((m) => m.id));
  expect(all.map((m) => m.id)).toContain('field-shape:drop:getFirm:data.updated_at::ok');
  expect(all.map((m) => m.id)).toContain('status:within-class:listFirms:429:400');
  expect(all.map((m) => m.id)).toContain('header:drop:listFirms:retry-after');
  expect(all.map((m) => m.id)).toContain('case:problem-code:listFirms:missing_key:invalid_key');
  expect(all.map((m) => m.id)).toContain('meaning:enum-other:getFirm:data.kind');
  expect(all.map((m) => m.id)).toContain('source:swap-field:listFirms:data[].name');
  expect(all.map((m) => m.id)).toContain('sequence:page-overlap:listFirms');
  const a = pickMutants(all, 24, 7);
  expect(pickMutants(all, 24, 7)).toEqual(a);
  expect(pickMutants(all, 24, 8).map((m) => m.id)).not.toEqual(a.map((m) => m.id));
  expect(new Set(a.map((m) => m.family)).size).toBe(families.length);
  expect(new Set(a.map((m) => m.id)).size).toBe(24);
  // A site missing from one run (a burst that met no 429 on a loaded machine) moves no other mutant.
  const absent = all.find((m) => !a.includes(m))!;
  expect(
    pickMutants(
      all.filter((m) => m !== absent),
      24,
      7,
    ),
  ).toEqual(a);
});

test('a mutant the contract would allow is flagged a candidate equivalent, saying why; one it forbids is not', () => {
  const all = enumerateMutants(samples);
  const byId = (id: string) => all.find((m) => m.id === id);
  expect(byId('field-shape:null:getFirm:data.hq_city::ok')?.equivalent).toMatch(/null/);
  expect(byId('field-shape:drop:getFirm:data.updated_at::ok')?.equivalent).toBeUndefined();
  expect(byId('field-value:upper-case:getFirm:data.name::ok')?.equivalent).toMatch(/any text/);
  expect(byId('field-value:upper-case:getFirm:data.slug::ok')?.equivalent).toBeUndefined();
});

test(`each operator changes what it says it does on a real answer, and nothing when its answer is not \
there`, async () => {
  const pair = await startPair({ mutant: null, keys });
  try {
    const response = await fetch(`${pair.url}/api/v1/firms?limit=3`, {
      headers: { authorization: `Bearer ${keys.enterprise}` },
    });
    const answer = {
      status: 200,
      reason: 'OK',
      headers: [...response.headers].map(([n, v]) => [n, v] as [string, string]),
      body: Buffer.from(await response.text()),
    };
    const exchange = {
      method: 'GET',
      target: '/api/v1/firms?limit=3',
      operation: 'listFirms',
      requestHeaders: [] as [string, string][],
    };
    const original = JSON.parse(answer.body.toString());
    const apply = (m: Omit<MutantSpec, 'id' | 'plan'>) => mutatorFor(mutant(m))(answer, exchange);
    const body = (m: Omit<MutantSpec, 'id' | 'plan'>) => JSON.parse(apply(m)!.body.toString());
    expect(
      body({ family: 'rows', operator: 'swap', operation: 'listFirms', target: ['data'] }).data.map(
        (r: { slug: string }) => r.slug,
      ),
    ).toEqual([original.data[1].slug, original.data[0].slug, original.data[2].slug]);
    expect(
      body({ family: 'field-value', operator: 'day-later', operation: 'listFirms', target: ['as_of'], answers: 'ok' })
        .as_of,
    ).toBe('2026-11-21T03:00:00Z');
    expect(
      body({
        family: 'field-value',
        operator: 'plus-one',
        operation: 'listFirms',
        target: ['usage', 'calls_used'],
        answers: 'ok',
      }).usage.calls_used,
    ).toBe(original.usage.calls_used + 1);
    expect(body({ family: 'cursor', operator: 'end-early', operation: 'listFirms' }).next_cursor).toBeNull();
    expect(body({ family: 'plan', operator: 'plan-object', operation: 'listFirms', value: 'team' }).plan).toMatchObject(
      { id: 'team', rows_per_page: 500, rate_per_second: 5 },
    );
    expect(
      apply({ family: 'header', operator: 'alter', operation: 'listFirms', target: 'cache-control' })!.headers,
    ).toContainEqual(['cache-control', 'public, max-age=60']);
    expect(
      apply({ family: 'rows', operator: 'swap', operation: 'getFirm', target: ['data'] }),
      'another operation',
    ).toBeNull();
    expect(
      apply({ family: 'field-shape', operator: 'drop', operation: 'listFirms', target: ['nothing'], answers: 'ok' }),
      'no such field',
    ).toBeNull();
  } finally {
    await pair.close();
  }
});

test(`a mutant the command catches is counted killed, one it does not survived, one it never meets not reached, and \
exit 3 a harness error`, async () => {
  const run = (m: MutantSpec, env: Record<string, string> = {}) => {
    Object.assign(process.env, env);
    return runSeed(m, 'enterprise', 1, { keys, command: fake }).finally(() => {
      for (const k of Object.keys(env)) delete process.env[k];
    });
  };
  const dropRow = mutant({ family: 'rows', operator: 'drop-first', operation: 'listFirms', target: ['data'] });
  const killed = await run(dropRow);
  expect(killed).toMatchObject({ exit: 1, changed: 1, changedByOperation: { listFirms: 1 } });
  expect(classify(dropRow, [killed]).outcome).toBe('killed');

  const asOf = mutant({
    family: 'field-value',
    operator: 'day-earlier',
    operation: 'listFirms',
    target: ['as_of'],
    answers: 'ok',
  });
  const survived = await run(asOf);
  expect(survived).toMatchObject({ exit: 0, changed: 1 });
  expect(classify(asOf, [survived]).outcome).toBe('survived');
  expect(classify({ ...asOf, equivalent: 'why' }, [survived]).outcome).toBe('equivalent');

  const elsewhere = mutant({ family: 'rows', operator: 'drop-first', operation: 'listRounds', target: ['data'] });
  expect(classify(elsewhere, [await run(elsewhere)]).outcome).toBe('not-reached');

  const refused = await run(dropRow, { FAKE_EXIT: '3' });
  expect(classify(dropRow, [refused])).toMatchObject({ outcome: 'error', error: expect.stringMatching(/exit 3/) });
});

test(`a seed broken only by a check that leans on timing kills only if it breaks again; one broken by any other check \
kills at once`, () => {
  const m = mutant({ family: 'header', operator: 'drop', operation: 'listFirms', target: 'retry-after' });
  const seed = (over: Partial<SeedRun>): SeedRun => ({
    seed: 1,
    exit: 1,
    ms: 1,
    changed: 3,
    changedByOperation: { listFirms: 3 },
    broken: ['rate'],
    ...over,
  });
  expect(classify(m, [seed({ again: { exit: 1, broken: ['rate'] } })]).outcome).toBe('killed');
  expect(classify(m, [seed({ again: { exit: 0, broken: [] } })]).outcome).toBe('survived');
  expect(classify(m, [seed({ broken: ['pagination'] })]).outcome).toBe('killed');
  expect(classify(m, [seed({ changed: 0, again: { exit: 0, broken: [] } })]).outcome).toBe('not-reached');
  expect(classify(m, [seed({ changed: 0, broken: ['pagination'] })]).outcome).toBe('error');
  expect(classify(m, [seed({ broken: ['pagination'] }), seed({ seed: 2, exit: 0 })]).killedOn).toBe('some');
});
