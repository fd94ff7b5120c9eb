/**
 * The kit's Go tools (k6, oasdiff): each built with the machine's Go from the Go module proxy, once,
 * into the kit's cache, never a downloaded release binary. A tool is a module pinned in a wrapper
 * folder of its package (go.mod with every dependency locked in go.sum), built with -mod=readonly,
 * so every machine builds what the kit was tested with. Plain `go install module@version` is not
 * used: it looks the module's deprecation up through the proxy's version list, which some proxies
 * answer 404, and stops there; building the pinned module from a wrapper needs no such look-up.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { goCaches, goCachesRemoval, sizeOf } from './go-caches.ts';
import { kitCache } from './kit-cache.ts';

export { goCaches, goCachesRemoval, sizeOf } from './go-caches.ts';

export interface GoTool {
  /** The binary's name (k6, oasdiff). */
  name: string;
  /** The variable that names a binary of the user's own instead (K6_BIN, OASDIFF_BIN). */
  env: string;
  /** The wrapper module's folder, whose go.mod requires `module` at the pinned version. */
  buildDir: string;
  /** The module's path as go.mod requires it, and the package `go build` makes the binary of. */
  module: string;
  /** The package to build when it is not `module`: `.`, a main of the wrapper's own (the collector's). */
  main?: string;
  /** Linker flags for the version the binary reports, where the tool takes them. */
  ldflags?: (version: string) => string;
  /** About how long a first build takes on a machine of two CPUs, said before it starts. */
  firstBuild: string;
  /** The arguments that make the binary print its version (k6 `version`, oasdiff `--version`). */
  versionArgs: string[];
}

/** A binary to run, and where it came from; or why there is none. */
export type FoundTool = { bin: string; from: 'env' | 'path' | 'cache' | 'built' } | { missing: string };

/** The version the wrapper module pins (`require <module> <version>`). */
export function pinnedVersion(tool: GoTool): string {
  const escaped = tool.module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const version = new RegExp(`^require ${escaped} (\\S+)$`, 'm').exec(
    readFileSync(join(tool.buildDir, 'go.mod'), 'utf8'),
  )?.[1];
  if (!version) throw new Error(`[investor-graph] ${join(tool.buildDir, 'go.mod')} does not require ${tool.module}`);
  return version;
}

/** Where the kit's build of the tool is (or will be): by name and pinned version in the cache. */
export function builtPath(tool: GoTool, env: NodeJS.ProcessEnv = process.env): string {
  return join(kitCache(env), `${tool.name}-${pinnedVersion(tool)}`, tool.name);
}

/** The first x.y.z a tool's version output holds, as numbers; null when it holds none. */
export function versionIn(text: string): [number, number, number] | null {
  const m = /\bv?(\d+)\.(\d+)\.(\d+)\b/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Whether a version fits the pin: the same major version, and not older than the pinned one. */
export function fitsPin(found: [number, number, number], pinned: string): boolean {
  const pin = versionIn(pinned);
  if (!pin || found[0] !== pin[0]) return false;
  return found[1] !== pin[1] ? found[1] > pin[1] : found[2] >= pin[2];
}

/** How a user without the tool gets it, said wherever it is missing. */
export function howToGet(tool: GoTool): string {
  const binary =
    tool.name === 'k6' ? 'a k6 v2 binary' : `${/^[aeiou]/.test(tool.name) ? 'an' : 'a'} ${tool.name} binary`;
  return (
    `set ${tool.env} to ${binary}, or install Go 1.26 or later ` + 'and the kit builds it once from the Go module proxy'
  );
}

/**
 * The tool's binary without building it: `$ENV` (an empty one is unset, as CI systems write it),
 * else one on PATH of a fitting version (the pinned major, not older: a user's own install first),
 * else the kit's build in its cache.
 */
export function findGoTool(tool: GoTool, env: NodeJS.ProcessEnv = process.env): FoundTool | null {
  const given = env[tool.env];
  if (given)
    return existsSync(given)
      ? { bin: given, from: 'env' }
      : { missing: `${tool.env} names ${given}, which is not there: ${howToGet(tool)}` };
  const onPath = spawnSync(tool.name, tool.versionArgs, { encoding: 'utf8', timeout: 10_000, env });
  const version = onPath.status === 0 ? versionIn(`${onPath.stdout}`) : null;
  if (version && fitsPin(version, pinnedVersion(tool))) return { bin: tool.name, from: 'path' };
  const built = builtPath(tool, env);
  if (existsSync(built)) return { bin: built, from: 'cache' };
  return null;
}

/** What a build says as it starts and ends (stderr, one line each); silent when not given. */
export type BuildNotes = (line: string) => void;

/**
 * The tool's binary, building it first when there is none (findGoTool): go's own output goes to a
 * log beside the binary, and `notes` gets a line before (what, with which Go, about how long) and
 * one after (how long it took, or where the log is). Synchronous, for a command about to run it.
 */
export function goTool(tool: GoTool, notes?: BuildNotes, env: NodeJS.ProcessEnv = process.env): FoundTool {
  const found = findGoTool(tool, env);
  if (found) return found;
  const plan = buildPlan(tool, env);
  if ('missing' in plan) return plan;
  notes?.(plan.starting);
  const started = performance.now();
  const run = spawnSync('go', plan.args, {
    cwd: tool.buildDir,
    env: plan.env,
    encoding: 'utf8',
    timeout: BUILD_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  const timedOut = run.error !== undefined && 'code' in run.error && run.error.code === 'ETIMEDOUT';
  return finish(
    plan,
    run.status === 0 && !timedOut,
    `${run.stdout ?? ''}${run.stderr ?? ''}`,
    started,
    notes,
    timedOut,
  );
}

/**
 * As goTool, without blocking: what `pnpm test` builds beside its type-check. go's output goes
 * straight into the log file, so a build left running while the caller blocks on other work never
 * waits on a full pipe.
 */
export function goToolAsync(
  tool: GoTool,
  notes?: BuildNotes,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FoundTool> {
  const found = findGoTool(tool, env);
  if (found) return Promise.resolve(found);
  const plan = buildPlan(tool, env);
  if ('missing' in plan) return Promise.resolve(plan);
  notes?.(plan.starting);
  const started = performance.now();
  const log = openSync(plan.log, 'w');
  return new Promise((resolve) => {
    const child = spawn('go', plan.args, { cwd: tool.buildDir, env: plan.env, stdio: ['ignore', log, log] });
    const timer = setTimeout(() => child.kill('SIGTERM'), BUILD_TIMEOUT_MS).unref();
    const done = (ok: boolean, timedOut: boolean, more = ''): void => {
      clearTimeout(timer);
      closeSync(log);
      resolve(finish(plan, ok, `${readFileSync(plan.log, 'utf8')}${more}`, started, notes, timedOut));
    };
    child.on('error', (error) => done(false, false, error.message));
    child.on('close', (code, signal) => done(code === 0, signal === 'SIGTERM'));
  });
}

/** How long a first build may take (modules from the proxy, then the build): a stuck one ends the wait. */
const BUILD_TIMEOUT_MS = 15 * 60_000;

interface BuildPlan {
  tool: GoTool;
  bin: string;
  /** A name of this build's own, moved into place whole: two builds at once never meet half a file. */
  partial: string;
  log: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  starting: string;
}

function buildPlan(tool: GoTool, env: NodeJS.ProcessEnv): BuildPlan | { missing: string } {
  if (spawnSync('go', ['version'], { stdio: 'ignore', timeout: 10_000, env }).status !== 0)
    return { missing: `${tool.name} is not installed, and there is no Go to build it: ${howToGet(tool)}` };
  const version = pinnedVersion(tool);
  const bin = builtPath(tool, env);
  mkdirSync(dirname(bin), { recursive: true });
  const goVersion = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8', env }).stdout.trim();
  const ldflags = tool.ldflags?.(version);
  const partial = `${bin}.${process.pid}.partial`;
  return {
    tool,
    bin,
    partial,
    log: `${bin}.build.log`,
    args: ['build', '-trimpath', ...(ldflags ? ['-ldflags', ldflags] : []), '-o', partial, tool.main ?? tool.module],
    env: {
      ...env,
      // Every cache the build makes in the kit's cache (goCaches), none in the user's ~/go or ~/.cache/go-build.
      GOPATH: goCaches(env),
      GOMODCACHE: join(goCaches(env), 'pkg', 'mod'),
      GOCACHE: join(goCaches(env), 'build'),
      // After the user's own GOFLAGS (-p=1 on a small machine, say), which they join, not replace:
      // -mod=readonly builds what go.sum locks; -modcacherw lets `rm -rf` remove the module cache.
      GOFLAGS: `${env.GOFLAGS ? `${env.GOFLAGS} ` : ''}-mod=readonly -modcacherw`,
    },
    starting:
      `[kit] building ${tool.name} ${version} with ${goVersion} from the Go module proxy, once, into ` +
      `${dirname(bin)} (about ${tool.firstBuild} on two CPUs; ${tool.env} names a binary of your own instead)`,
  };
}

function finish(
  plan: BuildPlan,
  ok: boolean,
  output: string,
  started: number,
  notes: BuildNotes | undefined,
  timedOut: boolean,
): FoundTool {
  writeFileSync(plan.log, output);
  const seconds = Math.round((performance.now() - started) / 1000);
  if (ok && existsSync(plan.partial)) {
    renameSync(plan.partial, plan.bin);
    notes?.(`[kit] ${plan.tool.name} built in ${seconds} s: ${plan.bin}`);
    notes?.(
      `[kit] the Go caches of the kit's builds: ${sizeOf(goCaches(plan.env))} in ${goCaches(plan.env)} ` +
        `(${goCachesRemoval(plan.env)} removes them; the tools built stay)`,
    );
    return { bin: plan.bin, from: 'built' };
  }
  rmSync(plan.partial, { force: true });
  const last = output.trim().split('\n').slice(-3).join(' / ');
  return {
    missing:
      `${plan.tool.name} could not be built ` +
      `(${timedOut ? `over ${BUILD_TIMEOUT_MS / 60_000} minutes` : `go build failed after ${seconds} s: ${last}`}; ` +
      `the whole output is in ${plan.log}): ${howToGet(plan.tool)}`,
  };
}
