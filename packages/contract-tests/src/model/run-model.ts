/**
 * The model a run builds once it is ready (issue #65): on the service's dump where the key may read
 * it, else on `--data DIR`, else on no data; the key as the service's first `/account` says it. Its
 * calls (the account, the dump, the feed to catch it up) are the set-up's, made before it judges.
 */
import { plans, type ContractValidator, type PlanId } from '@investor-graph/contract';
import type { AnswerModel, ApiClient, Budget } from '../client/client.ts';
import { dataFromExports, dataFromFolder, type ModelData } from './model-data.ts';
import type { MirroredCall } from './findings.ts';
import type { Judged } from '../judges/judges.ts';
import type { Ledger, SentCall } from '../client/client.ts';
import { ServiceModel } from './model.ts';

/** What the model is built from: the run's client and key, its plan, budget and `--data`, the service's as_of. */
export interface ModelRun {
  client: ApiClient;
  key: string;
  config: { plan: PlanId; budget: Budget; dataDir?: string | undefined };
  asOf: string;
  validator: ContractValidator;
}

/** The model as the client holds it: the judge of every answer, and the mirror of control calls. */
export const answerModel = (model: ServiceModel): AnswerModel => ({
  judge: (judged, sent, ledger, unpaced) => modelFindings(model, judged, sent, ledger, unpaced),
  mirrorControl: (method, path, body, answer) => model.mirrorControl(method, path, body, answer),
  follows: (path) => model.follows(path),
});

export async function buildRunModel(ctx: ModelRun): Promise<ServiceModel | string> {
  const { client, config, key } = ctx;
  const account = await client.call('/api/v1/account');
  if (account.status !== 200) return `the account answered ${account.status}: the model cannot take up the key`;
  let data: ModelData | null = null;
  let why = '';
  if (config.dataDir) data = await dataFromFolder(config.dataDir);
  else if (plans[config.plan].exports) {
    // A tenth of the budget at most: the model judges, the properties spend.
    const spare = { calls: Math.floor(config.budget.calls / 10), rows: Math.floor(config.budget.rows / 10) };
    const got = await dataFromExports(client, ctx.asOf, spare);
    if (typeof got === 'string') why = got;
    else data = got;
  }
  const model = await ServiceModel.build(
    data,
    { key, plan: config.plan, asOf: ctx.asOf, account: account.body },
    ctx.validator,
  );
  if (why) model.noDataBecause(why);
  return model;
}

/**
 * The model's findings of one call made through the client (client.ts), into its ledger: a warning
 * there, a finding of rule `model` among the answer's.
 */
export async function modelFindings(
  model: ServiceModel,
  judged: Judged,
  sent: SentCall,
  ledger: Ledger,
  unpaced?: boolean,
): Promise<{ rule: 'model'; message: string }[]> {
  // A burst sent at once to meet a limit is about time, which the model would only slow: not made of it.
  if (unpaced) {
    if (judged.own && sent.key) model.unjudged(sent.key);
    return [];
  }
  ledger.modelJudged += 1;
  const { method, operationId, own, overlapped, status } = judged;
  const call: MirroredCall = {
    ...sent,
    ...{ method, operationId, own, overlapped, status },
    responseHeaders: judged.headers,
    responseBody: sent.whole ? judged.body : undefined,
  };
  const out: { rule: 'model'; message: string }[] = [];
  for (const found of await model.judge(call))
    if (found.warning) ledger.modelWarnings.push(found.message);
    else out.push({ rule: 'model', message: found.message });
  return out;
}
