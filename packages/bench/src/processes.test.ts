// @module-tag servers
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { cpuMsOf } from './processes.ts';

test.runIf(process.platform === 'linux')(
  "a process's CPU time is read from /proc and grows as it works; a process that is gone reads NaN",
  () => {
    const before = cpuMsOf(process.pid);
    expect(before).toBeGreaterThan(0);
    // Busy for 150 ms of CPU (the ticks are 10 ms).
    const started = process.cpuUsage();
    let spin = 0;
    while ((process.cpuUsage(started).user + process.cpuUsage(started).system) / 1000 < 150) spin++;
    expect(spin).toBeGreaterThan(0);
    const after = cpuMsOf(process.pid);
    expect(after - before).toBeGreaterThanOrEqual(100);
    expect(after - before).toBeLessThan(1_000);
    expect(cpuMsOf(2 ** 22 + 1)).toBeNaN();
  },
);

test.runIf(process.platform === 'linux')(
  'a process whose name holds ") " is read after its name, not inside it',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ig-bench-cpu-'));
    const named = join(dir, 'x) 1 2 3 4 5');
    copyFileSync('/bin/sleep', named);
    chmodSync(named, 0o755);
    const child = spawn(named, ['5'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      // Read inside the name, the fields would be shifted five along: the process's flags, not its CPU.
      expect(cpuMsOf(child.pid!)).toBeGreaterThanOrEqual(0);
      expect(cpuMsOf(child.pid!)).toBeLessThan(1_000);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
