/**
 * investor-graph-check-api: checks a live Investor Graph API the way a CI pipeline would, in three
 * steps that each write JUnit into one folder and each run even when an earlier one failed:
 *   1. lint the contract the service serves (GET /api/v1/openapi.json) with the kit's Spectral ruleset;
 *   2. the property-based contract tests within a budget of calls, which start with the served
 *      contract against the kit's by oasdiff (diff.ts), a change that breaks clients (or a served
 *      contract it cannot read) failing them;
 *   3. a short k6 run at the key's plan rate (the at_rate scenario only).
 * Exit 0 when all three held, 1 when one failed, 2 on bad usage, 3 when the set-up keeps it from
 * starting (the exit codes of investor-graph-contract-tests), 130 when interrupted.
 *
 * The tools come from the project it runs in (the README's install line for CI): Spectral's CLI,
 * the kit's ruleset and @investor-graph/load, resolved from the current folder as npx would.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exitCode, exitCodesHelp, isKeyText, readFlags } from '@investor-graph/cli';
import { findGoTool, goToolAsync } from '@investor-graph/cli/go-tool';
import { oasdiffTool } from '../diff/oasdiff-tool.ts';
import { isPlanId, planIds } from '@investor-graph/contract/plans';
import {
  fetchContract,
  howToGetK6,
  k6Path,
  lintCaseWhenClean,
  name,
  planOf,
  projectTools,
  reportSetupFailuresIn,
  say,
  stop,
  trialKey,
} from './check-api-calls.ts';

const usage = `usage: INVESTOR_GRAPH_KEY=... ${name} BASE_URL [options]
  BASE_URL              the API, e.g. https://api.example.com (or $BASE_URL)
  --results DIR         where the reports go ($RESULTS_DIR, else ./api-check-results)
  --plan PLAN           the key's plan, checked against what the service says ($INVESTOR_GRAPH_PLAN;
                        else read from /api/v1/account): ${planIds.join(', ')}
  --budget-calls N      most calls the contract tests may make ($BUDGET_CALLS, else the plan's
                        default from its quota: 1% of a month's calls, 30% of a trial's)
  --smoke-duration D    length of the k6 run ($SMOKE_DURATION, else 10s)
  --k6 BIN              a k6 binary ($K6_BIN); else one on PATH of a fitting version, else built once
                        with Go by @investor-graph/load (its Go caches, as oasdiff's, stay in
                        ~/.cache/investor-graph-kit/go: rm -rf that folder to free them)
  -h, --help            this text
  --version             the package and its version
Environment: INVESTOR_GRAPH_KEY, the key to test with (a key of its own: the tests count its
calls), or INVESTOR_GRAPH_EMAIL to get a trial key for that address. The key is never printed.
The contract tests start with a diff of the served contract against the kit's, by oasdiff
($OASDIFF_BIN; otherwise built once with Go, as k6 is; without either the diff is noted as not run):
a change that breaks clients, or a served contract it cannot read, fails them.
Writes lint.xml, contract-tests.xml, .json and .html, PLAN.junit.xml, PLAN.summary.json,
PLAN.samples.json.gz and PLAN.report.html.

${exitCodesHelp('investor-graph-check-api')}`;

const flags = readFlags(
  name,
  usage,
  process.argv.slice(2),
  {
    results: { type: 'string' },
    plan: { type: 'string' },
    'budget-calls': { type: 'string' },
    'smoke-duration': { type: 'string' },
    k6: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  { positionals: 1 },
);

// An empty variable is an unset one (a CI system writes an unset variable as ""), as in a shell's ${X:-default}.
const env = process.env;
const baseUrl = (flags.positionals[0] || env.BASE_URL || '').replace(/\/+$/, '');
if (!/^https?:\/\/[^/]+/.test(baseUrl)) flags.fail(`give the API's base URL (http or https), got '${baseUrl}'`);
// Every path the check calls starts /api/v1: a base URL that ends in it would be answered 404 everywhere.
if (/\/api\/v1$/.test(baseUrl))
  flags.fail(`${baseUrl} ends in /api/v1, which the kit adds to every path: give ${baseUrl.slice(0, -7)}`);
const wanted = flags.values.plan || env.INVESTOR_GRAPH_PLAN;
if (wanted && !isPlanId(wanted)) flags.fail(`--plan must be one of ${planIds.join(', ')}, got '${wanted}'`);
// Before a trial key is asked for: one address gets one.
if (wanted && wanted !== 'trial' && !env.INVESTOR_GRAPH_KEY && env.INVESTOR_GRAPH_EMAIL)
  flags.fail(`INVESTOR_GRAPH_EMAIL gets a trial key, but --plan says ${wanted}`);
const budget = flags.values['budget-calls'] || env.BUDGET_CALLS || '';
if (budget && !/^[1-9]\d*$/.test(budget)) flags.fail(`--budget-calls takes a whole number of calls, got '${budget}'`);
const out = resolve(flags.values.results || env.RESULTS_DIR || 'api-check-results');
const smoke = flags.values['smoke-duration'] || env.SMOKE_DURATION || '10s';
if (!/^\d+(ms|s|m)$/.test(smoke)) flags.fail(`--smoke-duration takes a k6 duration such as 10s, got '${smoke}'`);
const k6 = flags.values.k6 || env.K6_BIN;
// A key is printable ASCII; anything else (a secret pasted with its line break) would be echoed by
// fetch's error about the header it cannot build, so it is refused here without being shown.
if (env.INVESTOR_GRAPH_KEY && !isKeyText(env.INVESTOR_GRAPH_KEY)) {
  flags.fail('INVESTOR_GRAPH_KEY holds a character no key has (a space or a line break?)');
}

// From here on, a set-up that stops the check still writes the contract tests' reports, saying why.
reportSetupFailuresIn(out, { base_url: baseUrl, ...(wanted ? { plan: wanted } : {}) });

// Step 0, before any call is spent: the tools are at hand, then the service and the key (one call),
// then the Go tools built if they must be. Each that fails stops the check with one line and exit 3.
const found = projectTools();
// A k6 or oasdiff named that is not there (or no k6 at all) is the set-up's, found before a call.
if (k6 && spawnSync(k6, ['version'], { stdio: 'ignore', timeout: 30_000 }).status !== 0)
  stop(`${flags.values.k6 ? '--k6' : 'K6_BIN'} ${k6} does not run as k6: ${howToGetK6}`, 'tools');
const namedOasdiff = findGoTool(oasdiffTool, env);
if (namedOasdiff && 'missing' in namedOasdiff) stop(namedOasdiff.missing, 'tools');

// The folder before the key: a trial key is one per address, and must not be spent on a run that cannot write.
try {
  mkdirSync(out, { recursive: true });
} catch (error) {
  flags.fail(`cannot create ${out}: ${(error as Error).message}`);
}
const key =
  env.INVESTOR_GRAPH_KEY || (await trialKey(baseUrl, env.INVESTOR_GRAPH_EMAIL, (message) => flags.fail(message)));
const plan = await planOf(baseUrl, key);
if (wanted && plan !== wanted) stop(`the key is a ${plan} key, but --plan says ${wanted}`, 'key');
say(`${baseUrl}, a ${plan} key; reports in ${out}`);

// The Go tools the later steps run, found or built now, side by side and before the first step: on
// a cold machine these builds are most of the check's minutes, and each says up front what it builds
// and about how long it takes (goTool's notes). k6 missing stops the check here, before any step; no
// oasdiff (no Go to build it) is noted by the contract tests as a diff not run.
const [oasdiff, k6Found] = await Promise.all([
  goToolAsync(oasdiffTool, (line) => console.log(line), env).then((tool) => ('bin' in tool ? tool.bin : undefined)),
  k6 ? { bin: k6 } : k6Path(found.load, env),
]);
if ('missing' in k6Found) stop(k6Found.missing, 'tools');
const k6Bin = k6Found.bin;

// The steps: each a command, its output passed through, a non-zero exit a failed step. Ctrl-C or
// SIGTERM reaches the step running and ends the check once it has stopped, with 130.
const children = { ...env, INVESTOR_GRAPH_KEY: key };
let running: ChildProcess | undefined;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = true;
    running?.kill(signal);
  });
}
const step = (command: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<boolean> => {
  if (interrupted) process.exit(exitCode.interrupted);
  running = spawn(process.execPath, [command, ...args], { stdio: 'inherit', env: { ...children, ...extraEnv } });
  return new Promise((done) =>
    running!.once('exit', (code) => {
      running = undefined;
      if (interrupted) process.exit(exitCode.interrupted);
      // A step its own set-up kept from starting makes the check's exit code a set-up's too.
      if (code === exitCode.setup) setupFailed = true;
      done(code === 0);
    }),
  );
};
const failed: string[] = [];
let setupFailed = false;
/** Says a step's outcome and how long it took. */
const ended = (label: string, held: boolean, started: number): void =>
  say(`${label}: ${held ? 'held' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

say('1/3 lint the served contract');
let started = performance.now();
let lintHeld = await fetchContract(baseUrl, out);
// The ruleset by its installed path, so the ruleset file may sit anywhere (here: with the reports).
if (lintHeld) writeFileSync(join(out, '.spectral.yaml'), `extends: [${JSON.stringify(found.ruleset)}]\n`);
lintHeld &&= await step(found.spectral, [
  'lint',
  join(out, 'openapi.json'),
  '--ruleset',
  join(out, '.spectral.yaml'),
  '--fail-severity=warn',
  '-f',
  'stylish',
  '-f',
  'junit',
  '--output.junit',
  join(out, 'lint.xml'),
]);
if (!lintHeld) failed.push('lint');
else lintCaseWhenClean(join(out, 'lint.xml'), (performance.now() - started) / 1000);
ended('1/3 lint', lintHeld, started);

say('2/3 contract tests');
started = performance.now();
const contractTests = join(import.meta.dirname, '..', import.meta.filename.endsWith('.ts') ? 'bin.ts' : 'bin.js');
if (
  !(await step(
    contractTests,
    [
      '--base-url',
      baseUrl,
      '--plan',
      plan,
      ...(budget ? ['--budget-calls', budget] : []),
      '--junit',
      join(out, 'contract-tests.xml'),
      '--report',
      join(out, 'contract-tests.json'),
      '--html',
      join(out, 'contract-tests.html'),
    ],
    oasdiff ? { OASDIFF_BIN: oasdiff } : {},
  ))
)
  failed.push('contract-tests');
ended('2/3 contract tests', !failed.includes('contract-tests'), started);

say(`3/3 k6 smoke at the ${plan} rate`);
started = performance.now();
// API_KEY reaches k6 from the environment, not the command line (no key in `ps`).
if (
  !(await step(
    found.load,
    [
      'run',
      plan,
      '--results',
      out,
      '--k6',
      k6Bin,
      '--',
      '-q',
      '-e',
      `BASE_URL=${baseUrl}`,
      '-e',
      'SCENARIOS=at_rate',
      '-e',
      `DURATION=${smoke}`,
    ],
    { API_KEY: key },
  ))
)
  failed.push('k6');
ended('3/3 k6 smoke', !failed.includes('k6'), started);

if (failed.length === 0) {
  say('all held: lint, contract tests, k6 smoke');
} else {
  say(`FAILED: ${failed.join(' ')} (JUnit in ${out})`);
  process.exitCode = setupFailed ? exitCode.setup : exitCode.failed;
}
