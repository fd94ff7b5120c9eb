// `pnpm test`: type-check every package, run every vitest project, then print the plain
// `N passed, N failed` line that CI counts. JUnit lands in test-results/junit.xml.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

// Re-enter the pnpm that runs this script (npm_execpath), so no global pnpm is needed.
const pnpm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['pnpm'];
const run = (args) => spawnSync(pnpm[0], [...pnpm.slice(1), ...args], { stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } }).status ?? 1;

rmSync('test-results', { recursive: true, force: true });
const typecheck = run(['run', 'typecheck']);
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
