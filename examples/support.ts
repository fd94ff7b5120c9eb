/** What the examples' tests share: whether k6 can be built here, and running a script as a reader would. */
import { spawn } from 'node:child_process';
import { canRun } from '@investor-graph/cli';

/** k6 is built with Go (investor-graph-load k6); without Go the runs that need k6 are skipped. */
export const haveGo = canRun('go', ['version']);

/** Runs a bash script to its end, as runCommand does. */
export function runBash(
  script: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; out: string }> {
  return runCommand('bash', [script, ...args], options);
}

/**
 * Runs a command to its end; resolves with its exit code and everything it printed. The command
 * runs in a process group of its own, and whatever it leaves running when it exits (a server it
 * failed to stop) is stopped with it, so a leak shows as a failed assertion, never as a test that
 * waits forever on a pipe the leftover still holds.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, detached: true });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // nothing of the group is left
      }
      child.on('close', () => resolve({ code, out }));
    });
  });
}
