/**
 * The model a run builds once it is ready (issue #65): on the service's dump where the key may read
 * it, else on `--data DIR`, else on no data; the key as the service's first `/account` says it. Its
 * calls (the account, the dump, the feed to catch it up) are the set-up's, made before it judges.
 */
import { plans } from '@investor-graph/contract';
import type { SuiteContext } from '../core/context.ts';
import { dataFromExports, dataFromFolder, type ModelData } from './model-data.ts';
import { ServiceModel } from './model.ts';

export async function buildRunModel(ctx: SuiteContext, key: string): Promise<ServiceModel | string> {
  const { client, config } = ctx;
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
