// `pnpm test`: prepare what is slow to prepare (k6, oasdiff and an OpenTelemetry Collector, built once
// with Go; Schemathesis and openapi-python-client, each once from PyPI), then run every vitest project,
// the type-check and the lint beside them all, and print the plain `N passed, N failed` line that CI
// counts. JUnit lands in test-results/junit.xml. Each preparation prints a line as it starts and one
// with the time it took, so a slow fresh machine shows where its minutes went, and no test spends its
// own timeout building a tool. Arguments after `pnpm test` go to vitest (`pnpm test --project mock`).
//
// `pnpm test:unit` (this script with --unit) is the inner loop: the type-check, the lint and the test
// files that start nothing (no server, process, browser or registry: those carry `@module-tag
// servers`), with no preparation, so it needs neither Go nor Python nor the network.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { goToolAsync } from '../packages/cli/src/go-tool.ts';
import { kitCache } from '../packages/cli/src/kit-cache.ts';
import { k6Tool } from '../load/src/k6-tool.ts';
import { oasdiffTool } from '../packages/contract-tests/src/diff/oasdiff-tool.ts';
import { otelcolTool } from '../packages/mock/src/operate/otelcol-tool.ts';

// Re-enter the pnpm that runs this script (npm_execpath), so no global pnpm is needed.
const pnpm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['pnpm'];
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
// Every Node process of the run (vitest's, the CLIs the tests start, npm, Spectral, the mocks) keeps
// V8's code for what it compiles in the kit's cache and reads it back on its next start: most of
// the suite's CPU is processes starting, and a warm rerun then compiles next to nothing again
// (diff-cli.test.ts: 15% less CPU). Only a speed cache: an empty HOME starts it empty.
env.NODE_COMPILE_CACHE ??= join(kitCache(env), 'node-compile-cache');
// The run's temporary files in a folder of its own, removed when it ends: what a test leaves behind
// (a folder it did not remove, a mock or a Chromium killed mid-write) goes with it instead of piling
// up in /tmp, about 80 entries a run. The end of the run says what was left, by name.
const runTemp = mkdtempSync(join(tmpdir(), 'ig-test-run-'));
env.TMPDIR = env.TMP = env.TEMP = runTemp;
/**
 * A pnpm command, without blocking: the preparations beside it are timed as they end, not when it
 * does. Held, its output is kept and printed only if it fails (the checks run beside vitest).
 */
const runAsync = (args, { held = false } = {}) =>
  new Promise((resolve) => {
    const child = spawn(pnpm[0], [...pnpm.slice(1), ...args], { stdio: held ? 'pipe' : 'inherit', env });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('close', (code) => {
      if (held && code !== 0) process.stdout.write(out);
      resolve(code ?? 1);
    });
  });
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Starts one preparation in the background: a line now, and one with its outcome and time when it ends. */
function prepare(name, work) {
  const started = performance.now();
  console.log(`[kit] ${name}: started`);
  return work().then((result) => {
    console.log(`[kit] ${name}: ${result} in ${seconds(started)}`);
    return result;
  });
}

/** A Go tool: $ENV as given, else built (or found) into the kit's cache; the tests that need it skip without Go. */
const goBuild = (tool, skipped) => async () => {
  if (env[tool.env]) return `${env[tool.env]} (${tool.env})`;
  const found = await goToolAsync(tool, (line) => console.log(line), env);
  if ('missing' in found) return `not available (${found.missing}): ${skipped}`;
  env[tool.env] = found.bin;
  return found.bin;
};

/**
 * A virtual environment made by a script of the kit's: its last line is the binary. Exit 3 is a
 * machine without Python 3.11+ and venv: its tests skip (`skipped`). Any other failure (a pin PyPI
 * lacks, pip failing) is the kit's: the test tries again itself and fails, saying why.
 */
const venv = (variable, script, skipped) => () => {
  if (env[variable] !== undefined) return Promise.resolve(env[variable] || 'skipped (set empty)');
  return new Promise((resolve) => {
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      if (code === 3) {
        env[variable] = ''; // the test skips, pointing here
        return resolve(`not available (${script} exit 3): ${skipped}`);
      }
      if (code !== 0) return resolve(`FAILED (${script} exit ${code}): its tests will fail`);
      env[variable] = out.trim().split('\n').at(-1);
      resolve(env[variable]);
    });
  });
};

const unit = process.argv.includes('--unit');
const vitestArgs = process.argv.slice(2).filter((a) => a !== '--unit');
// vitest's default is one worker fewer than the CPUs, resolved per project: one file at a time on a
// 2-CPU machine, and a maxWorkers in the root config does not reach the projects (only the command
// line does). Many files wait on what they start (servers, k6, Chromium, a registry) or on a plan's
// rate, not on the CPU, so one more than the CPUs side by side (three here) fill the wait. Four
// (twice the CPUs) left the CPUs idle 6% of a warm run instead of 18% and finished sooner, but in
// one of ten runs starved the mock behind the README's k6 example past its p95 threshold (567 ms
// against 500): a false failure costs more than the half-minute (BENCHMARKS.md "Suite timings").
const workers = availableParallelism() + 1;
if (!vitestArgs.some((a) => a.startsWith('--maxWorkers'))) vitestArgs.unshift(`--maxWorkers=${workers}`);
// A worker runs file after file in one process instead of a fresh process a file: a fresh one
// imported vitest and the kit's modules again for each of the 165 files (the engine's 25 files:
// 15.8 CPU-seconds isolated, 6.5 not; the whole warm run 1,038 to 968). No test file changes
// globals, the environment or module mocks (the ones that need a clean process start their own).
if (!vitestArgs.some((a) => /^--(no-)?isolate/.test(a))) vitestArgs.unshift('--no-isolate');
if (unit) {
  // The guard (scripts/unit-tier.ts) fails a file that starts a process or listens without the tag.
  env.KIT_TIER = 'unit';
  // The files to run are named up front: a tag filter alone would still import every servers file
  // (and run what it does at its top) only to skip its tests.
  const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '*.test.ts', '*.dom-test.ts'], {
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`pnpm test:unit lists the test files with git: ${listed.stderr}`);
  const files = listed.stdout.split('\n').filter((f) => f && !/@module-tag\s+servers\b/.test(readFileSync(f, 'utf8')));
  vitestArgs.unshift('--tags-filter', '!servers', ...files);
}

rmSync('test-results', { recursive: true, force: true });
console.log(`[kit] node ${process.version} at ${process.execPath}`);
const preparing = unit
  ? Promise.resolve()
  : Promise.all([
      prepare('k6', goBuild(k6Tool, 'the k6 tests will be skipped')),
      prepare('oasdiff', goBuild(oasdiffTool, "the diff's tests will be skipped")),
      prepare('otelcol-kit', goBuild(otelcolTool, 'the trace tests will be skipped')),
      prepare(
        'schemathesis',
        venv('SCHEMATHESIS_BIN', 'packages/mock/schemathesis/install.sh', 'its test will be skipped'),
      ),
      prepare(
        'openapi-python-client',
        venv(
          'OPENAPI_PYTHON_CLIENT_BIN',
          'examples/clients/python/install.sh',
          "the Python client's tests will be skipped",
        ),
      ),
    ]);
// What some tests need from the machine and cannot install themselves: say so before they skip.
const chromium = env.CHROMIUM_BIN ?? '/usr/bin/chromium';
if (!unit && !existsSync(chromium))
  console.log(
    `[kit] chromium: not at ${chromium}: the browser tests (/docs, MSW setupWorker) will be skipped ` +
      "(.ci/run installs Debian's chromium)",
  );
if (!unit && spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0)
  console.log("[kit] util-linux's script: not found: the tests that drive a CLI through a terminal will be skipped");

// The type-check and the lint run while the preparations do (they wait mostly on the network and
// on go build) and beside the tests, their output held until the end and shown only if they fail:
// the tests wait for their tools alone. The lint is ESLint (with its suppressions file: today's debt
// may shrink, never grow) and Prettier's check, as `pnpm lint` runs them.
/** The type-check or the lint, as a preparation: 'clean' or 'FAILED'. */
const checked = (name, args) =>
  prepare(name, async () => ((await runAsync(args, { held: true })) === 0 ? 'clean' : 'FAILED'));
const checks = Promise.all([checked('type-check', ['run', 'typecheck']), checked('lint', ['run', 'lint'])]);
await preparing;
const vitest = await runAsync(['exec', 'vitest', 'run', ...vitestArgs]);
const [typecheck, lint] = await checks;

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const report = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
  skipped = report.numPendingTests + report.numTodoTests;
} catch {
  failed += 1; // vitest wrote no report: count the run itself as a failure
}
if (typecheck !== 'clean') {
  console.error('typecheck failed');
  failed += 1;
}
if (lint !== 'clean') {
  console.error('lint failed (pnpm lint says where)');
  failed += 1;
}
if (vitest !== 0 && failed === 0) failed += 1;
const left = readdirSync(runTemp).map((name) => name.replace(/[-.][A-Za-z0-9]{6}$/, ''));
if (left.length) {
  const counts = Object.entries(Object.groupBy(left, (name) => name)).map(([name, all]) => `${name} ${all.length}`);
  console.log(`[kit] the tests left ${left.length} entries in their temporary folder (${counts.join(', ')}): removed`);
}
rmSync(runTemp, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
