/**
 * The real CLI as a separate process, for the tests that need one (cli.test.ts, state.test.ts):
 * started on a free loopback port, waited for until its banner names its URL, and stopped by
 * signal. Every process started is in `running`, so a test file's afterAll can kill what is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
export const running = new Set<ChildProcess>();

/** Starts `investor-graph-mock ARGS --port 0` and resolves once its banner says where it listens. */
export function start(...args: string[]): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  return startWith({}, ...args);
}

/** start, with variables added to the environment (KIT_CACHE, say). */
export async function startWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli, ...args, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 20 s:\n${output}`)), 20_000);
    const check = (): void => {
      const m = /(?:mock|proxy) on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', () => reject(new Error(`exited early:\n${output}`)));
  });
  return { url, output: () => output, child };
}

/** Sends `signal` and resolves with the exit code once the process has exited (at once if it already has). */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

/** Kills whatever a test file left running. */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}
