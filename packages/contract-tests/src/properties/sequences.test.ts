// @module-tag servers
/**
 * The sequences judged against the model: they hold on the unbroken mock, fail on a broken one with
 * the shortest sequence that shows it, and the replay line replays that sequence.
 */
import { expect, test } from 'vitest';
import { newKeyText, type FaultName } from '@investor-graph/mock';
import { startMock } from '@investor-graph/mock/node';
import { prepare, type SuiteConfig, type SuiteContext } from '../core/context.ts';
import { runProperty } from '../core/run.ts';
import { inputForms } from './input-forms.ts';
import { claimedForms, sequences } from './sequences.ts';
import { pagedOperations } from './next-pages.ts';

async function sequencesAgainst(
  faults: FaultName[],
  extra: Partial<SuiteConfig> = {},
  watch: (ctx: SuiteContext) => void = () => {},
) {
  const key = newKeyText('enterprise');
  const mock = await startMock({ port: 0, keys: [{ plan: 'enterprise', key }], faults });
  try {
    const ctx = await prepare({
      baseUrl: mock.url,
      key,
      plan: 'enterprise',
      budget: { calls: 400, rows: 50_000 },
      seed: 65,
      runs: 12,
      model: true,
      only: ['sequences'],
      ...extra,
    });
    watch(ctx);
    return { result: await runProperty(ctx, sequences), model: ctx.model };
  } finally {
    await mock.close();
  }
}

test('every form of input a claim of the matrix names is one the sequences can send, and every form is named', () => {
  expect(claimedForms().map((f) => f.id)).toEqual(expect.arrayContaining(inputForms.map((f) => f.id)));
  expect(claimedForms()).toHaveLength(inputForms.length);
});

test('sequences of calls in every form hold against the unbroken mock, judged on its dump', async () => {
  const { result, model } = await sequencesAgainst([]);
  expect(model).toMatch(/dump of/);
  expect(result.failure?.message).toBeUndefined();
  expect(result.status).toBe('passed');
  expect(result.runs).toBeGreaterThan(5);
});

test(`the walk asks the next page of a page of each paged operation, and the model its own next page of the same \
query: the mock's pages are the model's, row by row`, async () => {
  const followed = new Set<string>();
  const { result } = await sequencesAgainst([], {}, (ctx) => {
    const model = ctx.client.model!;
    const judge = model.judge.bind(model);
    model.judge = (judged, sent, ...rest) => {
      if (model.follows!(sent.path) === 'own') followed.add(judged.operationId!);
      return judge(judged, sent, ...rest);
    };
  });
  expect(result.failure?.message).toBeUndefined();
  expect(result.cases.boundary).toBe(pagedOperations.length);
  // Each paged operation whose first page of one row has a next one on the mock's data: not a firm's
  // filings or funds (the samples' firms have none), nor the feed or the dumps (the model holds no history).
  const walked = pagedOperations.map((op) => op.operationId);
  const lacking = ['listFirmFilings', 'listFirmFunds', 'listChanges', 'getExportManifest'];
  expect([...followed].sort()).toEqual(expect.arrayContaining(walked.filter((id) => !lacking.includes(id))));
});

test('another method answered 404 fails, shrunk to the one call showing it, and so does its replay', async () => {
  // A seed whose generated sequences send DELETE (the walk's boundary cases come first and hold).
  const { result } = await sequencesAgainst(['delete-not-405'], { seed: 6 });
  expect(result.status).toBe('failed');
  expect(result.failure!.message).toMatch(/status: the service answered 404, the model 405 \(status-codes\.\d+: "405/);
  // Shrunk: one call, a method the API does not take.
  const calls = JSON.parse(result.failure!.counterexample.replace(/ \/\*replayPath=.*?\*\//, '')) as string[];
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatch(/^(DELETE|POST|PUT|PATCH) \/api\/v1\//);
  const replayPath = /--replay-path '([^']+)'/.exec(result.failure!.replay)?.[1];
  expect(replayPath).toBeDefined();
  const again = await sequencesAgainst(['delete-not-405'], {
    seed: 6,
    path: result.failure!.path!,
    replayPath: replayPath!,
  });
  expect(again.result.status).toBe('failed');
  expect(again.result.failure!.counterexample).toBe(result.failure!.counterexample);
});
