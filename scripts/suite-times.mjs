// Where the suite's minutes go: a row per test file with its tests and seconds, from the JSON report
// `pnpm test` writes (test-results/vitest.json), of a fresh clone's run and of a warm rerun, into
// the table between the suite-times markers of BENCHMARKS.md ("Suite timings"). The figures are
// measured, never typed: run `pnpm test` in a fresh clone with an empty HOME, keep its report, run it again, then
//   node scripts/suite-times.mjs --fresh FRESH.json --warm WARM.json [--note "2 CPUs, ..."]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { fresh: { type: 'string' }, warm: { type: 'string' }, note: { type: 'string' } },
});
if (!values.fresh || !values.warm) {
  console.error('usage: node scripts/suite-times.mjs --fresh FRESH.json --warm WARM.json [--note TEXT]');
  process.exit(2);
}
const root = join(import.meta.dirname, '..');

/** A report's files by their path from the repository (whichever clone ran them), and its wall time. */
function read(file) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const files = new Map();
  let end = report.startTime;
  for (const result of report.testResults) {
    const at = result.name.replace(/^.*?\/(packages|examples|load|scripts|dataset)\//, '$1/');
    files.set(at, { tests: result.assertionResults.length, ms: result.endTime - result.startTime });
    end = Math.max(end, result.endTime);
  }
  return { files, wallMs: end - report.startTime, tests: report.numTotalTests };
}

const fresh = read(values.fresh);
const warm = read(values.warm);
const s = (ms) => (ms === undefined ? '' : (ms / 1000).toFixed(1));
const rows = [...fresh.files]
  .sort(([, a], [, b]) => b.ms - a.ms)
  .map(([file, f]) => `| \`${file}\` | ${f.tests} | ${s(f.ms)} | ${s(warm.files.get(file)?.ms)} |`);
const sum = (files) => [...files.values()].reduce((total, f) => total + f.ms, 0);
const block = [
  '<!-- suite-times:start -->',
  `Measured ${new Date().toISOString().slice(0, 10)}${values.note ? `, ${values.note}` : ''}. ` +
    `vitest's part of \`pnpm test\`, ` +
    `from its first test file to its last: fresh clone ${(fresh.wallMs / 60_000).toFixed(1)} min ` +
    `(${fresh.tests} tests), warm rerun ${(warm.wallMs / 60_000).toFixed(1)} min; ` +
    `the files' own times add up to ${(sum(fresh.files) / 60_000).toFixed(1)} and ` +
    `${(sum(warm.files) / 60_000).toFixed(1)} min (files run side by side). A file's seconds run from its ` +
    'start to its end, its servers and tools included.',
  '',
  '| file | tests | fresh clone s | warm s |',
  '|---|---|---|---|',
  ...rows,
  '<!-- suite-times:end -->',
].join('\n');

const path = join(root, 'BENCHMARKS.md');
const text = readFileSync(path, 'utf8');
const marked = /<!-- suite-times:start -->[^]*?<!-- suite-times:end -->/;
if (!marked.test(text)) {
  console.error(`${relative(process.cwd(), path)} has no suite-times markers`);
  process.exit(1);
}
writeFileSync(path, text.replace(marked, block));
console.log(`suite times of ${fresh.files.size} files written into ${relative(process.cwd(), path)}`);
