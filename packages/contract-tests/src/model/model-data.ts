/**
 * The data the model of the service is built on (issue #65), the service's own: its nightly dump
 * through `/exports` where the key may read it, else a folder (`--data DIR`: a dump as its links lay
 * it out, or a dataset folder such as `investor-graph-dataset sync` writes), else none, and the
 * model judges behaviour only. A dump is caught up to the service's `as_of` with the changes feed
 * (`include=rows`), so that the model holds what the service serves now.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { resources, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import { loadDataset } from '@investor-graph/dataset-tools/node';
import type { ApiClient } from '../client/client.ts';

export interface ModelData {
  /** What the rows are as of (the service's `as_of` once caught up). */
  asOf: string;
  rows: Record<ResourceName, Row[]>;
  /** Where they came from, as the report says it. */
  source: string;
}

/** A dump the model reads whole into memory, at most (decompressed): past it, the model judges behaviour only. */
export const MODEL_DATA_MAX_BYTES = 256 * 1024 * 1024;

interface DumpDay {
  date: string;
  generated_at: string;
  files: { name: string; resource: string; rows: number; bytes: number; url: string }[];
}

const emptyRows = (): Record<ResourceName, Row[]> =>
  Object.fromEntries(resources.map((r) => [r.name, []])) as unknown as Record<ResourceName, Row[]>;

/** Rows of gzip JSONL, one JSON object a line; bounded by MODEL_DATA_MAX_BYTES. */
function rowsOfGzip(bytes: Uint8Array, name: string): Row[] {
  const text = gunzipSync(bytes, { maxOutputLength: MODEL_DATA_MAX_BYTES }).toString('utf8');
  const rows: Row[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as unknown;
    if (row === null || typeof row !== 'object' || Array.isArray(row)) throw new Error(`${name}: a line is no object`);
    rows.push(row as Row);
  }
  return rows;
}

/** The newest day of an exports answer (or of one day of it, as a kept `manifest.json` may hold). */
function newestDay(manifest: unknown): DumpDay | null {
  const data = (manifest as { data?: unknown } | null)?.data ?? manifest;
  const days = (Array.isArray(data) ? data : [data]) as DumpDay[];
  const day = days.find((d) => typeof d?.date === 'string' && Array.isArray(d.files));
  return day ?? null;
}

/**
 * The service's newest dump, downloaded with the run's key (a call for the manifest and one a
 * file), then caught up with the changes feed to `asOf`, within `spare` of the run's budget. Null,
 * saying why, where it cannot be had.
 */
export async function dataFromExports(
  client: ApiClient,
  asOf: string,
  spare: { calls: number; rows: number },
): Promise<ModelData | string> {
  // What the budget must still hold when the model is built: all but its spare.
  const keep = { calls: client.remaining.calls - spare.calls, rows: client.remaining.rows - spare.rows };
  const left = () => ({ calls: client.remaining.calls - keep.calls, rows: client.remaining.rows - keep.rows });
  if (spare.calls < 2) return `the budget cannot spare the dump's calls`;
  const manifest = await client.call('/api/v1/exports', { rows: 1 });
  if (manifest.status !== 200) return `the exports manifest answered ${manifest.status}`;
  const day = newestDay(manifest.body);
  if (!day) return 'the exports manifest lists no dump';
  if (day.files.length > left().calls)
    return `the budget cannot spare the dump's ${day.files.length} files (a tenth of it: ${spare.calls} calls)`;
  const total = day.files.reduce((sum, f) => sum + (Number(f.bytes) || 0), 0);
  if (total > MODEL_DATA_MAX_BYTES / 8) return `the dump is ${total} bytes: more than the model reads into memory`;
  const rows = emptyRows();
  for (const file of day.files) {
    const resource = resources.find((r) => r.name === file.resource);
    if (!resource) continue;
    const path = new URL(file.url, 'http://service.invalid').pathname;
    const answer = await client.call(path, { raw: true, rows: 0 });
    if (answer.status !== 200 || !answer.bytes) return `the dump file ${file.name} answered ${answer.status}`;
    rows[resource.name] = rowsOfGzip(answer.bytes, file.name);
  }
  const caught = await catchUp(client, rows, day.generated_at, asOf, left);
  return { asOf: caught, rows, source: `the service's dump of ${day.date}, caught up with the changes feed` };
}

/**
 * Applies the feed from `since` on (creates and updates with their rows, unpublishes) until it
 * ends; the `as_of` the data is then as of (the feed's, or `asOf` when it lists nothing).
 */
async function catchUp(
  client: ApiClient,
  rows: Record<ResourceName, Row[]>,
  since: string,
  asOf: string,
  left: () => { calls: number; rows: number },
): Promise<string> {
  const index = new Map(resources.map((r) => [r.name, new Map(rows[r.name].map((row, i) => [row[r.key], i]))]));
  let cursor: string | null = null;
  let seen = asOf;
  const from = `${since.slice(0, 19)}Z`;
  // Within the budget's spare: a feed longer than that leaves the model as of its last page (allowed.ts: no-data).
  for (let page = 0; page < 50 && left().calls >= 1 && left().rows >= 500; page++) {
    const query = `since=${encodeURIComponent(from)}&include=rows&limit=500${cursor ? `&cursor=${cursor}` : ''}`;
    const answer = await client.call(`/api/v1/changes?${query}`, { rows: 500 });
    if (answer.status !== 200) break;
    const page = answer.body as { as_of?: string; data: FeedItem[]; next_cursor: string | null };
    seen = page.as_of ?? seen;
    for (const item of page.data) apply(rows, index, item);
    cursor = page.next_cursor ? encodeURIComponent(page.next_cursor) : null;
    if (!cursor) break;
  }
  return seen;
}

type FeedItem = { kind: string; resource: ResourceName; key: string; row: Row | null };

function apply(
  rows: Record<ResourceName, Row[]>,
  index: Map<ResourceName, Map<unknown, number>>,
  item: FeedItem,
): void {
  const of = index.get(item.resource);
  if (!of) return;
  const at = of.get(item.key);
  if (item.kind === 'unpublish') {
    if (at !== undefined) rows[item.resource][at] = null as unknown as Row;
    of.delete(item.key);
  } else if (item.row) {
    if (at === undefined) of.set(item.key, rows[item.resource].push(item.row) - 1);
    else rows[item.resource][at] = item.row;
  }
}

/** Rows without the ones an unpublish took out, each resource in its key order (as its list serves it). */
export function settled(rows: Record<ResourceName, Row[]>): Record<ResourceName, Row[]> {
  const out = emptyRows();
  for (const { name, key } of resources)
    out[name] = rows[name]
      .filter((row): row is Row => row !== null)
      .sort((a, b) => (String(a[key]) < String(b[key]) ? -1 : String(a[key]) > String(b[key]) ? 1 : 0));
  return out;
}

/**
 * A folder given as `--data`: a dataset folder (what `investor-graph-dataset sync` writes) or a
 * dump as its links lay it out (`manifest.json` and `<date>/<name>` or the files beside it).
 */
export async function dataFromFolder(dir: string): Promise<ModelData> {
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile) || !statSync(manifestFile).isFile())
    throw new Error(`[contract-tests] --data ${dir}: there is no manifest.json`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { as_of?: unknown };
  const day = newestDay(manifest);
  if (!day) {
    const dataset = await loadDataset(dir);
    return { asOf: dataset.manifest.as_of, rows: dataset.rows, source: `the dataset folder ${dir}` };
  }
  const rows = emptyRows();
  for (const file of day.files) {
    const resource = resources.find((r) => r.name === file.resource);
    if (!resource) continue;
    const path = [join(dir, day.date, file.name), join(dir, file.name)].find((p) => existsSync(p));
    if (!path) throw new Error(`[contract-tests] --data ${dir}: the dump file ${file.name} is not there`);
    rows[resource.name] = rowsOfGzip(readFileSync(path), file.name);
  }
  return { asOf: day.generated_at, rows, source: `the dump of ${day.date} in ${dir}` };
}
