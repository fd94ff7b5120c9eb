// @module-tag servers
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const parent = mkdtempSync(join(tmpdir(), 'ig-dump-files-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** A Node process that writes a dump file in a folder under `parent`, prints the folder, then ends as `ending` says. */
function writeAndEnd(ending: string): { dir: string; status: number | null; stderr: string } {
  const script = `
    import { diskDumpFiles } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'files.ts')).href)};
    const files = diskDumpFiles(${JSON.stringify(parent)});
    const file = files.create('firms.jsonl.gz');
    await file.write(new Uint8Array([1, 2, 3]));
    await file.done();
    console.log(files.dir);
    ${ending}`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return { dir: child.stdout.trim(), status: child.status, stderr: child.stderr };
}

test('a process that ends without stopping its mock takes the dump folder with it', () => {
  const { dir, status, stderr } = writeAndEnd('process.exit(0);');
  expect(status, stderr).toBe(0);
  expect(dir.startsWith(parent)).toBe(true);
  expect(existsSync(dir)).toBe(false);
});

test('nor does an error nobody caught leave it behind', () => {
  const { dir, status } = writeAndEnd("throw new Error('nobody caught this');");
  expect(status).toBe(1);
  expect(existsSync(dir)).toBe(false);
});

test('only a kill the process cannot see leaves the folder, with its files', () => {
  const { dir, status } = writeAndEnd("process.kill(process.pid, 'SIGKILL');");
  expect(status).toBe(null);
  expect(readdirSync(dir)).toEqual(['1-firms.jsonl.gz']);
});
