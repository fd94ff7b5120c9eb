// @module-tag servers
/**
 * `--data DIR` on a folder made to hurt: links out of it, a FIFO where a file belongs, a folder where
 * a file belongs. The real CLI refuses each at once with one line naming the path and exit 2, and
 * reads nothing outside the folder (no database of it lands in the cache).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { datasetDir } from '@investor-graph/dataset';
import { cli } from '../../cli/cli-process.test-support.ts';
import { writeDumpFolder } from './dump-folder.test-support.ts';
import { readDumpFolder } from './dump-folder.ts';
import { openDump } from './open-dump.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-hostile-folder-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const cache = join(temp, 'cache');
const rows = {
  firm: [
    { slug: 'a', name: 'A' },
    { slug: 'b', name: 'B' },
  ],
};
let n = 0;
const folder = (): string => join(temp, `folder-${++n}`);
const dayOf = (dir: string): string => join(dir, '2026-11-20');

/** A FIFO at `path` (mkfifo(1): Node has no call for one); false where there is no mkfifo. */
function makeFifo(path: string): boolean {
  try {
    execFileSync('mkfifo', [path]);
    return true;
  } catch {
    return false;
  }
}
const hasMkfifo = makeFifo(join(temp, 'probe-fifo'));

/** The mock started on `dir`: its exit code, its stderr's lines and how long it took. */
function startOn(dir: string): { status: number | null; lines: string[]; ms: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, [cli, '--data', dir, '--port', '0'], {
    encoding: 'utf8',
    // A start that hangs (a FIFO opened for reading) is ended here, and the test fails on its status.
    timeout: 20_000,
    env: { ...process.env, KIT_CACHE: cache },
  });
  return { status: run.status, lines: run.stderr.trim().split('\n'), ms: performance.now() - started };
}

/** The start on `dir` refused with one line naming `path` as `what`, exit 2, and no database made of it. */
function expectRefused(dir: string, path: string, what: string): void {
  const run = startOn(dir);
  expect(run.status, run.lines.join('\n')).toBe(2);
  expect(run.lines).toEqual([`[investor-graph mock] --data ${dir}: ${path} is ${what}`]);
  expect(run.ms).toBeLessThan(15_000);
  const databases = existsSync(join(cache, 'datasets')) ? readdirSync(join(cache, 'datasets')) : [];
  expect(databases.filter((name) => name.startsWith('dump-'))).toEqual([]);
}

const linkWords = 'a symbolic link: --data reads only what is inside its folder, through no link';
const datasetLinkWords = 'a symbolic link: a dataset folder is read only from what is inside it, through no link';

test('a dump whose manifest.json links to one outside the folder is refused, naming the link', () => {
  const outside = folder();
  writeDumpFolder(outside, rows);
  const dir = folder();
  mkdirSync(dir);
  cpSync(dayOf(outside), dayOf(dir), { recursive: true });
  symlinkSync(join(outside, 'manifest.json'), join(dir, 'manifest.json'));
  expectRefused(dir, join(dir, 'manifest.json'), linkWords);
});

test('a dump file that links to one outside the folder is refused, naming the link', () => {
  const outside = folder();
  writeDumpFolder(outside, rows);
  const dir = folder();
  writeDumpFolder(dir, rows);
  const file = join(dayOf(dir), 'firms.jsonl.gz');
  rmSync(file);
  symlinkSync(join(dayOf(outside), 'firms.jsonl.gz'), file);
  expectRefused(dir, file, linkWords);
});

test("a day's folder that links to one outside the folder is refused, naming the link", () => {
  const dir = folder();
  writeDumpFolder(dir, rows);
  const outside = folder();
  renameSync(dayOf(dir), outside);
  symlinkSync(outside, dayOf(dir));
  expectRefused(dir, dayOf(dir), linkWords);
});

test('manifest.json that is a folder is refused, naming it, not a crash of EISDIR', () => {
  const dir = folder();
  mkdirSync(join(dir, 'manifest.json'), { recursive: true });
  expectRefused(dir, join(dir, 'manifest.json'), 'a folder, not a regular file');
});

test.skipIf(!hasMkfifo)('a FIFO named as a dump file is refused at once, not read for ever (needs mkfifo)', () => {
  const dir = folder();
  const { files } = writeDumpFolder(dir, rows);
  rmSync(files[0]!.path);
  makeFifo(files[0]!.path);
  // A FIFO's size is 0: a manifest that says so passes the size check, and the read is what must not block.
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  manifest.data[0].files[0].bytes = 0;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  expectRefused(dir, files[0]!.path, 'a FIFO (named pipe), not a regular file');
});

test.skipIf(!hasMkfifo)('a FIFO named manifest.json is refused at once, not read for ever (needs mkfifo)', () => {
  const dir = folder();
  mkdirSync(dir);
  makeFifo(join(dir, 'manifest.json'));
  expectRefused(dir, join(dir, 'manifest.json'), 'a FIFO (named pipe), not a regular file');
});

test.skipIf(!hasMkfifo)(
  'a dump file swapped for a FIFO after the folder was checked is refused when the reader opens it (needs mkfifo)',
  () => {
    const dir = folder();
    const { files } = writeDumpFolder(dir, rows);
    const day = readDumpFolder(dir)!;
    rmSync(files[0]!.path);
    makeFifo(files[0]!.path);
    expect(() => openDump(day, { dir: join(temp, 'swap-cache') })).toThrow(
      `[investor-graph mock] --data ${dir}: ${files[0]!.path} is a FIFO (named pipe), not a regular file`,
    );
  },
);

test('a dataset folder whose firms.jsonl links outside it is refused, naming the link', () => {
  const dir = folder();
  cpSync(datasetDir, dir, { recursive: true });
  rmSync(join(dir, 'firms.jsonl'));
  symlinkSync(join(datasetDir, 'firms.jsonl'), join(dir, 'firms.jsonl'));
  expectRefused(dir, join(dir, 'firms.jsonl'), datasetLinkWords);
});

test('a dataset folder whose firms.jsonl is a folder is refused, naming it, not a crash of EISDIR', () => {
  const dir = folder();
  cpSync(datasetDir, dir, { recursive: true });
  rmSync(join(dir, 'firms.jsonl'));
  mkdirSync(join(dir, 'firms.jsonl'));
  expectRefused(dir, join(dir, 'firms.jsonl'), 'a folder, not a regular file');
});

test.skipIf(!hasMkfifo)('a dataset folder whose firms.jsonl is a FIFO is refused at once (needs mkfifo)', () => {
  const dir = folder();
  cpSync(datasetDir, dir, { recursive: true });
  rmSync(join(dir, 'firms.jsonl'));
  makeFifo(join(dir, 'firms.jsonl'));
  expectRefused(dir, join(dir, 'firms.jsonl'), 'a FIFO (named pipe), not a regular file');
});

test('a dataset folder whose rows repeat a key, or whose manifest is no JSON, is one line naming it, exit 2', () => {
  const firms = readFileSync(join(datasetDir, 'firms.jsonl'), 'utf8').split('\n');
  const slug = (JSON.parse(firms[0]!) as { slug: string }).slug;
  for (const [name, text, why] of [
    ['firms.jsonl', `${firms[0]}\n${firms[0]}\n`, `line 2: the slug "${slug}" of line 1 again`],
    ['manifest.json', '{', "Expected property name or '}' in JSON at position 1 (line 1 column 2)"],
  ] as const) {
    const dir = folder();
    cpSync(datasetDir, dir, { recursive: true });
    writeFileSync(join(dir, name), text);
    const run = startOn(dir);
    expect(run.status, run.lines.join('\n')).toBe(2);
    expect(run.lines).toEqual([
      `[investor-graph mock] --data ${dir}: the dataset file ${name} in ${dir} is not what writeDataset writes: ${why}`,
    ]);
  }
});
