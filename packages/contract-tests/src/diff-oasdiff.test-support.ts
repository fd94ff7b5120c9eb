/**
 * oasdiff for the diff's tests: $OASDIFF_BIN (scripts/test.mjs builds it once before the tests),
 * else built here by the package's install-oasdiff.sh, as a user's first run builds it. A machine
 * without Go skips those tests, saying why, except in CI, where a skipped diff test would hide a
 * broken gate: there it fails, as a build that fails does anywhere.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { canRun } from '@investor-graph/cli';

/** Why the tests that need oasdiff cannot have it here (skipped, saying so), or null; throws in CI, as chromiumMissing does. */
export function oasdiffMissing(what: string, { haveGo = canRun('go', ['version']), env = process.env } = {}): string | null {
  if (env.OASDIFF_BIN || haveGo) return null;
  if (env.CI) throw new Error(`CI needs oasdiff for ${what}: OASDIFF_BIN is not set and there is no go on PATH to build it (install-oasdiff.sh)`);
  return `oasdiff is built with Go (install-oasdiff.sh) and this machine has no go on PATH: ${what} is not run`;
}

const skip = oasdiffMissing('the contract diff');
export const oasdiff: { bin: string; skip?: undefined } | { bin?: undefined; skip: string } = skip
  ? { skip }
  : process.env.OASDIFF_BIN
    ? { bin: process.env.OASDIFF_BIN }
    : { bin: execFileSync('bash', [join(import.meta.dirname, '..', 'install-oasdiff.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').at(-1)! };
