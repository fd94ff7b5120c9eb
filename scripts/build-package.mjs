// A public package's `build` (and so its `prepack`): compile with tsc's project references when the
// package has a tsconfig.build.json (dist/ then holds nothing whose source is gone), copy the files
// given as arguments into dist/ (FILE by its name, FILE=PATH to dist/PATH), and put the
// repository's LICENSE beside package.json so that every tarball carries it.
//   node ../../scripts/build-package.mjs [FILE | FILE=PATH ...]
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const root = join(import.meta.dirname, '..');
if (existsSync('tsconfig.build.json')) {
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
// tsc -b leaves the output of a source file moved or deleted since the last build, and a tarball
// packed over it would carry it (a clone's dist/ held the engine's old files after it moved). Only
// those go: emptying dist/ instead made every pack a full build (the install test packs the kit).
const compiled = /\.(js|d\.ts)(\.map)?$/;
for (const file of existsSync('dist') ? readdirSync('dist', { recursive: true, encoding: 'utf8' }) : []) {
  const base = join('src', file.replace(compiled, ''));
  if (compiled.test(file) && !['.ts', '.js', '.mjs'].some((ext) => existsSync(base + ext))) rmSync(join('dist', file));
}
const extra = process.argv.slice(2);
if (extra.length) mkdirSync('dist', { recursive: true });
for (const arg of extra) {
  const [file, to = basename(arg)] = arg.split('=');
  mkdirSync(dirname(join('dist', to)), { recursive: true });
  copyFileSync(file, join('dist', to));
}
copyFileSync(join(root, 'LICENSE'), 'LICENSE');
