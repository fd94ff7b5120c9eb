/**
 * Where the kit's Go builds (k6, oasdiff: go-tool.ts) keep the caches Go makes, and how big they
 * are: one folder of the kit's cache, which one command removes.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { kitCache } from './kit-cache.ts';

/**
 * The one folder of the Go caches the kit's builds make (GOPATH, its module cache, the build cache),
 * in the kit's cache, never the user's ~/go and ~/.cache/go-build; `rm -rf` of it removes them all
 * (the module cache is written writable, -modcacherw), and the built tools stay.
 */
export function goCaches(env: NodeJS.ProcessEnv = process.env): string {
  return join(kitCache(env), 'go');
}

/** The command that removes the Go caches of the kit's builds, as the notes and the READMEs say it. */
export function goCachesRemoval(env: NodeJS.ProcessEnv = process.env): string {
  return `rm -rf ${goCaches(env)}`;
}

/** A folder's size on disk, as `du` says it (`1.1 GB`); `an unknown size` where there is no du. */
export function sizeOf(dir: string): string {
  const du = spawnSync('du', ['-sk', dir], { encoding: 'utf8', timeout: 60_000 });
  const kb = du.status === 0 ? Number(/^(\d+)/.exec(du.stdout)?.[1]) : NaN;
  if (!Number.isFinite(kb)) return 'an unknown size';
  const units: [number, string][] = [
    [1024 ** 2, 'GB'],
    [1024, 'MB'],
    [1, 'kB'],
  ];
  const [div, unit] = units.find(([d]) => kb >= d) ?? [1, 'kB'];
  return `${(kb / div).toFixed(kb >= 1024 ** 2 ? 2 : 0)} ${unit}`;
}
