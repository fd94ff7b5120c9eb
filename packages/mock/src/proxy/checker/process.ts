/**
 * The validation proxy's checks of large answers, in a process of their own (child.ts):
 * one rule on an answer of megabytes takes hundreds of milliseconds (the no-people scan of an 8 MB
 * page, ~400 ms here), which on the proxy's thread would hold every other client that long. One
 * process, started at the first large answer; jobs queued here and sent one at a time, so a
 * process that dies (out of its heap, say) takes only its own job with it, rejected for the proxy
 * to report not_validated, and the next job starts a new one. Stopped once idle, which gives all
 * its memory back.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Checker, CheckJob, CheckResult } from '../check.ts';
import type { CheckReply } from './child.ts';

export interface CheckProcessOptions {
  /** The checks' heap (V8's old generation), MB: 1,024. */
  maxHeapMb?: number;
  /** The process stops after this long without a job: 30 s. */
  idleMs?: number;
}

export interface CheckProcess {
  check: Checker;
  /** Stops the process, failing the job it holds and those queued. */
  close(): Promise<void>;
}

const entry = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './child.ts' : './child.js', import.meta.url));

export function checkProcess(options: CheckProcessOptions = {}): CheckProcess {
  interface Queued {
    job: CheckJob;
    resolve(result: CheckResult): void;
    reject(error: Error): void;
  }
  const queue: Queued[] = [];
  let current: Queued | null = null;
  let child: ChildProcess | null = null;
  let idle: NodeJS.Timeout | undefined;

  const settle = (outcome: CheckReply | Error): void => {
    const done = current;
    current = null;
    if (!done) return;
    if (outcome instanceof Error) done.reject(outcome);
    else if ('error' in outcome) done.reject(new Error(outcome.error));
    else done.resolve(outcome);
  };
  /** Busy, the process keeps the proxy's process alive (a caller awaits it); idle, it does not. */
  const hold = (busy: boolean): void => {
    for (const handle of [child, child?.channel, child?.stderr as Socket | null | undefined]) {
      if (busy) handle?.ref();
      else handle?.unref();
    }
  };
  const start = (): ChildProcess => {
    const execArgv = [
      ...process.execArgv.filter((a) => !a.startsWith('--max-old-space-size')),
      `--max-old-space-size=${options.maxHeapMb ?? 1_024}`,
    ];
    const started = fork(entry, [], {
      serialization: 'advanced',
      execArgv,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    // The last of what it said, to tell why it stopped (V8 says "heap out of memory" as it aborts).
    let said = '';
    started.stderr!.on('data', (d: Buffer) => (said = (said + String(d)).slice(-4_000)));
    started.on('message', (reply: CheckReply) => (settle(reply), next()));
    started.on('error', (error) => settle(error));
    started.on('exit', (code, signal) => {
      if (child === started) child = null;
      const why = /heap out of memory/i.test(said) ? ': out of memory' : '';
      settle(new Error(`the checks' process stopped (${signal ?? `exit ${code}`})${why}`));
      next();
    });
    return started;
  };
  function next(): void {
    if (current) return;
    const job = queue.shift();
    clearTimeout(idle);
    if (!job) {
      hold(false);
      idle = setTimeout(() => child?.connected && child.disconnect(), options.idleMs ?? 30_000).unref();
      return;
    }
    current = job;
    child ??= start();
    hold(true);
    child.send(job.job);
  }

  return {
    check: (job) =>
      new Promise<CheckResult>((resolve, reject) => {
        queue.push({ job, resolve, reject });
        next();
      }),
    async close() {
      clearTimeout(idle);
      for (const queued of queue.splice(0))
        queued.reject(new Error('the proxy stopped before this answer was checked'));
      const stopping = child;
      if (!stopping) return;
      await new Promise<void>((resolve) => {
        stopping.once('exit', () => resolve());
        stopping.kill();
      });
    },
  };
}
