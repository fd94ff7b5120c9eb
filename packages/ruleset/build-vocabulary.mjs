// The ruleset's people vocabulary is @investor-graph/contract/people, the one the runtime rules use.
// A lint ruleset should not install prism-http and the rest of the contract package to get a few
// word lists, so the build inlines that one module (with functions/, the modules that read it) into
// dist/functions.js (the contract package is a devDependency) and leaves every other import
// (Spectral's) as it is.
//   node build-vocabulary.mjs      (after tsc, as `pnpm build` runs it)
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

await build({
  entryPoints: ['dist/functions.js'],
  outfile: 'dist/functions.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  logLevel: 'error',
  plugins: [
    {
      name: 'inline-only-the-vocabulary',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path === '@investor-graph/contract/people' ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
// tsc's map no longer matches the file it was written for.
rmSync('dist/functions.js.map', { force: true });
// Its modules are inside it now; only their types stay (functions.d.ts re-exports them), so no file
// of the package names the contract's vocabulary, a devDependency a user does not install.
for (const file of readdirSync('dist/functions')) if (/\.js(\.map)?$/.test(file)) rmSync(join('dist/functions', file));
