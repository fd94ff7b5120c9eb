/**
 * oasdiff (github.com/oasdiff/oasdiff), the differ behind `investor-graph-contract-tests diff`:
 * where its binary comes from and what it says about two contracts. It is maintained, reads
 * OpenAPI 3.1, and runs over 700 checks (`oasdiff checks changelog`), each with a stable id and a
 * level: error (breaks clients), warning (may break some) or info. Built with the machine's Go from
 * the Go module proxy, once, as k6 is (install-oasdiff.sh beside this package's package.json).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { canRun } from '@investor-graph/cli';

/** How a user without oasdiff gets it, said wherever the diff cannot run for want of it. */
export const howToGetOasdiff = 'set OASDIFF_BIN to an oasdiff binary, or install Go 1.26 or later and the kit builds it once from the Go module proxy';

/** The package's folder: one above src/ (the clone) and dist/ (installed), where install-oasdiff.sh is. */
const packageDir = resolve(import.meta.dirname, '..');

/** The oasdiff binary, or why there is none. */
export type OasdiffBin = { bin: string } | { missing: string };

/** Where install-oasdiff.sh puts its build: the kit's cache, by the version oasdiff-build/go.mod pins. */
export function builtOasdiff(): string {
  const version = /^require github\.com\/oasdiff\/oasdiff (\S+)$/m.exec(readFileSync(join(packageDir, 'oasdiff-build', 'go.mod'), 'utf8'))?.[1];
  const env = process.env;
  const cache = env.KIT_CACHE || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'investor-graph-kit');
  return join(cache, `oasdiff-${version}`, 'oasdiff');
}

/** How long the first build may take (modules from the proxy, then the build): a stuck one ends the wait. */
const buildTimeout = 10 * 60_000;

/**
 * oasdiff: $OASDIFF_BIN, else the kit's build of it, made by install-oasdiff.sh with the machine's
 * Go the first time (its progress on stderr). An empty OASDIFF_BIN is an unset one, as a CI system
 * writes it. Without Go nothing is printed: the caller says why in its one line.
 */
export function findOasdiff(): OasdiffBin {
  const given = process.env.OASDIFF_BIN;
  if (given) return existsSync(given) ? { bin: given } : { missing: `OASDIFF_BIN names ${given}, which is not there: ${howToGetOasdiff}` };
  const built = builtOasdiff();
  if (existsSync(built)) return { bin: built };
  if (!canRun('go', ['version'])) return { missing: `oasdiff is not installed, and there is no Go to build it: ${howToGetOasdiff}` };
  const build = spawnSync('bash', [join(packageDir, 'install-oasdiff.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: buildTimeout });
  const ended = (build.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT' ? `took over ${buildTimeout / 60_000} minutes` : `exited ${build.status ?? build.error?.message}`;
  if (build.status !== 0) return { missing: `oasdiff could not be built (install-oasdiff.sh of @investor-graph/contract-tests ${ended}): ${howToGetOasdiff}` };
  return { bin: build.stdout.trim().split('\n').at(-1)! };
}

/** One change as oasdiff's JSON changelog gives it (the fields read here). */
export interface OasdiffChange {
  id: string;
  text: string;
  /** 3 error: breaks clients; 2 warning: may break some; 1 info. */
  level: number;
  operation?: string;
  path?: string;
}

/** The levels of oasdiff's JSON output. */
export const oasdiffLevel = { error: 3, warning: 2, info: 1 } as const;

/**
 * Every change from `base` to `revision` (two contract files, YAML or JSON), by oasdiff's
 * changelog. `externalRefs`: whether a $ref to another file is followed (relative to the file that
 * holds it). Only for contracts that are the user's own files: in a contract a service served, a
 * $ref must not make the kit read a local file or call another host, and oasdiff refuses it.
 * Rejects with oasdiff's own first line when it cannot read a file.
 */
export function oasdiffChanges(bin: string, base: string, revision: string, { externalRefs = false } = {}): Promise<OasdiffChange[]> {
  const args = ['changelog', base, revision, '--format', 'json', `--allow-external-refs=${externalRefs}`, '--lang', 'en'];
  return new Promise((done, fail) => {
    execFile(bin, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 5 * 60_000 }, (error, stdout, stderr) => {
      const said = (stderr.split('\n').find((line) => line.trim()) ?? '').replace(/^Error: /, '').trim();
      let changes: unknown;
      try {
        changes = JSON.parse(stdout);
      } catch {
        changes = null;
      }
      // Only a list of changes is an answer: with a .oasdiff.yaml asking for fail-on, a list comes with exit 1.
      if (Array.isArray(changes)) return done(changes as OasdiffChange[]);
      fail(new Error(`oasdiff: ${said || (error ? (error.killed ? 'took over 5 minutes' : `exited ${error.code ?? error.signal}`) : 'printed no list of changes')}`));
    });
  });
}
