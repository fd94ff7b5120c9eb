/**
 * oasdiff for the diff's tests: $OASDIFF_BIN (scripts/test.mjs builds it once before the tests),
 * else the kit's build, made here with Go as a user's first run makes it (oasdiff-tool.ts). A machine
 * without Go skips those tests, saying why, except in CI, where a skipped diff test would hide a
 * broken gate: there it fails, as a build that fails does anywhere.
 */
import { canRun } from '@investor-graph/cli';
import { goTool } from '@investor-graph/cli/go-tool';
import { oasdiffTool } from './oasdiff-tool.ts';

/**
 * Why the tests that need oasdiff cannot have it here (skipped, saying so), or null; throws in CI,
 * as chromiumMissing does.
 */
export function oasdiffMissing(
  what: string,
  { haveGo = canRun('go', ['version']), env = process.env } = {},
): string | null {
  if (env.OASDIFF_BIN || haveGo) return null;
  if (env.CI)
    throw new Error(`CI needs oasdiff for ${what}: OASDIFF_BIN is not set and there is no go on PATH to build it`);
  return `oasdiff is built with Go and this machine has no go on PATH: ${what} is not run`;
}

const skip = oasdiffMissing('the contract diff');
export const oasdiff: { bin: string; skip?: undefined } | { bin?: undefined; skip: string } = skip ? { skip } : built();

/** The kit's oasdiff, built here if it must be; a build that fails is the kit's failure, not a skip. */
function built(): { bin: string } {
  const found = goTool(oasdiffTool, (line) => console.error(line));
  if ('missing' in found) throw new Error(found.missing);
  return found;
}
