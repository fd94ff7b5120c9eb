// `pnpm test`: prepare what is slow to prepare (k6 and oasdiff, built once with Go; Schemathesis and
// openapi-python-client, each once from PyPI), type-check every package, run every vitest project,
// then print the plain `N passed, N failed` line that CI counts. JUnit lands in
// test-results/junit.xml. Each preparation prints a line with the time it took, so a slow fresh
// machine shows where its minutes went, and no test spends its own timeout building a tool.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

// Re-enter the pnpm that runs this script (npm_execpath), so no global pnpm is needed.
const pnpm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['pnpm'];
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const run = (args) => spawnSync(pnpm[0], [...pnpm.slice(1), ...args], { stdio: 'inherit', env }).status ?? 1;

/** Runs one preparation step with a progress line and its time. */
function step(name, work) {
  const started = performance.now();
  console.log(`[kit] ${name} ...`);
  const result = work();
  console.log(`[kit] ${name}: ${result} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

rmSync('test-results', { recursive: true, force: true });
console.log(`[kit] node ${process.version} at ${process.execPath}`);
if (!env.K6_BIN) {
  step('k6', () => {
    // Built from the Go module proxy with the machine's Go, once into the kit's cache; the tests
    // that run k6 are skipped, each saying why, on a machine without Go.
    const built = spawnSync('bash', ['load/install-k6.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (built.status !== 0) return `not available (load/install-k6.sh exit ${built.status}): the k6 tests will be skipped`;
    env.K6_BIN = built.stdout.trim();
    return env.K6_BIN;
  });
}
if (!env.OASDIFF_BIN) {
  step('oasdiff', () => {
    // The contract diff's differ, built from the Go module proxy with the machine's Go, once into the
    // kit's cache, as k6 is; without Go the diff's tests are skipped, each saying why.
    const built = spawnSync('bash', ['packages/contract-tests/install-oasdiff.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (built.status === 3) return 'not available (packages/contract-tests/install-oasdiff.sh exit 3: no Go): the diff\'s tests will be skipped';
    // Any other failure is the kit's: the tests build it again themselves and fail, saying why.
    if (built.status !== 0) return `FAILED (packages/contract-tests/install-oasdiff.sh exit ${built.status}): the diff's tests will fail`;
    env.OASDIFF_BIN = built.stdout.trim();
    return env.OASDIFF_BIN;
  });
}
if (!env.SCHEMATHESIS_BIN) {
  step('schemathesis', () => {
    // Pinned from PyPI into a virtual environment in the kit's cache, once; the second opinion on
    // the mock (packages/mock/src/node/schemathesis.test.ts) is skipped, saying why, without Python.
    const made = spawnSync('bash', ['packages/mock/schemathesis/install.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    // Exit 3 is a machine without Python 3.11+ and venv: the test skips. Any other failure (a pin
    // PyPI lacks, pip failing) is the kit's: the test tries again itself and fails, saying why.
    if (made.status === 3) {
      env.SCHEMATHESIS_BIN = ''; // the test skips, pointing here
      return `not available (packages/mock/schemathesis/install.sh exit 3): its test will be skipped`;
    }
    if (made.status !== 0) return `FAILED (packages/mock/schemathesis/install.sh exit ${made.status}): its test will fail`;
    env.SCHEMATHESIS_BIN = made.stdout.trim();
    return env.SCHEMATHESIS_BIN;
  });
}
if (!env.OPENAPI_PYTHON_CLIENT_BIN) {
  step('openapi-python-client', () => {
    // Pinned from PyPI into a virtual environment in the kit's cache, once; the Python client of
    // examples/clients/generated-clients.test.ts is skipped, saying why, without Python.
    const made = spawnSync('bash', ['examples/clients/python/install.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (made.status === 3) {
      env.OPENAPI_PYTHON_CLIENT_BIN = ''; // the test skips, pointing here
      return `not available (examples/clients/python/install.sh exit 3): the Python client's tests will be skipped`;
    }
    if (made.status !== 0) return `FAILED (examples/clients/python/install.sh exit ${made.status}): the Python client's tests will fail`;
    env.OPENAPI_PYTHON_CLIENT_BIN = made.stdout.trim();
    return env.OPENAPI_PYTHON_CLIENT_BIN;
  });
}
// What some tests need from the machine and cannot install themselves: say so before they skip.
const chromium = env.CHROMIUM_BIN ?? '/usr/bin/chromium';
if (!existsSync(chromium)) console.log(`[kit] chromium: not at ${chromium}: the browser tests (/docs, MSW setupWorker) will be skipped (.ci/run installs Debian's chromium)`);
if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) console.log("[kit] util-linux's script: not found: the tests that drive a CLI through a terminal will be skipped");
let typecheck;
step('type-check', () => ((typecheck = run(['run', 'typecheck'])) === 0 ? 'clean' : 'FAILED'));
const vitest = run(['exec', 'vitest', 'run', ...process.argv.slice(2)]);

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
if (typecheck !== 0) {
  console.error('typecheck failed');
  failed += 1;
}
if (vitest !== 0 && failed === 0) failed += 1;
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
