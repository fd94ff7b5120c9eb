#!/usr/bin/env node
/**
 * investor-graph-contract-tests: the property-based contract tests against any base URL.
 * Exit 0 when everything held, 1 when a property or rule broke, 2 on bad usage, 3 when the run
 * could not start for a reason of the set-up (preflight.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { isPlanId, planIds, plans, type PlanId } from '@investor-graph/contract';
import { readFlags } from '@investor-graph/cli';
import type { SuiteConfig } from './context.ts';
import { properties } from './properties.ts';
import { exitCodes, preflight } from './preflight.ts';
import { annotationsAsOutput } from './junit.ts';
import { PropertyLines } from './property-lines.ts';
import { formatReport, mergeReports, type Report } from './report.ts';
import { scoreLine, unreachedLines } from './rule-matrix.ts';

const usage = `usage: investor-graph-contract-tests --base-url URL (--key KEY --plan PLAN | --key PLAN=KEY ... | --email ADDRESS --plan trial) [options]
  --base-url URL       the API, e.g. https://api.example.com or http://127.0.0.1:4010
  --key KEY            the key to test with, of the plan --plan names; better the INVESTOR_GRAPH_KEY
                       environment variable, since a command line shows in ps, shell history and CI logs
  --key PLAN=KEY       a key of a plan, repeatable (one per plan): the run checks the rules that
                       need each plan in one go, sharing the budget; INVESTOR_GRAPH_KEYS may hold
                       them instead, comma-separated (PLAN=KEY,PLAN=KEY)
  --email ADDRESS      get a trial key for this address instead (with --plan trial)
  --plan PLAN          the plan of a plain --key: ${planIds.join(', ')}
  --budget-calls N     never make more than N calls, 2 or more (400)
  --budget-rows N      never be served more than N rows; pay as you go bills at least its minimum a call (10000)
  --seed N             fast-check's seed (random; printed so a run can be replayed)
  --runs N             generated cases per property, at most, after its boundary cases (25)
  --only IDS           run only these properties, comma-separated: ${properties.map((p) => p.id).join(', ')}
  --path P             with --seed and one --only: replay the failing case fast-check printed
  --no-rate-burst      leave out the short burst above the plan's rate (three seconds' worth of
                       calls) that shows the 429, Retry-After and the limiter; on by default, so
                       that a default run checks every rule the key's plan can show (--allow-rate,
                       which turned it on before, is still accepted)
  --use-control        against the kit's mock: drive its control API to reach more rules (a trial
                       key's usage, an hour of rebuilds per stability case); it moves the mock's
                       simulated clock forward, which cannot be undone. Off by default. Given no
                       key, it makes a key of every plan through the control API and runs them all
  --exhaust-trial      allow spending a fresh trial's ${plans.trial.calls_limit!.toLocaleString('en')} calls to see it run out (the mock needs no flag)
  --junit FILE         JUnit XML (contract-test-results/junit.xml)
  --report FILE        JSON report (contract-test-results/report.json)
  -h, --help          this text
  --version           the package and its version

exit codes:
  0  every property and rule held
  1  a property or rule broke (the report says which, with the line that replays it)
  2  bad usage: a flag is missing or wrong
  3  the run could not start: the service is unreachable, TLS failed, the key was refused, or the
     key is of another plan than --plan, or --use-control meets no control API (one line says
     what to fix)`;

const flags = readFlags('contract-tests', usage, process.argv.slice(2), {
  'base-url': { type: 'string' },
  key: { type: 'string', multiple: true },
  email: { type: 'string' },
  plan: { type: 'string' },
  'budget-calls': { type: 'string', default: '400' },
  'budget-rows': { type: 'string', default: '10000' },
  seed: { type: 'string' },
  runs: { type: 'string', default: '25' },
  only: { type: 'string' },
  path: { type: 'string' },
  'allow-rate': { type: 'boolean' },
  'no-rate-burst': { type: 'boolean' },
  'use-control': { type: 'boolean' },
  'exhaust-trial': { type: 'boolean' },
  junit: { type: 'string', default: 'contract-test-results/junit.xml' },
  report: { type: 'string', default: 'contract-test-results/report.json' },
  help: { type: 'boolean', short: 'h' },
});
const { values } = flags;
// Annotated, so that TypeScript knows code after a call does not run.
const fail: (message: string) => never = flags.fail;

const whole = (name: string, text: string, min: number): number => {
  if (!/^\d+$/.test(text) || Number(text) < min) fail(`--${name} must be a whole number of at least ${min}, got ${text}`);
  return Number(text);
};
const baseUrl = values['base-url'];
if (!baseUrl) fail('--base-url is required');
let parsed: URL;
try {
  parsed = new URL(baseUrl);
} catch {
  fail(`--base-url is not a URL: ${baseUrl}`);
}
if (!['http:', 'https:'].includes(parsed.protocol)) fail(`--base-url must be http or https, got ${parsed.protocol}`);
/** The keys of the run: one per plan, from --key PLAN=KEY, INVESTOR_GRAPH_KEYS, or a plain key with --plan. */
const planned = /^([a-z]+)=(.+)$/;
// INVESTOR_GRAPH_KEYS counts only when neither --key nor --plan says otherwise.
const fromEnv = values.plan === undefined ? (process.env.INVESTOR_GRAPH_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean) : [];
const given = values.key?.length ? values.key : fromEnv;
const withPlans = given.filter((k) => planned.test(k) && isPlanId(planned.exec(k)![1]));
// A misspelt plan (tema=...) would otherwise go out whole as a plain key.
const misspelt = values.key?.map((k) => planned.exec(k)?.[1]).find((plan) => plan !== undefined && !isPlanId(plan));
if (misspelt) fail(`--key ${misspelt}=...: ${misspelt} is no plan (${planIds.join(', ')}); a key of your own form goes in INVESTOR_GRAPH_KEY with --plan`);
const keys: { plan: PlanId; key?: string }[] = [];
let keysFromControl = false;
if (withPlans.length) {
  if (withPlans.length !== given.length) fail('give every --key as PLAN=KEY, or one plain --key with --plan');
  if (values.plan !== undefined) fail('--plan goes with a plain --key; with PLAN=KEY each key names its plan');
  for (const k of withPlans) {
    const [, plan, key] = planned.exec(k)! as unknown as [string, PlanId, string];
    if (keys.some((p) => p.plan === plan)) fail(`--key ${plan}= is given twice: one key per plan`);
    keys.push({ plan, key });
  }
} else if (values['use-control'] && given.length === 0 && values.plan === undefined && !process.env.INVESTOR_GRAPH_KEY && !values.email) {
  // Against the kit's mock with no key given: a key of every plan from its control API, below.
  keysFromControl = true;
} else {
  if (!isPlanId(values.plan)) fail(`--plan must be one of ${planIds.join(', ')} (or give each key as PLAN=KEY)`);
  if (given.length > 1) fail('several keys are given as PLAN=KEY, one per plan');
  const key = given[0] ?? process.env.INVESTOR_GRAPH_KEY;
  if (!key && !values.email) fail('give --key (or INVESTOR_GRAPH_KEY) or --email');
  if (!key && values.plan !== 'trial') fail('--email gets a trial key: use --plan trial, or give the key of your plan');
  keys.push({ plan: values.plan, ...(key ? { key } : {}) });
}
const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
const badOnly = only?.filter((id) => !properties.some((p) => p.id === id));
if (badOnly?.length) fail(`--only: no property ${badOnly.join(', ')}`);
if (values.path && (only?.length !== 1 || values.seed === undefined)) fail('--path replays one case: give it with --seed and a single --only');

// At least two calls: the preflight spends one of the budget before the properties share the rest.
const budgetCalls = whole('budget-calls', values['budget-calls'], 2);
const budgetRows = whole('budget-rows', values['budget-rows'], 0);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : whole('seed', values.seed, 0);
const runs = whole('runs', values.runs, 1);

if (values.key?.length) console.error('[contract-tests] warning: a key on the command line shows in ps, shell history and CI logs; pass it in INVESTOR_GRAPH_KEY (or INVESTOR_GRAPH_KEYS)');
const base = baseUrl.replace(/\/+$/, '');
if (keysFromControl) {
  for (const plan of planIds) keys.push({ plan, key: await controlKey(base, plan) });
  console.error(`[contract-tests] --use-control without a key: the mock's control API made a key of each plan (${planIds.join(', ')})`);
}
if (budgetCalls < 2 * keys.length) fail(`--budget-calls must be at least ${2 * keys.length} for ${keys.length} keys (a preflight and a call each)`);

for (const { plan, key } of keys) {
  const problem = await preflight({ baseUrl: base, ...(key ? { key } : {}), plan, useControl: !!values['use-control'] });
  if (problem) {
    console.error(`[contract-tests] ${keys.length > 1 ? `the ${plan} key: ` : ''}${problem}`);
    process.exit(exitCodes.environment);
  }
}

// One suite per key, each with an even share of the budget (after one preflight call each). With
// several keys each writes a report of its own, merged into --report when they are done.
const reportFile = resolve(values.report);
const parts = keys.length > 1 ? mkdtempSync(join(tmpdir(), 'investor-graph-contract-tests-')) : null;
const configs: SuiteConfig[] = keys.map(({ plan, key }) => ({
  baseUrl: base,
  ...(key ? { key } : { email: values.email! }),
  plan,
  budget: { calls: Math.floor((budgetCalls - keys.length) / keys.length), rows: Math.floor(budgetRows / keys.length) },
  seed,
  runs,
  // The burst is on by default: a run without it leaves the rate's rows unchecked.
  ...(values['no-rate-burst'] && !values['allow-rate'] ? {} : { allowRate: true }),
  ...(values['use-control'] ? { useControl: true } : {}),
  ...(values['exhaust-trial'] ? { exhaustTrial: true } : {}),
  ...(only?.length ? { only } : {}),
  ...(values.path ? { path: values.path } : {}),
  reportFile: parts ? join(parts, `${plan}.json`) : reportFile,
}));
const config = configs[0]!;

if (config.useControl) {
  const { clock } = (await (await fetch(`${base}/__control/state`)).json()) as { clock?: { now?: string } };
  console.error(`[contract-tests] --use-control: this run drives the mock's control API at ${new URL(base).origin}; its simulated clock (now ${clock?.now ?? 'unknown'}) will move forward and cannot be moved back`);
}

// A report left from an earlier run must not pass for this one's.
rmSync(reportFile, { force: true });
// The suite file sits beside this one: src/*.ts in the kit's clone, dist/*.js when installed.
const here = fileURLToPath(import.meta.url);
const root = dirname(dirname(here));
const vitest = await startVitest([], {
  root,
  config: false,
  include: [`${basename(dirname(here))}/cli-suite.contract${extname(here)}`],
  // Installed, root is inside node_modules: nothing of vitest's default exclusions applies here.
  exclude: [],
  watch: false,
  fileParallelism: false,
  // Vitest keeps transformed modules under node_modules/.vitest-cache by default: inside the
  // installed package. A run writes nothing but its reports.
  fsModuleCache: false,
  testTimeout: 60 * 60_000,
  hookTimeout: 5 * 60_000,
  reporters: ['default', new PropertyLines(), ['junit', { suiteName: 'investor-graph contract tests' }]],
  outputFile: { junit: resolve(values.junit) },
  provide: { contractSuites: configs },
}, {
  // Vite's cache would land under root, inside the installed package: keep it in the OS temp folder.
  cacheDir: join(tmpdir(), 'investor-graph-contract-tests', 'vite'),
});
await vitest.close();
const junitFile = resolve(values.junit);
if (existsSync(junitFile)) writeFileSync(junitFile, annotationsAsOutput(readFileSync(junitFile, 'utf8')));

try {
  if (parts) {
    // Only the reports of the suites that got to write one: vitest has said why another did not.
    const written = configs.filter((c) => existsSync(c.reportFile!));
    const reports = written.map((c) => JSON.parse(readFileSync(c.reportFile!, 'utf8')) as Report);
    const merged = mergeReports(reports, written.map((c) => c.plan), configs.filter((c) => !written.includes(c)).map((c) => c.plan));
    mkdirSync(dirname(reportFile), { recursive: true });
    writeFileSync(reportFile, `${JSON.stringify(merged, null, 2)}\n`);
    console.log(`\n${reports.map(formatReport).join('\n\n')}\n\n  all keys (${merged.plans.join(', ')}): ${scoreLine(merged.score)}${unreachedLines(merged.matrix).map((line) => `\n  ${line}`).join('')}${merged.failed_keys.length ? `\n  no report from the ${merged.failed_keys.join(', ')} key (its suite could not start; vitest said why above)` : ''}\n  JUnit: ${join(values.junit)}  report: ${join(values.report)}`);
  } else {
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
    console.log(`\n${formatReport(report)}\n  JUnit: ${join(values.junit)}  report: ${join(values.report)}`);
  }
} catch {
  // The suite could not start (a bad key, an unreachable URL): vitest has said why.
} finally {
  if (parts) rmSync(parts, { recursive: true, force: true });
}
process.exit(process.exitCode ?? 0);

/** A key of a plan from the mock's control API (pay as you go with prepaid rows), or exit 3 saying why not. */
async function controlKey(base: string, plan: PlanId): Promise<string> {
  const answer = await fetch(`${base}/__control/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ plan, ...(plan === 'payg' ? { prepaid_rows: 100_000 } : {}) }) }).catch(() => null);
  const body = (await answer?.json().catch(() => null)) as { key?: unknown } | null;
  if (answer?.status !== 201 || typeof body?.key !== 'string') {
    console.error(`[contract-tests] --use-control without a key asks the mock's control API for a key of each plan; ${new URL(base).origin} answered ${answer?.status ?? 'nothing'}: give keys with --key PLAN=KEY, or point --base-url at the kit's mock`);
    process.exit(exitCodes.environment);
  }
  return body.key;
}
