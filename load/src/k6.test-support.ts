/**
 * The k6 the tests run: $K6_BIN (`pnpm test` builds it first), else the kit's build, made here with Go as a user's
 * first run makes it; and the package's own command as a user runs it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { goTool } from '@investor-graph/cli/go-tool';
import { k6Tool } from './k6-tool.ts';

export function k6Binary(): string {
  const found = goTool(k6Tool, (line) => console.error(line));
  if ('missing' in found) throw new Error(found.missing);
  return found.bin;
}

export interface Ran {
  code: number | null;
  out: string;
}

/** `investor-graph-load ARGS` as a user runs it (in the clone, from its TypeScript): its exit code and output. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'cli.ts'), ...args], {
      env: { ...process.env, K6_NO_USAGE_REPORT: 'true', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}
