/**
 * A nightly dump folder made from rows, as the service lays one out (manifest.json with the export
 * manifest's answer, each resource's rows as gzip JSONL under <date>/<name> or beside it), for the
 * tests of --data DIR on dumps the kit's own mock would never write.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { resources, type ResourceName, type Row } from '@investor-graph/dataset-tools';

export function writeDumpFolder(
  dir: string,
  rows: Partial<Record<ResourceName, Row[]>>,
  { date = '2026-11-20', flat = false }: { date?: string; flat?: boolean } = {},
): { date: string; files: { name: string; path: string; rows: number; bytes: number; sha256: string }[] } {
  mkdirSync(join(dir, flat ? '' : date), { recursive: true });
  const files = resources
    .filter((r) => rows[r.name])
    .map((r) => {
      const name = `${r.plural}.jsonl.gz`;
      const lines = rows[r.name]!.map((row) => JSON.stringify(row));
      const bytes = gzipSync(lines.length ? `${lines.join('\n')}\n` : '');
      const path = join(dir, flat ? '' : date, name);
      writeFileSync(path, bytes);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      return { name, resource: r.name, path, rows: lines.length, bytes: bytes.length, sha256 };
    });
  const day = {
    date,
    generated_at: `${date}T04:00:00Z`,
    files: files.map(({ path: _path, ...f }) => ({ ...f, url: `http://127.0.0.1/api/v1/exports/${date}/${f.name}` })),
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ data: [day], next_cursor: null }));
  return { date, files };
}
