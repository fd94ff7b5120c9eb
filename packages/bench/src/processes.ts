/** Servers under test run in processes of their own, so their CPU and memory are their own. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Started {
  url: string;
  child: ChildProcess;
  /** From spawn to the line that says it listens. */
  startMs: number;
  /** What it printed until then. */
  output(): string;
  rssMb(): number;
  /** CPU time used so far, ms (NaN where it cannot be read). */
  cpuMs: () => number;
  /** The most it has been resident since it started (Linux's high-water mark), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** Resident memory of a process from /proc, in MB (Linux): now (VmRSS) or its peak so far (VmHWM). */
export function rssOf(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/**
 * CPU time a process has used, user and system, in ms (Linux's /proc, whose ticks are USER_HZ,
 * 100 a second on every architecture Node runs on); NaN where there is no /proc.
 */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name, which may hold spaces and ends at the last ')': utime
    // and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The command line as an error may show it: a preset key's value blanked (keys appear in no output). */
const shown = (command: string, args: string[]): string =>
  [command, ...args.map((a) => a.replace(/^([a-z]+=).+$/, '$1...'))].join(' ');

/** Spawns and waits for `ready` in its output; `url` is built from the first capture group or given. */
export function startProcess(
  command: string,
  args: string[],
  ready: RegExp,
  options: { env?: Record<string, string>; timeoutMs?: number; url?: string } = {},
): Promise<Started> {
  const started = performance.now();
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1', ...options.env },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${shown(command, args)} did not start within ${options.timeoutMs ?? 120_000} ms:\n${output.slice(-2000)}`,
        ),
      );
    }, options.timeoutMs ?? 120_000);
    const check = (data: Buffer): void => {
      output += data.toString();
      const m = ready.exec(output);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.stderr.off('data', check);
      // Keep draining so a chatty server never blocks on a full pipe.
      child.stdout.resume();
      child.stderr.resume();
      resolve({
        url: options.url ?? m[1]!,
        child,
        startMs: Math.round(performance.now() - started),
        output: () => output,
        rssMb: () => rssOf(child.pid!),
        cpuMs: () => cpuMsOf(child.pid!),
        peakRssMb: () => rssOf(child.pid!, 'VmHWM'),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
          }),
      });
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${shown(command, args)} exited with ${code} before it was ready:\n${output.slice(-2000)}`));
    });
  });
}

/** Runs a command to its end; resolves with its exit code (output drained, not kept). */
export function runProcess(command: string, args: string[], env: Record<string, string> = {}): Promise<number | null> {
  const child = spawn(command, args, { stdio: 'ignore', env: { ...process.env, ...env } });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
