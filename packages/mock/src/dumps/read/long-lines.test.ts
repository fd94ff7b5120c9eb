/**
 * A dump file's lines as the reader cuts them (read-worker.ts): a line past the bound is refused
 * with one line naming the file and the line, and the bound sits above every row the contract allows.
 * How fast a 100 MiB line is refused is measured, not asserted here (a timed assertion fails on a
 * busy machine): see src/cli/read-figures.test-support.ts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, expect, test } from 'vitest';
import { storedRows, type StoredRow } from '@investor-graph/dataset-tools/database';
import { readDumpFolder } from './dump-folder.ts';
import { lineBound } from './line-splitter.ts';
import { openDump } from './open-dump.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-long-lines-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let n = 0;

/** A dump folder whose firms file holds `text` as it is (gzipped), listed in its manifest as `rows` rows. */
function dumpOf(text: string | Buffer, rows: number): string {
  const dir = join(temp, `dump-${++n}`);
  mkdirSync(join(dir, '2026-11-20'), { recursive: true });
  const bytes = gzipSync(text);
  writeFileSync(join(dir, '2026-11-20', 'firms.jsonl.gz'), bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const file = { name: 'firms.jsonl.gz', resource: 'firm', rows, bytes: bytes.length, sha256, url: 'http://x/f' };
  const day = { date: '2026-11-20', generated_at: '2026-11-20T04:00:00Z', files: [file] };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ data: [day], next_cursor: null }));
  return dir;
}

const read = (dir: string) => openDump(readDumpFolder(dir)!, { dir: join(temp, 'cache') });

test('a 100 MiB line (100 KB of gzip) is refused, naming the file and the line, before it is read whole', () => {
  const firm = JSON.stringify({ slug: 'a', name: 'A' });
  const long = `{"slug":"b","name":"${'x'.repeat(100 * 1024 * 1024)}"}`;
  const dir = dumpOf(`${firm}\n\n${long}\n`, 2);
  expect(() => read(dir)).toThrow(
    `[investor-graph mock] --data ${dir}: firms.jsonl.gz line 3 is over 8 MiB (8,388,608 bytes), longer than ` +
      'any row the contract allows: not a dump of the API',
  );
});

test('a line of exactly the bound is read; one byte more is refused, even with no newline at its end', () => {
  const row = (length: number) => {
    const head = '{"slug":"a","name":"';
    return `${head}${'x'.repeat(length - head.length - 2)}"}`;
  };
  const opened = read(dumpOf(`${row(lineBound)}\n`, 1));
  expect(opened.manifest.rows.firm).toBe(1);
  opened.db.close();
  expect(() => read(dumpOf(row(lineBound + 1), 1))).toThrow('firms.jsonl.gz line 1 is over 8 MiB');
});

test('a line that is no JSON is named by its line in the file, blank lines counted', () => {
  const dir = dumpOf('{"slug":"a"}\n\n{"slug":\n', 2);
  expect(() => read(dir)).toThrow(`--data ${dir}: firms.jsonl.gz line 3 is not JSON`);
});

test('rows of many characters, cut by gzip mid-character, are read as written', () => {
  // Three- and four-byte characters, and rows longer than a chunk of gunzip's output (16 KiB).
  const rows = Array.from({ length: 50 }, (_, i) => ({ slug: `s${i}`, name: `€😀${'é'.repeat(i * 500)}` }));
  const opened = read(dumpOf(`${rows.map((r) => JSON.stringify(r)).join('\n')}\n`, rows.length));
  const stored = opened.db.prepare('SELECT * FROM firm ORDER BY key').all() as unknown as StoredRow[];
  const served = stored.map((s) => storedRows(opened.db).row('firm', s));
  expect(served).toEqual([...rows].sort((a, b) => (a.slug < b.slug ? -1 : 1)));
  opened.db.close();
});
