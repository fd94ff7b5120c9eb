import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, expect, test } from 'vitest';
import { collectDataset, resources } from '@investor-graph/dataset-tools';
import { writeDataset } from '@investor-graph/dataset-tools/node';
import { dataFromFolder, settled } from './model-data.ts';

const asOf = '2026-11-20T03:00:00Z';
const dataset = collectDataset({ seed: 'model-data', scale: 100, asOf });
const temp = mkdtempSync(join(tmpdir(), 'ig-model-data-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

test('a dataset folder, as investor-graph-dataset sync writes one, gives the model its rows and as_of', async () => {
  const dir = join(temp, 'dataset');
  await writeDataset(dir, { seed: 'model-data', scale: 100, asOf });
  const data = await dataFromFolder(dir);
  expect(data.asOf).toBe(asOf);
  expect(data.rows.firm.map((r) => r.slug)).toEqual(dataset.rows.firm.map((r) => r.slug));
  expect(data.source).toBe(`the dataset folder ${dir}`);
});

test("a dump as its links lay it out gives the model the newest day's rows, as of its generated_at", async () => {
  const dir = join(temp, 'dump');
  const day = { date: '2026-11-19', generated_at: '2026-11-19T04:00:00Z', files: [] as object[] };
  mkdirSync(join(dir, day.date), { recursive: true });
  for (const { name, plural } of resources) {
    const text = dataset.rows[name].map((row) => JSON.stringify(row)).join('\n');
    writeFileSync(join(dir, day.date, `${plural}.jsonl.gz`), gzipSync(text));
    day.files.push({ name: `${plural}.jsonl.gz`, resource: name, rows: dataset.rows[name].length, url: 'x' });
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ data: [day] }));
  const data = await dataFromFolder(dir);
  expect(data.asOf).toBe(day.generated_at);
  expect(settled(data.rows).round.length).toBe(dataset.rows.round.length);
  expect(data.source).toBe(`the dump of 2026-11-19 in ${dir}`);
});

test('a folder with no manifest is refused in one line naming it', async () => {
  const dir = join(temp, 'empty');
  mkdirSync(dir);
  await expect(dataFromFolder(dir)).rejects.toThrow(`[contract-tests] --data ${dir}: there is no manifest.json`);
});
