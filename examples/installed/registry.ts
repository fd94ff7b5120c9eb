/**
 * The kit as a user gets it: a real npm registry (verdaccio) on loopback, every public package put
 * there by `pnpm publish -r` (the one release step), and a project outside the workspace that
 * installs them with plain npm. As after a release, the `@investor-graph` scope comes from that
 * registry and nothing else does: third-party packages come straight from the registry npm is
 * configured with on this machine, not proxied through verdaccio (which tripled a cold install).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, kitCache } from '@investor-graph/cli';
import { root } from '../readme.ts';

export interface Registry {
  url: string;
  /**
   * Environment for npm and pnpm: the kit's scope from this registry, with its token; the rest upstream; the kept npm
   * cache; no telemetry.
   */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export interface Run {
  status: number | null;
  out: string;
}

/** Runs a command to its end with what it printed, stdout and stderr together. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeout?: number },
): Run {
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    ...options,
    encoding: 'utf8',
    timeout: options.timeout ?? 300_000,
  });
  return {
    status: result.status,
    out: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
  };
}

/**
 * As run, without blocking: for a command that may go on beside others (each Node's install). Its
 * output is as run gives it, stdout and then stderr.
 */
export function runAsync(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeout?: number },
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeout ?? 300_000,
    });
    let stdout = '';
    let stderr = '';
    let failed = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (error) => (failed = String(error)));
    child.on('close', (status) => resolve({ status, out: `${stdout}${stderr}${failed}` }));
  });
}

/** The registry npm uses on this machine (the uplink): asked with the user's own configuration. */
function upstreamRegistry(): string {
  const asked = run('npm', ['config', 'get', 'registry'], { cwd: root, env: process.env, timeout: 30_000 });
  const url = asked.out
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /^https?:\/\//.test(l));
  if (!url) throw new Error(`[investor-graph] npm config get registry said no URL: ${asked.out}`);
  return url;
}

/** Starts verdaccio on a loopback port (a free one by default), holding the kit's scope alone, empty. */
export async function startRegistry(dir: string, { port: wanted = 0 }: { port?: number } = {}): Promise<Registry> {
  // A storage of this run's own: what an earlier run published must not answer for this run's packages.
  const storage = join(dir, 'verdaccio-storage');
  mkdirSync(storage, { recursive: true });
  const upstream = upstreamRegistry();
  const port = wanted || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const config = join(dir, 'verdaccio.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(storage)}`,
      'auth:',
      `  htpasswd: { file: ${JSON.stringify(join(dir, 'htpasswd'))}, max_users: 1 }`,
      // No uplink: the kit's scope is all it serves, and a name it does not hold is a 404.
      'packages:',
      "  '@investor-graph/*': { access: $all, publish: $authenticated }",
      'web: { enable: false }',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const bin = binOf('verdaccio', 'bin/verdaccio');
  const child: ChildProcess = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitFor(`${url}/-/ping`, 30_000, () => log);
    // A user for publishing: verdaccio's htpasswd registration answers with a token.
    const answer = await fetch(`${url}/-/user/org.couchdb.user:kit`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kit', password: `kit-${port}-${Date.now()}` }),
    });
    const { token } = (await answer.json()) as { token?: string };
    if (!token) throw new Error(`[investor-graph] verdaccio gave no token (${answer.status})`);
    const npmrc = join(dir, 'npmrc');
    writeFileSync(
      npmrc,
      `registry=${upstream}\n@investor-graph:registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`,
      { mode: 0o600 },
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      npm_config_userconfig: npmrc,
      npm_config_registry: upstream,
      npm_config_cache: join(kitCache(), 'npm-cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      DO_NOT_TRACK: '1',
      TURBO_TELEMETRY_DISABLED: '1',
    };
    return { url, env, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The environment a user's project has once it follows `pnpm registry`'s advice: the kit's scope
 * from the registry at `url` (no token: installing needs none), everything else from upstream.
 */
export function projectEnv(url: string, dir: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const npmrc = join(dir, 'project.npmrc');
  writeFileSync(npmrc, `registry=${upstreamRegistry()}\n@investor-graph:registry=${url.replace(/\/?$/, '/')}\n`);
  // Not what `pnpm test` hands its scripts (npm_config_*, npm_package_*, PNPM_*): a user's shell has
  // none of it, and npm warns about pnpm's settings on every command, which the output checks see.
  // The machine's own way to the registry stays (its CA file, proxy, global npmrc): npm run on
  // another Node (a runtime below) looks for its global npmrc beside that Node and would miss it.
  const machine = /^npm_config_(cafile|ca|cert|key|strict_ssl|proxy|https_proxy|http_proxy|noproxy|globalconfig)$/i;
  const shell = Object.fromEntries(
    Object.entries(env).filter(([name]) => machine.test(name) || !/^(npm_|pnpm_|init_cwd$)/i.test(name)),
  );
  return {
    ...shell,
    npm_config_userconfig: npmrc,
    npm_config_cache: join(kitCache(), 'npm-cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    DO_NOT_TRACK: '1',
  };
}

async function waitFor(url: string, ms: number, log: () => string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`[investor-graph] verdaccio did not answer ${url} within ${ms} ms:\n${log()}`);
}

/** The path of a tool's command-line entry in a package that examples/ depends on. */
export function binOf(pkg: string, bin: string): string {
  return join(import.meta.dirname, '../node_modules', pkg, bin);
}
