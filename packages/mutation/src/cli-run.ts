/**
 * One run of the contract tests' CLI against one mutant: a fresh pair process (proxy and mock), the
 * CLI with its default flags as a CI user runs it (`INVESTOR_GRAPH_KEY`, `--base-url`, `--plan`,
 * `--seed`, and only the `--cli-arg`s a run names), in a folder of its own so its default JUnit
 * and report land there, then the proxy's counts of what the mutant changed.
 */
import { fork, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PlanId } from '@investor-graph/contract';
import type { MutantSpec } from './operators.ts';
import type { PairMessage } from './pair.ts';
import type { ProxyCounts } from './proxy.ts';

/** The contract tests' command, from its package's declared `bin`. */
export function contractTestsBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@investor-graph/contract-tests/package.json');
  const bin = (require(manifest) as { bin: Record<string, string> }).bin['investor-graph-contract-tests']!;
  return join(dirname(manifest), bin);
}

export interface SeedRun {
  seed: number;
  /** The CLI's exit code; null when it was ended (timed out) or did not start. */
  exit: number | null;
  ms: number;
  changed: number;
  changedByOperation: Record<string, number>;
  /** The properties and rules the CLI's report says broke. */
  broken: string[];
  /** The CLI's last lines of output when it exited other than 0 or 1. */
  note?: string;
  /** The same seed run again, when what broke was only a check that leans on timing (see `timingChecks`). */
  again?: { exit: number | null; broken: string[] };
}

/**
 * Checks that lean on time (a burst meeting the limiter, a head stalled 10 s, a refill waited out):
 * on a machine other people load, they can break with no answer at fault. A seed broken by these
 * alone is run once more, and kills only if it breaks again; a mutant at fault breaks them every time.
 */
export const timingChecks = new Set(['rate', 'admission', 'trial-call']);

export interface RunOptions {
  keys: Record<PlanId, string>;
  /** The command that runs the contract tests (a test gives a small fake one). */
  command?: string[];
  timeoutMs?: number;
  /** Arguments added to the CLI's own (`--no-model`); none is the CLI's default run. */
  cliArgs?: readonly string[];
}

async function startPairProcess(mutant: MutantSpec | null, keys: Record<PlanId, string>) {
  const child = fork(new URL('./pair.ts', import.meta.url), ['--pair'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const next = () =>
    new Promise<PairMessage>((resolve, reject) => {
      child.once('message', (m) => resolve(m as PairMessage));
      child.once('exit', (code) =>
        reject(new Error(`[mutation] the pair process exited (${code}): ${stderr.slice(-500)}`)),
      );
    });
  child.send({ mutant, keys });
  const started = await next();
  if (!('url' in started))
    throw new Error(`[mutation] the pair did not start: ${'error' in started ? started.error : ''}`);
  return {
    url: started.url,
    async stop(): Promise<ProxyCounts> {
      child.send('stop');
      const m = await next().catch(() => ({ counts: { answers: 0, changed: 0, changedByOperation: {} } }));
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      return 'counts' in m ? m.counts : { answers: 0, changed: 0, changedByOperation: {} };
    },
  };
}

/** Runs a command in `cwd` with `env`; its exit code (null when killed at the timeout) and the tail of its output. */
function runCommand(
  command: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ exit: number | null; tail: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (d: Buffer) => (out = (out + d.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => keep(Buffer.from(String(e))));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exit: code, tail: out });
    });
  });
}

/** What the CLI's JSON report says broke: property ids and rule ids. */
async function brokenIn(reportFile: string): Promise<string[]> {
  try {
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as {
      properties?: { id: string; status: string }[];
      rules?: { id: string; violations: number }[];
      diff?: { status?: string };
    };
    const ids = [
      ...(report.properties ?? []).filter((p) => /broken|failed/.test(p.status)).map((p) => p.id),
      ...(report.rules ?? []).filter((r) => r.violations > 0).map((r) => `rule:${r.id}`),
    ];
    return report.diff?.status === 'failed' ? ['diff', ...ids] : ids;
  } catch {
    return [];
  }
}

/** One seed of one mutant (or of none: the baseline). */
export async function runSeed(
  mutant: MutantSpec | null,
  plan: PlanId,
  seed: number,
  options: RunOptions,
): Promise<SeedRun> {
  const started = Date.now();
  const pair = await startPairProcess(mutant, options.keys);
  const cwd = await mkdtemp(join(tmpdir(), 'investor-graph-mutation-'));
  try {
    const command = options.command ?? [process.execPath, contractTestsBin()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      INVESTOR_GRAPH_KEY: options.keys[plan],
      MUTANT_ID: mutant?.id ?? '',
    };
    delete env.INVESTOR_GRAPH_KEYS;
    const { exit, tail } = await runCommand(
      [...command, '--base-url', pair.url, '--plan', plan, '--seed', String(seed), ...(options.cliArgs ?? [])],
      cwd,
      env,
      options.timeoutMs ?? 600_000,
    );
    const counts = await pair.stop();
    const broken = await brokenIn(join(cwd, 'contract-test-results', 'report.json'));
    const run: SeedRun = {
      seed,
      exit,
      ms: Date.now() - started,
      changed: counts.changed,
      changedByOperation: counts.changedByOperation,
      broken,
    };
    if (exit !== 0 && exit !== 1) run.note = tail.trim().split('\n').slice(-3).join(' | ');
    return run;
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
