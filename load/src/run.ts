/**
 * `investor-graph-load run PLAN`: k6 on the plan's script with every file in one results folder,
 * named by plan and segment (summary, JUnit and the raw samples k6 writes with --out json), so that
 * the parts of a split run can be merged into one verdict, and a run that is not split gets its
 * report at once.
 */
import { spawn } from 'node:child_process';
import { goTool } from '@investor-graph/cli/go-tool';
import { mkdirSync } from 'node:fs';
import { constants } from 'node:os';
import { join, resolve } from 'node:path';
import { resultFiles } from '../lib/plan-options.js';
import { k6Tool } from './k6-tool.ts';

const packageDir = resolve(import.meta.dirname, '..');

/** k6's segment and sequence for part `index` of `count` equal parts (1-based), as k6 writes fractions. */
export function partSegment(index: number, count: number): { segment: string; sequence: string } {
  const at = (i: number) => (i === 0 ? '0' : i === count ? '1' : `${i / gcd(i, count)}/${count / gcd(i, count)}`);
  return {
    segment: `${at(index - 1)}:${at(index)}`,
    sequence: Array.from({ length: count + 1 }, (_, i) => at(i)).join(','),
  };
}
const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/**
 * The k6 binary: --k6, else $K6_BIN, the kit's build or one of the pinned version on PATH, else
 * built once with Go (saying so).
 */
export function findK6(given: string | undefined): string {
  if (given) return given;
  const found = goTool(k6Tool, (line) => console.error(line));
  if ('missing' in found) throw new Error(`${found.missing}; or pass --k6 PATH to a k6 v2 binary`);
  return found.bin;
}

export interface RunPlan {
  plan: string;
  results: string;
  part?: { index: number; count: number };
  k6: string;
  /** Further k6 arguments, e.g. -e DURATION=2m. */
  extra: string[];
}

/** Runs k6 and resolves with its exit code (99 when a threshold failed). */
export function runK6(run: RunPlan): Promise<number> {
  const split = run.part ? partSegment(run.part.index, run.part.count) : undefined;
  const files = resultFiles(run.plan, split?.segment);
  mkdirSync(run.results, { recursive: true });
  const args = [
    'run',
    '--no-usage-report',
    '--out',
    `json=${join(run.results, files.samples)}`,
    '-e',
    `RESULTS_DIR=${run.results}`,
    ...(split ? ['--execution-segment', split.segment, '--execution-segment-sequence', split.sequence] : []),
    ...run.extra,
    join(packageDir, `${run.plan}.js`),
  ];
  const child = spawn(run.k6, args, { stdio: 'inherit', env: { K6_NO_USAGE_REPORT: 'true', ...process.env } });
  // k6 stops gracefully on its first SIGINT or SIGTERM, writing its summary, and hard on a second.
  // Ctrl-C in a terminal reaches k6 itself (one process group): this process only waits for it.
  // SIGTERM (a CI runner's stop) is sent to this process alone: passed on, once.
  const wait = () => undefined;
  const forward = () => child.kill('SIGTERM');
  process.on('SIGINT', wait);
  process.once('SIGTERM', forward);
  return new Promise((done, fail) => {
    child.on('error', (error) => fail(new Error(`could not start k6 (${run.k6}): ${error.message}`)));
    child.on('close', (code, signal) => {
      process.off('SIGINT', wait);
      process.off('SIGTERM', forward);
      // Killed by a signal: the shell's convention, 128 + its number.
      done(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}
