// @module-tag servers
/**
 * The repository's composite action (action.yml), its steps run as GitHub's runner runs them: each
 * `run:` step a bash script (`bash --noprofile --norc -eo pipefail`), its `${{ }}` expressions
 * evaluated from the action's inputs, the earlier steps' outputs, github.action_path and
 * runner.temp, its env set, GITHUB_OUTPUT a file of its own that the runner reads back. The `uses:`
 * steps (setup-node, setup-go, the cache) are the runner's: this machine has Node 24 and Go, and the
 * kit's cache. npm's registry holds no release of the kit's packages yet, so the install step runs
 * with an `npm` that records what it is asked for and links the workspace's installed packages in
 * their place (examples/installed/ installs those packages from a registry with the real npm).
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { root } from '../readme.ts';
import { haveGo, runCommand } from '../support.ts';
import { junitProblems } from './junit-shape.ts';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  'working-directory'?: string;
  if?: string;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const actionText = readFileSync(join(root, 'action.yml'), 'utf8');
const action = parse(actionText) as Action;

interface Context {
  inputs: Record<string, string>;
  runnerTemp: string;
  steps: Record<string, Record<string, string>>;
}

/**
 * `${{ EXPRESSION }}` as the runner evaluates the ones this action uses; any other fails the test,
 * which could not run it faithfully.
 */
function evaluate(text: string, c: Context): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_all, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input) {
      const declared = action.inputs[input[1]!];
      if (!declared) throw new Error(`action.yml reads an input it does not declare: ${expression}`);
      return c.inputs[input[1]!] ?? declared.default ?? '';
    }
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return c.steps[output[1]!]?.[output[2]!] ?? '';
    const known: Record<string, string> = {
      'github.action_path': root,
      'runner.temp': c.runnerTemp,
      'runner.os': 'Linux',
      'runner.arch': 'X64',
    };
    if (expression in known) return known[expression]!;
    throw new Error(`action.yml uses an expression this test does not evaluate: ${expression}`);
  });
}

/** A step's GITHUB_OUTPUT as the runner reads it: NAME=VALUE lines, or NAME<<DELIMITER ... DELIMITER. */
function outputsOf(file: string): Record<string, string> {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  const outputs: Record<string, string> = {};
  for (let i = 0; i < lines.length; i += 1) {
    const many = /^([^=<]+)<<(.+)$/.exec(lines[i]!);
    if (many) {
      const end = lines.indexOf(many[2]!, i + 1);
      outputs[many[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i]!.includes('='))
      outputs[lines[i]!.slice(0, lines[i]!.indexOf('='))] = lines[i]!.slice(lines[i]!.indexOf('=') + 1);
  }
  return outputs;
}

interface ActionRun {
  steps: { name: string; code: number | null; out: string }[];
  outputs: Record<string, string>;
  npmAsked: string[];
  workspace: string;
  files: string[];
}

/** Runs the action's `run:` steps in order, as the runner does, stopping at the first that fails; then its outputs. */
async function runAction(inputs: Record<string, string>): Promise<ActionRun> {
  const home = mkdtempSync(join(tmpdir(), 'ig-action-'));
  const [workspace, runnerTemp, shims] = ['workspace', 'runner-temp', 'shims'].map((d) => join(home, d));
  for (const d of [workspace!, runnerTemp!, shims!]) mkdirSync(d);
  writeFileSync(
    join(shims!, 'npm'),
    `#!/usr/bin/env bash\n# npm for this test: what the step asks for, recorded; the workspace's ` +
      `installed packages linked in their place.\nprintf '%s\\n' "$@" > "${home}/npm-asked"\nln -sfn ` +
      `"${join(root, 'node_modules')}" node_modules\n`,
  );
  chmodSync(join(shims!, 'npm'), 0o755);
  // The runner's environment: a machine's, without the kit's variables; Node 24 first, as setup-node leaves it.
  const machine = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('INVESTOR_GRAPH_') && k !== 'NODE_PATH' && !k.startsWith('npm_'),
    ),
  );
  const runner = {
    ...machine,
    PATH: [shims, dirname(process.execPath), process.env.PATH].join(':'),
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace!,
    RUNNER_TEMP: runnerTemp!,
    RUNNER_OS: 'Linux',
    GITHUB_ACTION_PATH: root,
    // A job-level variable the check reads: a 3 s k6 smoke instead of 10 s.
    SMOKE_DURATION: '3s',
  };
  const context: Context = { inputs, runnerTemp: runnerTemp!, steps: {} };
  const steps: ActionRun['steps'] = [];
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.uses) continue;
    expect(step.shell, `${step.name}: a composite step names its shell`).toBe('bash');
    const script = join(home, `step-${index}.sh`);
    writeFileSync(script, evaluate(step.run!, context));
    const output = join(home, `output-${index}`);
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v), context)]));
    const ran = await runCommand('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: workspace!,
      env: { ...runner, ...env, GITHUB_OUTPUT: output },
    });
    steps.push({ name: step.name ?? `step ${index}`, ...ran });
    if (step.id) context.steps[step.id] = outputsOf(output);
    if (ran.code !== 0) break;
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, o]) => [name, evaluate(o.value, context)]),
  );
  const asked = join(home, 'npm-asked');
  // What the run wrote, not what it links to (the workspace's packages in place of npm's).
  const filesIn = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? filesIn(join(folder, e.name)) : e.isFile() ? [join(folder, e.name)] : [],
    );
  const files = filesIn(home);
  return {
    steps,
    outputs,
    npmAsked: existsSync(asked) ? readFileSync(asked, 'utf8').trim().split('\n') : [],
    workspace: workspace!,
    files,
  };
}

/** Every form of the key that would give it away. */
const formsOf = (key: string) => [key, encodeURIComponent(key), Buffer.from(key).toString('base64'), key.slice(4)];
const text = (file: string) =>
  file.endsWith('.gz') ? gunzipSync(readFileSync(file)).toString('utf8') : readFileSync(file, 'utf8');

/**
 * Why the runs of the action cannot happen here (skipped, saying so), or null; in CI a machine without Go fails them,
 * as a skipped run would hide a broken action.
 */
function goMissing(): string | null {
  if (haveGo) return null;
  if (process.env.CI)
    throw new Error(
      'CI needs Go to run the action: it builds k6 and oasdiff with it (@investor-graph/cli/go-tool), and ' +
        'there is no go on PATH',
    );
  return 'no go on PATH: k6 and oasdiff, which the check runs, are built with Go';
}
const noGo = goMissing();

describe.skipIf(noGo !== null)(
  `the action against the mock (k6 and oasdiff are built with Go)${noGo ? ` (skipped: ${noGo})` : ''}`,
  () => {
    const key = 'igk_team_action_example_key_00001';
    let clean: RunningMock;
    let stale: RunningMock;
    beforeAll(async () => {
      [clean, stale] = await Promise.all([
        startMock({ port: 0, keys: [{ plan: 'team', key }] }),
        startMock({ port: 0, keys: [{ plan: 'team', key }], faults: ['stale-openapi'] }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([clean?.close(), stale?.close()]);
    });

    test(`every step holds, the outputs name the reports it wrote, and the key is in none of them nor in any step's \
output`, async () => {
      const run = await runAction({ 'base-url': clean.url, key, plan: 'team', budget: '40' });
      expect(
        run.steps.map((s) => [s.name, s.code]),
        run.steps.map((s) => s.out).join('\n'),
      ).toEqual(run.steps.map((s) => [s.name, 0]));
      expect(run.steps.at(-1)!.out).toContain('all held: lint, contract tests, k6 smoke');
      // The install asked npm for the kit's packages at the action's own version, and the README's CI line.
      const version = JSON.parse(readFileSync(join(root, 'packages/contract-tests/package.json'), 'utf8')).version;
      expect(run.npmAsked).toEqual([
        'i',
        '-D',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        `@investor-graph/contract-tests@${version}`,
        `@investor-graph/spectral-ruleset@${version}`,
        `@investor-graph/load@${version}`,
        '@stoplight/spectral-cli@6.16.3',
      ]);
      const results = join(run.workspace, 'api-check-results');
      expect(run.outputs).toEqual({
        results,
        junit: join(results, 'contract-tests.xml'),
        report: join(results, 'contract-tests.json'),
        html: join(results, 'contract-tests.html'),
      });
      for (const name of ['junit', 'report', 'html']) expect(statSync(run.outputs[name]!).isFile(), name).toBe(true);
      const junit = readFileSync(run.outputs.junit!, 'utf8');
      expect(junit).toMatch(/<testsuite name="contract diff" tests="1" failures="0"/);
      expect(junitProblems(junit)).toEqual([]);
      expect(JSON.parse(readFileSync(run.outputs.report!, 'utf8')).diff).toMatchObject({
        status: 'passed',
        against: 'kit',
      });
      for (const form of formsOf(key)) {
        for (const step of run.steps) expect(step.out, `${step.name}'s output`).not.toContain(form);
        // Every file the run left: reports, scripts, GITHUB_OUTPUT files.
        for (const file of run.files) expect(text(file), file).not.toContain(form);
      }
    }, 600_000);

    test(`a served contract that dropped an operation fails the check step, and the outputs still name the reports, \
for the steps that keep them`, async () => {
      const run = await runAction({ 'base-url': stale.url, key, budget: '40' });
      const check = run.steps.at(-1)!;
      expect(check.name).toBe('Lint, contract tests, k6 smoke');
      expect(check.code, check.out).toBe(1);
      expect(check.out).toContain('FAILED: contract-tests');
      for (const name of ['junit', 'report', 'html']) expect(statSync(run.outputs[name]!).isFile(), name).toBe(true);
      const junit = readFileSync(run.outputs.junit!, 'utf8');
      expect(junit).toMatch(
        /<testsuite name="contract diff" tests="1" failures="1"[^]*api-path-removed-without-deprecation/,
      );
      expect(junitProblems(junit)).toEqual([]);
    }, 600_000);

    test("a plan input other than the key's stops the check in one line, before any step of it runs", async () => {
      const run = await runAction({ 'base-url': clean.url, key, plan: 'business' });
      const check = run.steps.at(-1)!;
      expect(check.code, check.out).toBe(3);
      // (npm's own warnings about the machine's npmrc aside, which npx prints before the check runs.)
      expect(
        check.out
          .trim()
          .split('\n')
          .filter((line) => !line.startsWith('npm warn')),
      ).toEqual(['[investor-graph-check-api] the key is a team key, but --plan says business']);
      // The set-up's failure is in the reports the outputs name, for the JUnit step to show (issue #68:
      // the results folder was empty, and the reason only in the log).
      const junit = readFileSync(run.outputs.junit!, 'utf8');
      expect(junit).toMatch(/<testcase [^>]*name="set-up: the service accepts the key"/);
      expect(junit).toMatch(/<failure message="the key is a team key, but --plan says business"/);
      expect(JSON.parse(readFileSync(run.outputs.report!, 'utf8'))).toMatchObject({ status: 'setup-failed' });
      expect(readFileSync(run.outputs.html!, 'utf8')).toContain('but --plan says business');
    }, 120_000);
  },
);

test('every action the action uses is pinned to a full commit, with its release beside it', () => {
  const uses = actionText.split('\n').filter((line) => /^\s*(-\s+)?uses:/.test(line));
  expect(uses.length).toBe(action.runs.steps.filter((s) => s.uses).length);
  // owner/repo, or owner/repo/path for an action in a folder of a repository (actions/cache/restore).
  for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+(\/[\w.-]+)*@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  // A tag (v6) or a branch would let whoever moves it change what runs with the key in reach.
  expect(actionText).not.toMatch(/uses: [^\n]*@(v\d+|main|master)\s*$/m);
});

test(`k6 and oasdiff are restored before the check and saved after it even when it failed, under a key of the machine \
(os and arch) and the kit's version, by one commit of actions/cache`, () => {
  const steps = action.runs.steps;
  const restore = steps.find((s) => s.uses?.startsWith('actions/cache/restore@'))!;
  const save = steps.find((s) => s.uses?.startsWith('actions/cache/save@'))!;
  const check = steps.findIndex((s) => s.id === 'check');
  expect(steps.indexOf(restore)).toBeLessThan(check);
  expect(steps.indexOf(save)).toBeGreaterThan(check);
  expect(restore.uses!.split('@')[1]).toBe(save.uses!.split('@')[1]);
  expect(String(restore.with!.key)).toMatch(
    /\$\{\{ runner\.os \}\}.*\$\{\{ runner\.arch \}\}.*\$\{\{ steps\.kit\.outputs\.version \}\}/,
  );
  // The kit's cache, but not the Go caches its builds leave there (about 1 GB, issue #68): the binaries are kept.
  expect(String(restore.with!.path).trim().split('\n')).toEqual([
    '~/.cache/investor-graph-kit',
    '!~/.cache/investor-graph-kit/go',
  ]);
  expect(save.with).toEqual({ path: restore.with!.path, key: `\${{ steps.${restore.id}.outputs.cache-primary-key }}` });
  // always(): a step after a failed one runs only when its condition says so.
  expect(save.if).toMatch(/^always\(\) && /);
  expect(
    steps.filter((s) => s.uses?.startsWith('actions/cache@')),
    'the combined action saves only after a job that passed',
  ).toEqual([]);
});

test('a results input with a line break is refused before anything runs, and sets no output of its own', async () => {
  const run = await runAction({
    'base-url': 'http://127.0.0.1:9',
    key: 'igk_team_action_example_key_00001',
    results: 'api-check-results\nhtml=/etc/passwd',
  });
  const check = run.steps.at(-1)!;
  expect(check.name).toBe('Lint, contract tests, k6 smoke');
  expect([check.code, check.out.trim()]).toEqual([
    2,
    '[investor-graph-check-api] the results input holds a line break: give a folder name on one line',
  ]);
  expect(run.outputs).toEqual({ results: '', junit: '', report: '', html: '' });
}, 120_000);

test(`the key reaches the check only through env: no run script holds an expression, and only the check step gets the \
key`, () => {
  expect(action.runs.using).toBe('composite');
  for (const step of action.runs.steps) {
    // The runner pastes ${{ }} into a script before bash reads it: an input there is a script injection, and the key
    // would sit in the script file.
    if (step.run) expect(step.run, step.name).not.toContain('${{');
    for (const [name, value] of Object.entries(step.env ?? {}))
      if (String(value).includes('inputs.key')) expect([step.id, name]).toEqual(['check', 'INVESTOR_GRAPH_KEY']);
  }
  expect(actionText.match(/inputs\.key\b/g)).toHaveLength(1);
});

test(`the check step passes only variables investor-graph-check-api reads (its --help names them), besides its \
own`, () => {
  const check = action.runs.steps.find((s) => s.id === 'check')!;
  const help = spawnSync(process.execPath, [join(root, 'packages/contract-tests/src/check-api-bin.ts'), '--help'], {
    encoding: 'utf8',
  }).stdout;
  const documented = [...help.matchAll(/\$([A-Z0-9_]+)|\b(INVESTOR_GRAPH_[A-Z]+)\b/g)].map((m) => m[1] ?? m[2]);
  // KIT_DIR and RESULTS are the step's own: where the kit is installed, the folder before it is made absolute.
  const passed = Object.keys(check.env ?? {}).filter((name) => !['KIT_DIR', 'RESULTS'].includes(name));
  expect(
    passed.filter((name) => !documented.includes(name)),
    'variables the check does not read',
  ).toEqual([]);
  expect(check.run).toContain('npx --no -- investor-graph-check-api "$BASE_URL"');
});

test("the action installs the README's CI packages but the mock, with the Spectral CLI the kit is tested with", () => {
  const install = action.runs.steps.find((s) => s.run?.includes('npm i -D'))!.run!;
  const asked = [...install.matchAll(/"?(@[\w-]+\/[\w-]+)@[^\s"]+"?/g)].map((m) => m[1]);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const line = /\| validate the API in CI \| `npm i -D ([^`]+)` \|/.exec(readme)![1]!.split(' ');
  // The README's line has the mock for its example that tries the check on the mock first; the
  // action checks the URL it is given, and installs no server it would not start.
  expect(line).toContain('@investor-graph/mock');
  expect(asked).toEqual(line.filter((name) => name !== '@investor-graph/mock'));
  const spectral = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies[
    '@stoplight/spectral-cli'
  ];
  expect(install).toContain(`@stoplight/spectral-cli@${spectral}`);
});

test(`the workflow example uses the action with inputs it has, every one it requires, and keeps the reports the action \
writes`, () => {
  const workflow = parse(readFileSync(join(import.meta.dirname, 'github-actions.yml'), 'utf8')) as {
    jobs: Record<string, { steps: Step[] }>;
  };
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const check = steps.find((s) => s.uses?.startsWith('investor-graph/kit@'))!;
  expect(check, 'a step uses the kit').toBeDefined();
  const given = Object.keys(check.with ?? {});
  expect(
    given.filter((name) => !(name in action.inputs)),
    'inputs the action does not have',
  ).toEqual([]);
  expect(
    Object.entries(action.inputs)
      .filter(([name, i]) => i.required && !given.includes(name))
      .map(([name]) => name),
    'required inputs not given',
  ).toEqual([]);
  expect(check.with!.key).toBe('${{ secrets.INVESTOR_GRAPH_KEY }}');
  // The reports' folder the later steps upload and show is the one the action writes.
  const folder = String((check.with!.results as string | undefined) ?? action.inputs.results!.default);
  for (const step of steps.filter((s) => s.if === 'always()'))
    expect(JSON.stringify(step.with), step.name).toContain(`${folder}/`);
  // Every other action it names is pinned as the action's own are.
  for (const step of steps.filter((s) => s !== check)) expect(step.uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
});
