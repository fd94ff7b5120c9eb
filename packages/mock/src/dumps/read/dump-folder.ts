/**
 * A nightly dump as a folder, laid out as the service serves it: the manifest `GET /api/v1/exports`
 * answers, saved as manifest.json (the whole answer, or one day of its `data`), and each file the
 * manifest lists, under `<date>/<name>` as its URL ends or beside the manifest under its name. The
 * newest day whose files are all there is the one served. What can be checked before reading a
 * row is checked here (each file there, of the size the manifest says); the sha256 and the row
 * counts are checked as the files are read (read-worker.ts). Nothing outside the folder is read:
 * a link, or anything but a regular file (a day's folder: a folder), is refused by name
 * (folder-entry.ts), and the reader opens the file checked here or none.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { resources } from '@investor-graph/dataset-tools';
import { isRealFolder, isRegularFile, readRegularFile } from './folder-entry.ts';

/** One file of the day served, with where it is. */
export interface DumpFileEntry {
  name: string;
  resource: string;
  rows: number;
  bytes: number;
  sha256: string;
  path: string;
  mtimeMs: number;
  /** Which file was checked: the reader opens that one or none (folder-entry.ts). */
  dev: number;
  ino: number;
}

export interface DumpDay {
  /** The folder as given. */
  dir: string;
  date: string;
  generated_at: string;
  /** The files of resources the contract has, in `resources` order (rounds before the edges naming them). */
  files: DumpFileEntry[];
  /** What the start says about the dump as a whole: a resource with no file, a file of no resource the contract has. */
  notes: string[];
}

/** A dump folder that cannot be served as it is: one line naming the folder and the file. */
export class DumpFolderError extends Error {}

/** How every such line starts: the dump, not the kit, is wrong (a worker's error says so by it too). */
export const dumpProblem = '[investor-graph mock] --data ';

/**
 * The most manifest.json may hold, in bytes: a page of the manifest's answer holds at most 1,000
 * days of 20 files (DECISIONS.md#bounds), about 46 MB with every URL at its 2,048 characters (a URI
 * is ASCII).
 */
const manifestBound = 64 * 1024 * 1024;

interface ListedDay {
  date: string;
  generated_at: string;
  files: { name: string; resource: string; rows: number; bytes: number; sha256: string }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The days a parsed manifest.json lists, or null when it is no export manifest (a dataset folder's, say). */
function listedDays(manifest: unknown): unknown[] | null {
  if (isObject(manifest) && Array.isArray(manifest.data) && manifest.data.every((d) => isObject(d) && 'files' in d))
    return manifest.data as unknown[];
  if (isObject(manifest) && Array.isArray(manifest.files) && 'date' in manifest) return [manifest];
  return null;
}

/**
 * The dump in `dir`, or null when its manifest.json is not an export manifest (then it is a dataset
 * folder, or nothing the mock reads). Throws DumpFolderError when it is one that cannot be served.
 */
export function readDumpFolder(dir: string): DumpDay | null {
  const fail = (why: string): never => {
    throw new DumpFolderError(`${dumpProblem}${dir}: ${why}`);
  };
  const text = readRegularFile(join(dir, 'manifest.json'), fail, manifestBound, 'more than any manifest of the API');
  if (text === null) return null;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.toString('utf8'));
  } catch {
    return null;
  }
  const listed = listedDays(manifest);
  if (listed === null) return null;
  const days = listed.map((day) => checkedDay(day, fail)).sort((a, b) => (a.date < b.date ? 1 : -1));
  if (!days.length) fail('manifest.json lists no dump');
  const where = (day: ListedDay, name: string): string | undefined => whereIs(dir, day.date, name, fail);
  const day = days.find((d) => d.files.every((f) => where(d, f.name) !== undefined));
  if (!day) {
    const newest = days[0]!;
    const missing = newest.files.find((f) => where(newest, f.name) === undefined)!;
    return fail(
      `the manifest's newest dump (${newest.date}) lists ${missing.name}, which is neither at ` +
        `${join(dir, newest.date, missing.name)} nor at ${join(dir, missing.name)}`,
    );
  }
  const notes: string[] = [];
  const files: DumpFileEntry[] = [];
  for (const r of resources) {
    const listedFiles = day.files.filter((f) => f.resource === r.name);
    if (listedFiles.length > 1) fail(`the manifest lists ${listedFiles.length} files of ${r.plural} for ${day.date}`);
    const file = listedFiles[0];
    if (!file) {
      notes.push(`${r.name}: the dump has no file of ${r.plural}: none served`);
      continue;
    }
    const path = where(day, file.name)!;
    const stat = lstatSync(path);
    if (stat.size !== file.bytes)
      fail(
        `${file.name} is ${stat.size.toLocaleString('en')} bytes where the manifest says ` +
          `${file.bytes.toLocaleString('en')}: not the file it lists`,
      );
    files.push({ ...file, path, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino });
  }
  for (const file of day.files.filter((f) => !resources.some((r) => r.name === f.resource)))
    notes.push(`${file.name}: of a resource the contract does not have (${file.resource}): not read`);
  return { dir, date: day.date, generated_at: day.generated_at, files, notes };
}

/**
 * Where a file the manifest lists is: under its day's folder, else beside the manifest; undefined
 * when at neither. A link, or anything else than a file (a day's: a folder) there, is refused.
 */
function whereIs(dir: string, date: string, name: string, fail: (why: string) => never): string | undefined {
  const inDay = join(dir, date, name);
  if (isRealFolder(join(dir, date), fail) && isRegularFile(inDay, fail)) return inDay;
  return isRegularFile(join(dir, name), fail) ? join(dir, name) : undefined;
}

/** A day as the manifest lists it, each member checked (a file's name must be a plain file name). */
function checkedDay(day: unknown, fail: (why: string) => never): ListedDay {
  if (!isObject(day)) return fail('manifest.json lists a dump that is not an object');
  const date = typeof day.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day.date) ? day.date : null;
  if (date === null)
    return fail(`manifest.json lists a dump whose date is not YYYY-MM-DD: ${JSON.stringify(day.date)}`);
  const generatedAt = day.generated_at;
  if (typeof generatedAt !== 'string' || !Number.isFinite(Date.parse(generatedAt)))
    return fail(`the dump of ${date} in manifest.json has no generated_at time`);
  if (!Array.isArray(day.files)) return fail(`the dump of ${date} in manifest.json has no list of files`);
  const files = day.files.map((file: unknown) => {
    const f = isObject(file) ? file : {};
    const name = typeof f.name === 'string' && /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(f.name) ? f.name : null;
    const whole = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
    if (
      name === null ||
      typeof f.resource !== 'string' ||
      !whole(f.rows) ||
      !whole(f.bytes) ||
      typeof f.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(f.sha256)
    )
      return fail(
        `the dump of ${date} in manifest.json lists a file without a plain name, resource, rows, bytes and ` +
          `sha256: ${JSON.stringify(file).slice(0, 120)}`,
      );
    return { name, resource: f.resource, rows: f.rows, bytes: f.bytes, sha256: f.sha256 };
  });
  return { date, generated_at: generatedAt, files };
}
