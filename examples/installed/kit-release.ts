/**
 * The workspace's public packages as a release handles them: listed, packed (`pnpm pack`) and
 * published (`pnpm publish -r`, or tarballs as they are) to the registry registry.ts starts.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../readme.ts';
import { run, type Registry, type Run } from './registry.ts';

/** pnpm as this run has it: the one that started the tests, or the version the workspace pins. */
function pnpm(): [string, string[]] {
  if (process.env.npm_execpath?.includes('pnpm')) return [process.execPath, [process.env.npm_execpath]];
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager: string };
  return ['npx', ['-y', packageManager]];
}

/** `pnpm publish -r`, the release step of CONTRIBUTING.md, to this registry. Each prepack builds. */
export function publishKit(registry: Registry): Run {
  const [command, prefix] = pnpm();
  return run(command, [...prefix, 'publish', '-r', '--no-git-checks', '--registry', `${registry.url}/`], {
    cwd: root,
    env: registry.env,
    timeout: 600_000,
  });
}

/** Publishes tarballs as they are (npm publish of each file) to this registry: the first failure ends it. */
export function publishTarballs(registry: Registry, tarballs: string[]): Run {
  let out = '';
  for (const tarball of tarballs) {
    const published = run('npm', ['publish', tarball, '--registry', `${registry.url}/`, '--access', 'public'], {
      cwd: root,
      env: registry.env,
      timeout: 120_000,
    });
    out += published.out;
    if (published.status !== 0) return { status: published.status, out };
  }
  return { status: 0, out };
}

/**
 * Every public package packed as the release packs it (`pnpm pack`: its prepack builds, the
 * workspace protocol becomes the version, publishConfig applies) into `dir`: the tarballs by name.
 * One recursive pnpm packs them all, as `pnpm publish -r` publishes them: starting a pnpm for each
 * package cost three times the CPU of the packing (the install test packs the kit on every run).
 */
export function packKit(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): { tarballs: Map<string, string>; failed?: Run } {
  const [command, prefix] = pnpm();
  mkdirSync(dir, { recursive: true });
  const kit = publicPackages();
  const filters = kit.flatMap(({ name }) => ['--filter', name]);
  const packed = run(command, [...prefix, '-r', ...filters, 'pack', '--pack-destination', dir], {
    cwd: root,
    env,
    timeout: 600_000,
  });
  const tarballs = new Map(kit.map(({ name, version }) => [name, join(dir, tarballName(name, version))]));
  if (packed.status !== 0) return { tarballs, failed: packed };
  const missing = [...tarballs.values()].filter((tarball) => !existsSync(tarball));
  if (missing.length)
    return { tarballs, failed: { status: 1, out: `${packed.out}\nnot packed: ${missing.join(', ')}` } };
  return { tarballs };
}

/** The file name npm and pnpm give a package's tarball: `@scope/name` 1.0.0 is scope-name-1.0.0.tgz. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/** The packages of the kit a package depends on, read from its tarball's manifest. */
export function kitDependencies(tarball: string): string[] {
  const manifest = run('tar', ['-xzOf', tarball, 'package/package.json'], { cwd: root, env: process.env });
  const { dependencies = {} } = JSON.parse(manifest.out) as { dependencies?: Record<string, string> };
  return Object.keys(dependencies).filter((name) => name.startsWith('@investor-graph/'));
}

/** The public packages of the workspace: every package.json that is not private. */
export function publicPackages(): { name: string; version: string; dir: string }[] {
  const dirs = ['dataset', 'load', 'examples', ...readdirSync(join(root, 'packages')).map((p) => `packages/${p}`)];
  return dirs
    .map((dir) => ({
      dir,
      ...(JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        private?: boolean;
      }),
    }))
    .filter((p) => !p.private)
    .map(({ name, version, dir }) => ({ name, version, dir }));
}
