/**
 * What every property works with: the configuration, the budgeted client, and a few real records
 * found at the start (slugs, ids, a cursor) to build valid requests from.
 */
import {
  createContractValidator,
  isPlanId,
  operations,
  parameterEnum,
  plans,
  type ContractValidator,
  type OperationInfo,
  type PlanId,
} from '@investor-graph/contract';
import { ApiClient, Ledger, type Budget } from '../client/client.ts';
import type { RunPlan } from './plan-types.ts';
import { cutBody } from '../shown/cut-body.ts';
import { expectedGot, hideKey, valueShown, withoutKeys } from '../shown/failure-text.ts';
import { answerModel, buildRunModel } from '../model/run-model.ts';

export interface SuiteConfig {
  baseUrl: string;
  /** The key to test with. Without it, `email` gets a trial key (the plan must then be trial). */
  key?: string;
  email?: string;
  plan: PlanId;
  budget: Budget;
  /** Why the budget is what it is, as the plan line says it (the plan's default from its quota: budgets.ts). */
  budgetWhy?: string;
  seed: number;
  /** Generated cases per property, at most (the budget may allow fewer). */
  runs: number;
  /** Allow the rate property: a short burst above the plan's rate. */
  allowRate?: boolean;
  /**
   * Run the checks that do not depend on the key (admission, the served description, the trial
   * call, keys the control API makes): once a run, so with one key of several (the CLI's last). On unless false.
   */
  keylessChecks?: boolean;
  /**
   * Send admission's hundred and ten calls with keys that are not valid, which lock the run's
   * address out for ten seconds (and every client behind it): by default only when the service is
   * on this machine (loopback), true or false to say otherwise.
   */
  failedAuthBurst?: boolean;
  /**
   * Drive the kit's mock through its control API: set the usage of a trial key the run makes
   * itself, and advance the simulated clock (which cannot go back). Off unless asked for, since a
   * developer's running mock is theirs.
   */
  useControl?: boolean;
  /** Allow spending a fresh trial's whole call quota to see it run out (only without control endpoints). */
  exhaustTrial?: boolean;
  /** Run only these properties (by id). */
  only?: string[];
  /** Replays one failure: fast-check's path, with `seed` and a single `only`. */
  path?: string;
  /** With `path`, the commands' own replay path of a shrunk sequence (fast-check's `replayPath`). */
  replayPath?: string;
  /** Where to write the JSON report. */
  reportFile?: string;
  /**
   * Judge every answer against a model of the service (model/): the kit's engine on the service's
   * data. On unless false.
   */
  model?: boolean;
  /** The service's data for the model where the key cannot read its dump: a dump or dataset folder. */
  dataDir?: string;
}

export interface Samples {
  firm: string[];
  company: string[];
  fund: string[];
  list: string[];
  statistic: string[];
}

export interface SuiteContext {
  config: SuiteConfig;
  client: ApiClient;
  ledger: Ledger;
  validator: ContractValidator;
  samples: Samples;
  /** The run may use the mock's control endpoints: asked for with useControl, and they answer. */
  control: boolean;
  /** The service's data time, from the first answer. */
  asOf: string;
  /** Where the model's data came from, or why it has none (model/), once built; null when the run has no model. */
  model: string | null;
  /** What the run planned before it spent anything (plan.ts), once the suite made it. */
  plan?: RunPlan;
  /**
   * What broke while the run got ready (a sample list that is not the envelope the contract
   * promises): every property then fails with it, and the report says it beside what the rules
   * found in the calls made. Never a crash without a report.
   */
  setupError?: string;
}

/** The operations a data key can call with GET, with what their paths need. */
export const dataOperations: readonly OperationInfo[] = operations.filter(
  (o) => o.method === 'GET' && o.security && o.operationId !== 'getExportFile',
);
export const listOperations = dataOperations.filter((o) => o.query.includes('limit'));

/** Fills a path template from the samples; `pick` chooses which sample. */
export function fillPath(template: string, samples: Samples, pick: number): string | null {
  const choose = (from: string[]): string | null => (from.length ? from[pick % from.length]! : null);
  let missing = false;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const kind =
      name === 'name'
        ? 'statistic'
        : name === 'id'
          ? 'fund'
          : template.startsWith('/api/v1/firms')
            ? 'firm'
            : template.startsWith('/api/v1/companies')
              ? 'company'
              : template.startsWith('/api/v1/lists')
                ? 'list'
                : null;
    const value = kind ? choose(samples[kind]) : null;
    if (value === null) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? null : path;
}

/** Gets a trial key when only an e-mail is given: the spec's one unauthenticated call. */
async function trialKey(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/keys/trial`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = (await response.json().catch(() => null)) as { key?: string } | null;
  if (response.status !== 201 || typeof body?.key !== 'string') {
    // A refusal that still carries a key (a 200, a 202) would print it: the run never made it one of its own to hide.
    const shown = typeof body?.key === 'string' ? { ...body, key: `<a key of ${body.key.length} characters>` } : body;
    throw new Error(
      `[contract-tests] no trial key for ${email}: ` +
        `${expectedGot('POST /api/v1/keys/trial', '201 with a key', `${response.status} ${valueShown(shown, 300)}`)}`,
    );
  }
  return body.key;
}

export async function prepare(config: SuiteConfig): Promise<SuiteContext> {
  if (!config.key && !config.email)
    throw new Error('[contract-tests] give a key, or an e-mail to get a trial key with');
  if (!isPlanId(config.plan)) throw new Error(`[contract-tests] unknown plan ${String(config.plan)}`);
  if (!config.key && config.plan !== 'trial')
    throw new Error('[contract-tests] an e-mail gets a trial key: say --plan trial, or give a key of the plan');
  const validator = await createContractValidator();
  const ledger = new Ledger();
  const key = config.key ?? (await trialKey(config.baseUrl, config.email!));
  if (!config.key) ledger.spend(1, 0);
  hideKey(key);
  const client = new ApiClient({
    baseUrl: config.baseUrl,
    key,
    plan: config.plan,
    budget: config.budget,
    validator,
    ledger,
  });
  const control = config.useControl
    ? await fetch(`${config.baseUrl}/__control/state`).then(
        (r) => r.status === 200,
        () => false,
      )
    : false;
  if (config.useControl && !control)
    throw new Error(
      `[contract-tests] useControl: ${config.baseUrl} has no control API (only the kit's mock ` +
        `has one, to loopback clients)`,
    );

  // A handful of real records: every sample costs budget, so a few of each is all.
  const samples: Samples = {
    firm: [],
    company: [],
    fund: [],
    list: [],
    statistic: parameterEnum('getStatistic', 'name'),
  };
  const ctx: SuiteContext = { config, client, ledger, validator, samples, control, asOf: '', model: null };
  for (const [kind, path, field] of [
    ['firm', '/api/v1/firms?limit=5', 'slug'],
    ['company', '/api/v1/companies?limit=5', 'slug'],
    ['fund', '/api/v1/funds?limit=3', 'id'],
    ['list', '/api/v1/lists?limit=3', 'slug'],
  ] as const) {
    const answer = await client.call(path, { rows: 5 });
    const broken = sampleProblem(answer);
    if (broken) {
      // The body shown may echo the request (a gateway's debug page): expectedGot blanks the key.
      const wanted = 'a 200 JSON envelope of records (data and as_of), which every property takes its samples from';
      ctx.setupError = `[contract-tests] the run could not get ready: ${expectedGot(`GET ${path}`, wanted, broken)}`;
      return ctx;
    }
    // sampleProblem found no fault with it: a 200 JSON envelope of records.
    const envelope = answer.body as { data: Record<string, unknown>[]; as_of: string };
    samples[kind] = envelope.data.map((r) => r[field]).filter((v): v is string => typeof v === 'string' && v !== '');
    ctx.asOf ||= envelope.as_of;
  }
  if (config.model !== false) {
    // The model is the run's judge, never its set-up's failure: a service it cannot be built on runs without it.
    const model = await buildRunModel({ ...ctx, key }).catch((error: unknown) =>
      withoutKeys(`the model could not be built: ${error instanceof Error ? error.message : String(error)}`),
    );
    if (typeof model === 'string') ctx.model = `none: ${model}`;
    else {
      client.model = answerModel(model);
      ctx.model = model.source;
    }
  }
  return ctx;
}

/** What a sample list answered, when the run cannot use it; else null. */
function sampleProblem(answer: { status: number; headers: Headers; body: unknown; text: string }): string | null {
  const type = answer.headers.get('content-type') ?? 'no content type';
  const shown = `${answer.status} (${type}): ${cutBody(withoutKeys(answer.text), 200)}`;
  if (answer.status !== 200) return shown;
  const body = answer.body as { data?: unknown; as_of?: unknown } | null;
  if (body === null || typeof body !== 'object' || !Array.isArray(body.data) || typeof body.as_of !== 'string')
    return `${shown}, no JSON envelope with a data array and as_of`;
  if (!body.data.every((row) => row !== null && typeof row === 'object'))
    return `${shown}, whose data holds something other than records`;
  return null;
}

export function planRule(ctx: SuiteContext) {
  return plans[ctx.config.plan];
}
