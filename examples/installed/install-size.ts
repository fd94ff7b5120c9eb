/**
 * `pnpm install-size`: what each reader's install line brings into a fresh project, measured. Packs
 * the kit as the release does, installs each reader's line (README "Install") from the tarballs
 * with npm into an empty project of its own, and prints, per reader, the bytes on disk under
 * node_modules, the packages npm installed, and which of the Node server's parts (the mock, its
 * HTTP adapter, the Redis client) came along. Writes the figures to bench-results/install-size.json
 * (`--out`); BENCHMARKS.md keeps them beside the figures of the commit before a change.
 *
 *   pnpm install-size [--reader WORDS] [--out FILE]
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readFlags } from '@investor-graph/cli';
import { root } from '../readme.ts';
import { readers, closure, type Reader } from './readers.ts';
import { kitDependencies, packKit } from './kit-release.ts';
import { run } from './registry.ts';

const name = 'investor-graph-install-size';
const usage = `usage: pnpm install-size [--reader WORDS] [--out FILE]
  --reader WORDS  only the readers whose README words contain WORDS (e.g. MSW); every reader by default
  --out FILE      where the figures go (bench-results/install-size.json)
  -h, --help      this text
Packs the kit, installs each reader's line with npm into an empty project and prints what it brought.`;

/** The Node server's parts, which a reader that never starts the server should not carry. */
const serverParts = ['@investor-graph/mock', '@hono/node-server', 'hono', 'ioredis'];

export interface InstallSize {
  who: string;
  line: string[];
  bytes: number;
  packages: number;
  serverParts: string[];
}

/** Bytes of the files under `dir` (symbolic links counted as links, not followed). */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = lstatSync(path);
    total += stat.isDirectory() ? bytesUnder(path) : stat.size;
  }
  return total;
}

/** What npm installed, from the project's lock file: every package once per place it sits. */
export function installedPackages(project: string): string[] {
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  return Object.keys(lock.packages)
    .filter((path) => path.startsWith('node_modules/'))
    .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
}

function measure(reader: Reader, tarballs: Map<string, string>, work: string): InstallSize {
  const kit = closure(reader.kit, (pkg) => kitDependencies(tarballs.get(pkg)!));
  const line = [...kit.map((pkg) => tarballs.get(pkg)!), ...reader.others];
  const project = mkdtempSync(join(work, 'project-'));
  writeFileSync(join(project, 'package.json'), '{ "name": "install-size", "private": true }\n');
  const installed = run('npm', ['i', '-D', '--no-audit', '--no-fund', ...line], {
    cwd: project,
    env: process.env,
    timeout: 900_000,
  });
  if (installed.status !== 0) throw new Error(`npm i failed for "${reader.who}":\n${installed.out}`);
  const packages = installedPackages(project);
  return {
    who: reader.who,
    line: [...kit, ...reader.others],
    bytes: bytesUnder(join(project, 'node_modules')),
    packages: packages.length,
    serverParts: serverParts.filter((part) => packages.includes(part)),
  };
}

if (import.meta.main) {
  const { values } = readFlags(name, usage, process.argv.slice(2), {
    reader: { type: 'string' },
    out: { type: 'string', default: resolve(root, 'bench-results/install-size.json') },
    help: { type: 'boolean', short: 'h' },
  });
  const chosen = readers.filter((r) => !values.reader || r.who.toLowerCase().includes(values.reader.toLowerCase()));
  if (chosen.length === 0) {
    console.error(`[${name}] no reader's words contain "${values.reader}"`);
    process.exit(2);
  }
  const work = mkdtempSync(join(tmpdir(), 'install-size-'));
  try {
    console.log(`[${name}] packing the kit ...`);
    const { tarballs, failed } = packKit(join(work, 'packages'));
    if (failed) throw new Error(`pnpm pack failed:\n${failed.out}`);
    const sizes = chosen.map((reader) => {
      const size = measure(reader, tarballs, work);
      console.log(
        `${reader.who}: ${(size.bytes / 1e6).toFixed(1)} MB, ${size.packages} packages; ` +
          `the server's parts: ${size.serverParts.join(', ') || 'none'}`,
      );
      return size;
    });
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, `${JSON.stringify({ node: process.version, sizes }, null, 2)}\n`);
    console.log(`[${name}] written to ${values.out}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
