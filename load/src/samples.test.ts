import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { readSamples, SamplesError } from './samples.ts';

const dir = mkdtempSync(join(tmpdir(), 'ig-samples-'));
const point = (check: string, i: number) =>
  JSON.stringify({
    metric: 'checks',
    type: 'Point',
    data: { time: new Date(1_800_000_000_000 + i).toISOString(), value: 1, tags: { check } },
  });

test("a check named in any script reads back whole, however the file's chunks fall across its characters", async () => {
  const name = 'Größe in € ✓ 名前';
  const lines = [
    JSON.stringify({ type: 'Metric', data: { name: 'checks', type: 'rate', contains: 'default' }, metric: 'checks' }),
  ];
  // Enough lines that many chunk boundaries (16 KiB out of gunzip) fall inside a character.
  for (let i = 0; i < 5_000; i++) lines.push(point(name, i));
  const file = join(dir, 'utf8.samples.json.gz');
  writeFileSync(file, gzipSync(`${lines.join('\n')}\n`));
  const names = new Map<string, number>();
  let definitions = 0;
  await readSamples(file, {
    metric: () => definitions++,
    sample: (s) => void names.set(s.tags.check!, (names.get(s.tags.check!) ?? 0) + 1),
  });
  expect(definitions).toBe(1);
  expect([...names]).toEqual([[name, 5_000]]);
});

test("a samples file cut short, or not k6's JSON lines, is a SamplesError naming the file", async () => {
  const whole = gzipSync(Array.from({ length: 2_000 }, (_, i) => point('x', i)).join('\n'));
  const cut = join(dir, 'cut.samples.json.gz');
  writeFileSync(cut, whole.subarray(0, whole.length >> 1));
  await expect(readSamples(cut, { sample: () => undefined })).rejects.toThrow(SamplesError);
  await expect(readSamples(cut, { sample: () => undefined })).rejects.toThrow(
    /cut\.samples\.json\.gz: the gzip stream ends early/,
  );
  const text = join(dir, 'text.samples.json');
  writeFileSync(text, 'time,value\n1,2\n');
  await expect(readSamples(text, { sample: () => undefined })).rejects.toThrow(
    /text\.samples\.json, line 1: not a JSON line of k6's --out json/,
  );
});
