import { mkdtempSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { loadDataset } from '@investor-graph/dataset-tools/node';
import { datasetDir } from '@investor-graph/dataset';
import { readDumpFolder } from './dump-folder.ts';
import { writeDumpFolder } from './dump-folder.test-support.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-dump-folder-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const { rows } = await loadDataset(datasetDir);
let n = 0;
const folder = (): string => join(temp, `dump-${++n}`);

test('a dataset folder is no dump: its manifest is not an export manifest', () => {
  expect(readDumpFolder(datasetDir)).toBeNull();
});

test("the manifest's files are found under <date>/<name> or beside it, in the order rounds come before edges", () => {
  for (const flat of [false, true]) {
    const dir = folder();
    writeDumpFolder(dir, { investment: rows.investment, round: rows.round, firm: rows.firm }, { flat });
    const day = readDumpFolder(dir)!;
    expect(day.files.map((f) => f.resource)).toEqual(['firm', 'round', 'investment']);
    expect(day.files.map((f) => f.path)).toEqual(
      ['firms', 'rounds', 'investments'].map((p) => join(dir, flat ? '' : '2026-11-20', `${p}.jsonl.gz`)),
    );
    expect(day).toMatchObject({ date: '2026-11-20', generated_at: '2026-11-20T04:00:00Z' });
    // What the start says of the dump as a whole: the resources it has no file of.
    expect(day.notes).toContain('company: the dump has no file of companies: none served');
  }
});

test('of the days a manifest lists, the newest whose files are all there is served', () => {
  const dir = folder();
  const older = writeDumpFolder(dir, { firm: rows.firm }, { date: '2026-11-19' });
  const olderManifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  writeDumpFolder(dir, { firm: rows.firm.slice(1) }, { date: '2026-11-20' });
  const newer = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  // Listed oldest first: the newest is found by its date, not its place.
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ data: [...olderManifest.data, ...newer.data] }));
  expect(readDumpFolder(dir)!.date).toBe('2026-11-20');
  renameSync(join(dir, '2026-11-20'), join(dir, 'elsewhere'));
  expect(readDumpFolder(dir)!.files[0]!.path).toBe(older.files[0]!.path);
});

test('a file the manifest lists that is not there is one line naming where it was looked for', () => {
  const dir = folder();
  writeDumpFolder(dir, { firm: rows.firm });
  rmSync(join(dir, '2026-11-20', 'firms.jsonl.gz'));
  expect(() => readDumpFolder(dir)).toThrow(
    `[investor-graph mock] --data ${dir}: the manifest's newest dump (2026-11-20) lists firms.jsonl.gz, which is ` +
      `neither at ${join(dir, '2026-11-20', 'firms.jsonl.gz')} nor at ${join(dir, 'firms.jsonl.gz')}`,
  );
});

test('a file of another size than the manifest says is refused before a row is read', () => {
  const dir = folder();
  const { files } = writeDumpFolder(dir, { firm: rows.firm });
  writeFileSync(files[0]!.path, 'not the file');
  expect(() => readDumpFolder(dir)).toThrow(
    /firms\.jsonl\.gz is 12 bytes where the manifest says [\d,]+: not the file/,
  );
});

test('a manifest naming a file outside the folder, or with no sha256, is refused', () => {
  const dir = folder();
  writeDumpFolder(dir, { firm: rows.firm });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  for (const bad of [{ name: '../../etc/passwd' }, { sha256: undefined }]) {
    const day = { ...manifest.data[0], files: [{ ...manifest.data[0].files[0], ...bad }] };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ data: [day] }));
    expect(() => readDumpFolder(dir)).toThrow('lists a file without a plain name, resource, rows, bytes and sha256');
  }
});

test('a manifest.json past 64 MiB, more than a page of the API holds, is refused before it is read', () => {
  const dir = folder();
  writeDumpFolder(dir, { firm: rows.firm });
  truncateSync(join(dir, 'manifest.json'), 64 * 1024 * 1024 + 1);
  expect(() => readDumpFolder(dir)).toThrow(
    `--data ${dir}: ${join(dir, 'manifest.json')} is over 67,108,864 bytes, more than any manifest of the API`,
  );
});
