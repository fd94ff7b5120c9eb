// A public package's `build` (and so its `prepack`): compile (dist/ emptied first) with tsc's project
// references when the package has a tsconfig.build.json, copy the files given as arguments into
// dist/ (FILE by its name, FILE=PATH to dist/PATH), and put the repository's LICENSE beside
// package.json so that every tarball carries it.
//   node ../../scripts/build-package.mjs [FILE | FILE=PATH ...]
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const root = join(import.meta.dirname, '..');
// From nothing: tsc -b leaves the output of a source file moved or deleted since the last build, and
// a tarball packed over it would carry it (a clone's dist/ held the engine's old files after it moved).
rmSync('dist', { recursive: true, force: true });
if (existsSync('tsconfig.build.json')) {
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
const extra = process.argv.slice(2);
if (extra.length) mkdirSync('dist', { recursive: true });
for (const arg of extra) {
  const [file, to = basename(arg)] = arg.split('=');
  mkdirSync(dirname(join('dist', to)), { recursive: true });
  copyFileSync(file, join('dist', to));
}
copyFileSync(join(root, 'LICENSE'), 'LICENSE');
