/**
 * Figures of `--data` on a nightly dump, printed, not asserted (a timed assertion fails on a busy
 * machine): how long the real CLI takes to refuse a 100 MiB line (100 KB of gzip), and the time and
 * peak memory of reading a normal dump (the dataset tools' generator's rows) per MB of its JSONL.
 *
 *   node packages/mock/src/cli/read-figures.test-support.ts [rows]   (default 200,000)
 *
 * Each read runs in a process of its own, so its peak RSS is the read's, not the generator's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { writeDumpFolder } from '../dumps/read/dump-folder.test-support.ts';
import { readDumpFolder } from '../dumps/read/dump-folder.ts';
import { openDump } from '../dumps/read/open-dump.ts';
import { cli } from './cli-process.test-support.ts';

const mib = 1024 * 1024;

/** Reads the dump in `dir` as --data does, into a fresh cache, and prints what it took as JSON. */
function readOnce(dir: string): void {
  const cache = mkdtempSync(join(tmpdir(), 'ig-read-figures-cache-'));
  const before = process.resourceUsage().maxRSS / 1024;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const day = readDumpFolder(dir)!;
  openDump(day, { dir: cache }).db.close();
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpuBefore);
  const cpu = (user + system) / 1e6;
  const peak = process.resourceUsage().maxRSS / 1024;
  rmSync(cache, { recursive: true, force: true });
  const jsonl = day.files.reduce((sum, f) => sum + gunzipSync(readFileSync(f.path)).length, 0) / 1e6;
  const gzip = day.files.reduce((sum, f) => sum + f.bytes, 0) / 1e6;
  const rows = day.files.reduce((sum, f) => sum + f.rows, 0);
  console.log(JSON.stringify({ rows, gzip, jsonl, seconds, cpu, before, peak }));
}

/** Seconds the real CLI takes to end on a dump of one 100 MiB line, with what it said (capped at `cap` s). */
async function refusal(temp: string, cap = 60): Promise<string> {
  const dir = join(temp, 'long-line');
  mkdirSync(join(dir, '2026-11-20'), { recursive: true });
  const bytes = gzipSync(`{"slug":"a","name":"${'x'.repeat(100 * mib)}"}\n`);
  writeFileSync(join(dir, '2026-11-20', 'firms.jsonl.gz'), bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const file = { name: 'firms.jsonl.gz', resource: 'firm', rows: 1, bytes: bytes.length, sha256, url: 'http://x/f' };
  const manifest = { data: [{ date: '2026-11-20', generated_at: '2026-11-20T04:00:00Z', files: [file] }] };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const started = performance.now();
  const child = spawn(process.execPath, [cli, '--data', dir, '--port', '0'], {
    env: { ...process.env, KIT_CACHE: join(temp, 'cache') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  child.stderr.on('data', (d: Buffer) => (said += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), cap * 1000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const ended = code === null ? `still reading after ${cap} s (killed)` : `exit ${code} after ${seconds} s`;
  const gzip = bytes.length.toLocaleString('en');
  return `a 100 MiB line (${gzip} bytes of gzip): ${ended}\n  ${said.trim().split('\n').at(-1)}`;
}

/** A normal dump of about `scale` rows, read by a process of its own; its figures per MB. */
function normal(temp: string, scale: number): string {
  const dir = join(temp, 'normal');
  writeDumpFolder(dir, collectDataset({ seed: 'read-figures', scale, asOf: defaultDataset.asOf }).rows);
  const read = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--read', dir], { encoding: 'utf8' });
  if (read.status !== 0) throw new Error(read.stderr);
  const f = JSON.parse(read.stdout) as Record<
    'rows' | 'gzip' | 'jsonl' | 'seconds' | 'cpu' | 'before' | 'peak',
    number
  >;
  return (
    `a normal dump: ${f.rows.toLocaleString('en')} rows, ${f.jsonl.toFixed(1)} MB of JSONL (${f.gzip.toFixed(1)} MB ` +
    `gzip), read in ${f.seconds.toFixed(2)} s (${((f.seconds * 1000) / f.jsonl).toFixed(1)} ms per MB of JSONL), ` +
    `${f.cpu.toFixed(2)} CPU-seconds (${((f.cpu * 1000) / f.jsonl).toFixed(1)} ms per MB, both threads); ` +
    `peak RSS ${f.peak.toFixed(0)} MB, ${f.before.toFixed(0)} MB before reading ` +
    `(${((f.peak - f.before) / f.jsonl).toFixed(2)} MB per MB of JSONL above it)`
  );
}

if (process.argv[2] === '--read') readOnce(process.argv[3]!);
else {
  const temp = mkdtempSync(join(tmpdir(), 'ig-read-figures-'));
  try {
    console.log(await refusal(temp));
    console.log(normal(temp, Number(process.argv[2] ?? 200_000)));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
