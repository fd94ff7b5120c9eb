/**
 * What a `--data` folder holds, opened without leaving the folder and without blocking. A path is
 * looked at (lstat) before it is opened, so a link, a FIFO, a socket or a device is refused by name
 * and never opened; the open follows no link (O_NOFOLLOW) and cannot block (O_NONBLOCK), for what
 * is put in the path's place after the look; and what was opened is looked at again (fstat) before
 * a byte of it is read. The dataset tools' dataset reader does the same (its folder-file.ts).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Says in one line why a path cannot be read, and throws. */
export type Refuse = (why: string) => never;

/** What a refusal says of a link: the one kind of entry that is refused whatever it names. */
export const linkWords = 'a symbolic link: --data reads only what is inside its folder, through no link';

// Zero where the platform has no such flag (Windows): the look before the open still refuses.
const openFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What an entry is, as a refusal names it. */
function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return linkWords;
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return stat.isFile() ? 'a regular file' : 'not a file';
}

const codeOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/** The entry at `path` itself (a link, not what it names), or null when there is none. */
function entryAt(path: string, refuse: Refuse): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes(codeOf(error))) return null;
    return refuse(`${path} cannot be read (${codeOf(error)})`);
  }
}

/** True when a regular file is at `path`, false when nothing is; anything else there is refused. */
export function isRegularFile(path: string, refuse: Refuse): boolean {
  const stat = entryAt(path, refuse);
  if (stat === null) return false;
  if (stat.isSymbolicLink()) return refuse(`${path} is ${linkWords}`);
  if (!stat.isFile()) return refuse(`${path} is ${kindOf(stat)}, not a regular file`);
  return true;
}

/** True when a folder is at `path` (not a link to one), false when nothing is; anything else there is refused. */
export function isRealFolder(path: string, refuse: Refuse): boolean {
  const stat = entryAt(path, refuse);
  if (stat === null) return false;
  if (stat.isSymbolicLink()) return refuse(`${path} is ${linkWords}`);
  if (!stat.isDirectory()) return refuse(`${path} is ${kindOf(stat)}, not a folder`);
  return true;
}

/** Which file an entry is: what a file checked once and opened later must still be. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/**
 * A descriptor of the regular file at `path`, or null when there is none; anything else there is
 * refused, and so is another file than `checked` (a folder on its path swapped for a link since).
 */
export function openRegularFile(path: string, refuse: Refuse, checked?: FileIdentity): number | null {
  if (!isRegularFile(path, refuse)) return null;
  let fd: number;
  try {
    fd = openSync(path, openFlags);
  } catch (error) {
    // A link put in its place since the look: O_NOFOLLOW's ELOOP (EMLINK on FreeBSD).
    if (['ELOOP', 'EMLINK'].includes(codeOf(error))) return refuse(`${path} is ${linkWords}`);
    return refuse(`${path} cannot be read (${codeOf(error)})`);
  }
  const stat = fstatSync(fd);
  const why = !stat.isFile()
    ? `${path} is ${kindOf(stat)}, not a regular file`
    : checked && (stat.dev !== checked.dev || stat.ino !== checked.ino)
      ? `${path} is not the file checked before it was read: the folder changed under it`
      : null;
  if (why === null) return fd;
  closeSync(fd);
  return refuse(why);
}

/** The bytes of the regular file at `path`, or null when there is none; refused past `maxBytes`, saying `why`. */
export function readRegularFile(path: string, refuse: Refuse, maxBytes: number, why: string): Buffer | null {
  const fd = openRegularFile(path, refuse);
  if (fd === null) return null;
  try {
    // At most one byte past the bound is read, whatever the file's size says or becomes while it is read.
    const buffer = Buffer.alloc(Math.min(fstatSync(fd).size, maxBytes) + 1);
    let got = 0;
    let read: number;
    do {
      read = readSync(fd, buffer, got, buffer.length - got, null);
      got += read;
    } while (read > 0 && got < buffer.length);
    if (got > maxBytes) refuse(`${path} is over ${maxBytes.toLocaleString('en')} bytes, ${why}`);
    return buffer.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
