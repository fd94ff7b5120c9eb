/**
 * What the contract-tests CLI is asked for: its usage and its flags, read and checked. A wrong
 * flag is one line pointing at --help, and exit 2 (readFlags of @investor-graph/cli).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isPlanId, planIds, type PlanId } from '@investor-graph/contract';
import { isKeyText, readFlags, whyUnwritable } from '@investor-graph/cli';
import { contractFileProblem } from '../diff/diff.ts';
import { properties } from '../properties.ts';
import { usage } from './usage.ts';

/** The prefix of the CLI's own lines, and the command its usage errors point at. */
export const command = 'investor-graph-contract-tests';

/** The run the flags ask for. */
export interface CliOptions {
  /** Without a trailing slash. */
  baseUrl: string;
  /** One key per plan; a key absent when --email gets a trial key. Empty with keysFromControl. */
  keys: { plan: PlanId; key?: string }[];
  /** --use-control with no key: the mock's control API makes a key of every plan. */
  keysFromControl: boolean;
  email?: string;
  /** Undefined: each key's plan's default (budgets.ts). */
  budgetCalls?: number;
  budgetRows?: number;
  failedAuthBurst: boolean;
  seed: number;
  runs: number;
  only?: string[];
  path?: string;
  /** With --path: a shrunk sequence's own replay path (fast-check's replayPath). */
  replayPath?: string;
  rateBurst: boolean;
  useControl: boolean;
  exhaustTrial: boolean;
  /** Start with the served contract against the kit's (or baseline), by oasdiff (diff.ts). */
  diff: boolean;
  /** Judge every answer against the model of the service (model/): unless --no-model. */
  model: boolean;
  /** The service's data for the model, where the key cannot read its dump. */
  data?: string;
  baseline?: string;
  junit: string;
  report: string;
  /** The HTML page of the run, when asked for. */
  html?: string;
  verbose: boolean;
  /** A key came on the command line (a warning says where that shows). */
  keyInArgs: boolean;
}

/** What is wrong with a --base-url (the run's and the diff's), or null: a URL, http or https. */
export function baseUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `--base-url is not a URL: ${text}`;
  }
  if (!['http:', 'https:'].includes(url.protocol)) return `--base-url must be http or https, got ${url.protocol}`;
  // Every path the kit calls starts /api/v1: a base URL that ends in it would be answered 404 everywhere.
  const root = url.pathname.replace(/\/api\/v1\/?$/, '');
  return root === url.pathname
    ? null
    : `--base-url ${text} ends in /api/v1, which the kit adds to every path: \
give ${url.origin}${root.replace(/\/$/, '')}`;
}

export function readCliOptions(args: string[]): CliOptions {
  const flags = readFlags(command, usage, args, {
    'base-url': { type: 'string' },
    key: { type: 'string', multiple: true },
    email: { type: 'string' },
    plan: { type: 'string' },
    'budget-calls': { type: 'string' },
    'budget-rows': { type: 'string' },
    'failed-auth-burst': { type: 'boolean' },
    seed: { type: 'string' },
    runs: { type: 'string', default: '25' },
    only: { type: 'string' },
    path: { type: 'string' },
    'replay-path': { type: 'string' },
    'allow-rate': { type: 'boolean' },
    'no-rate-burst': { type: 'boolean' },
    'use-control': { type: 'boolean' },
    'exhaust-trial': { type: 'boolean' },
    baseline: { type: 'string' },
    'no-diff': { type: 'boolean' },
    model: { type: 'boolean' },
    'no-model': { type: 'boolean' },
    data: { type: 'string' },
    junit: { type: 'string', default: 'contract-test-results/junit.xml' },
    report: { type: 'string', default: 'contract-test-results/report.json' },
    html: { type: 'string' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  const { values } = flags;
  // Annotated, so that TypeScript knows code after a call does not run.
  const fail: (message: string) => never = (message) => flags.fail(message);

  const whole = (name: string, text: string, min: number): number => {
    if (!/^\d+$/.test(text) || Number(text) < min)
      fail(`--${name} must be a whole number of at least ${min}, got ${text}`);
    return Number(text);
  };
  const baseUrl = values['base-url'];
  if (!baseUrl) fail('--base-url is required');
  const urlProblem = baseUrlProblem(baseUrl);
  if (urlProblem) fail(urlProblem);
  // The keys of the run: one per plan, from --key PLAN=KEY, INVESTOR_GRAPH_KEYS, or a plain key with --plan.
  // `s`: a key with a line break is still PLAN=KEY, to be refused below as a key, not as a plan.
  const planned = /^([a-z]+)=(.+)$/s;
  // INVESTOR_GRAPH_KEYS counts only when neither --key nor --plan says otherwise.
  const fromEnv =
    values.plan === undefined
      ? (process.env.INVESTOR_GRAPH_KEYS ?? '')
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean)
      : [];
  const given = values.key?.length ? values.key : fromEnv;
  const withPlans = given.filter((k) => planned.test(k) && isPlanId(planned.exec(k)![1]));
  // A misspelt plan (tema=...) would otherwise go out whole as a plain key.
  const misspelt = values.key?.map((k) => planned.exec(k)?.[1]).find((plan) => plan !== undefined && !isPlanId(plan));
  if (misspelt)
    fail(
      `--key ${misspelt}=...: ${misspelt} is no plan (${planIds.join(', ')}); a key of your ` +
        `own form goes in INVESTOR_GRAPH_KEY with --plan`,
    );
  const keys: CliOptions['keys'] = [];
  let keysFromControl = false;
  if (withPlans.length) {
    if (withPlans.length !== given.length) fail('give every --key as PLAN=KEY, or one plain --key with --plan');
    if (values.plan !== undefined) fail('--plan goes with a plain --key; with PLAN=KEY each key names its plan');
    for (const k of withPlans) {
      const [, plan, key] = planned.exec(k)! as unknown as [string, PlanId, string];
      if (keys.some((p) => p.plan === plan)) fail(`--key ${plan}= is given twice: one key per plan`);
      keys.push({ plan, key });
    }
  } else if (
    values['use-control'] &&
    given.length === 0 &&
    values.plan === undefined &&
    !process.env.INVESTOR_GRAPH_KEY &&
    !values.email
  ) {
    // Against the kit's mock with no key given: a key of every plan from its control API (cli.ts).
    keysFromControl = true;
  } else {
    if (!isPlanId(values.plan)) fail(`--plan must be one of ${planIds.join(', ')} (or give each key as PLAN=KEY)`);
    if (given.length > 1) fail('several keys are given as PLAN=KEY, one per plan');
    const key = given[0] ?? process.env.INVESTOR_GRAPH_KEY;
    if (!key && !values.email) fail('give --key (or INVESTOR_GRAPH_KEY) or --email');
    if (!key && values.plan !== 'trial')
      fail('--email gets a trial key: use --plan trial, or give the key of your plan');
    keys.push({ plan: values.plan, ...(key ? { key } : {}) });
  }
  // A key is printable ASCII. Anything else (a secret pasted with its line break) makes fetch throw
  // an error that quotes the whole header, key and all: refused here, without being shown.
  const source = values.key?.length ? '--key' : fromEnv.length ? 'INVESTOR_GRAPH_KEYS' : 'INVESTOR_GRAPH_KEY';
  const badKey = keys.find(({ key }) => key !== undefined && !isKeyText(key));
  if (badKey)
    fail(
      `${source}: the ${badKey.plan} key holds a character no key has (a space or a line break?); it is not shown here`,
    );
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const badOnly = only?.filter((id) => !properties.some((p) => p.id === id));
  if (badOnly?.length) fail(`--only: no property ${badOnly.join(', ')}`);
  if (values.path && (only?.length !== 1 || values.seed === undefined))
    fail('--path replays one case: give it with --seed and a single --only');
  if (values['replay-path'] !== undefined && !values.path)
    fail('--replay-path replays a shrunk sequence: give it with the --path, --seed and --only it was printed with');
  // At least two calls: the preflight spends one of the budget before the properties share the rest.
  const budgetCalls =
    values['budget-calls'] === undefined ? undefined : whole('budget-calls', values['budget-calls'], 2);
  const budgetRows = values['budget-rows'] === undefined ? undefined : whole('budget-rows', values['budget-rows'], 0);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : whole('seed', values.seed, 0);
  const runs = whole('runs', values.runs, 1);
  const suites = keysFromControl ? planIds.length : keys.length;
  if (budgetCalls !== undefined && budgetCalls < 2 * suites)
    fail(`--budget-calls must be at least ${2 * suites} for ${suites} keys (a preflight and a call each)`);
  const baseline = values.baseline;
  if (baseline !== undefined && values['no-diff'])
    fail('--baseline is what the diff compares with: leave out --no-diff, or --baseline');
  const baselineProblem = baseline === undefined ? null : contractFileProblem('baseline', baseline);
  if (baselineProblem) fail(baselineProblem);
  // Found out now, not after a run of minutes whose results then go nowhere.
  for (const flag of ['junit', 'report', 'html'] as const) {
    if (values[flag] === undefined) continue;
    const problem = whyUnwritable(resolve(values[flag]));
    if (problem) fail(`--${flag} ${values[flag]}: ${problem}`);
  }
  if (
    values.html !== undefined &&
    [values.junit, values.report].some((file) => resolve(file) === resolve(values.html!))
  )
    fail(`--html ${values.html} is the file of --junit or --report: give the page a name of its own`);

  if (values.data !== undefined && values['no-model'])
    fail("--data is the model's data: leave out --no-model, or --data");
  if (values.data !== undefined && !(existsSync(values.data) && statSync(values.data).isDirectory()))
    fail(`--data ${values.data} is no folder: give the folder of a dump or of investor-graph-dataset sync`);

  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    keys,
    keysFromControl,
    ...(values.email ? { email: values.email } : {}),
    ...(budgetCalls === undefined ? {} : { budgetCalls }),
    ...(budgetRows === undefined ? {} : { budgetRows }),
    failedAuthBurst: !!values['failed-auth-burst'],
    seed,
    runs,
    ...(only?.length ? { only } : {}),
    ...(values.path ? { path: values.path } : {}),
    ...(values['replay-path'] ? { replayPath: values['replay-path'] } : {}),
    // The burst is on by default: a run without it leaves the rate's rows unchecked.
    rateBurst: !values['no-rate-burst'] || !!values['allow-rate'],
    useControl: !!values['use-control'],
    exhaustTrial: !!values['exhaust-trial'],
    // A replay (--only, --path) is about the properties it names: the diff, which its run had, is left out.
    diff: !values['no-diff'] && !only?.length && !values.path,
    model: !values['no-model'],
    ...(values.data === undefined ? {} : { data: values.data }),
    ...(baseline !== undefined ? { baseline } : {}),
    junit: values.junit,
    report: values.report,
    ...(values.html === undefined ? {} : { html: values.html }),
    verbose: !!values.verbose,
    keyInArgs: !!values.key?.length,
  };
}
