/**
 * A dump folder changed between the check of its files (dump-folder.ts) and their read
 * (read-worker.ts): the reader opens the file that was checked, or refuses in one line naming it.
 */
import { mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { writeDumpFolder } from './dump-folder.test-support.ts';
import { readDumpFolder } from './dump-folder.ts';
import { openDump } from './open-dump.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-swapped-folder-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const rows = { firm: [{ slug: 'a', name: 'A' }] };

test('a dump file swapped for a link after the check is refused when the reader opens it', () => {
  const outside = join(temp, 'outside-1');
  writeDumpFolder(outside, rows);
  const dir = join(temp, 'dump-1');
  const { files } = writeDumpFolder(dir, rows);
  const day = readDumpFolder(dir)!;
  rmSync(files[0]!.path);
  symlinkSync(join(outside, '2026-11-20', 'firms.jsonl.gz'), files[0]!.path);
  expect(() => openDump(day, { dir: join(temp, 'cache') })).toThrow(
    `[investor-graph mock] --data ${dir}: ${files[0]!.path} is a symbolic link: --data reads only what is inside ` +
      'its folder, through no link',
  );
});

test("a day's folder swapped for a link after the check is refused: its file is not the one checked", () => {
  const outside = join(temp, 'outside-2');
  writeDumpFolder(outside, rows);
  const dir = join(temp, 'dump-2');
  const { files } = writeDumpFolder(dir, rows);
  const day = readDumpFolder(dir)!;
  renameSync(join(dir, '2026-11-20'), join(temp, 'checked-day'));
  symlinkSync(join(outside, '2026-11-20'), join(dir, '2026-11-20'));
  expect(() => openDump(day, { dir: join(temp, 'cache') })).toThrow(
    `[investor-graph mock] --data ${dir}: ${files[0]!.path} is not the file checked before it was read: the ` +
      'folder changed under it',
  );
});
