/**
 * `pnpm kit-pack`: the kit installable from a clone before its first release, in a way that lasts.
 * Packs every public package as the release does into a folder (`kit-packages/` of the clone, or
 * `--out DIR`) and prints, for each reader of the README, the line that installs their packages
 * from it. A project that installed so records the tarballs' paths in its lock file: `npm ci`
 * works from them for as long as the folder is there, with no registry or process running, after
 * a restart as before it. (`pnpm registry` serves the same packages from a registry that lives
 * until Ctrl-C, for a project that wants the README's lines as they will be after the release.)
 *
 *   pnpm kit-pack [--out DIR]
 */
import { resolve } from 'node:path';
import { readFlags } from '@investor-graph/cli';
import { root } from '../readme.ts';
import { readers, closure } from './readers.ts';
import { kitDependencies, packKit } from './kit-release.ts';

const name = 'investor-graph-kit-pack';
const usage = `usage: pnpm kit-pack [--out DIR]
  --out DIR   the folder the packages go into (kit-packages/ of the clone)
  -h, --help  this text
Builds and packs the clone's public packages as the release does into DIR, and prints the line each
reader's project installs them with (npm i -D with the tarballs' paths). The project's lock file
keeps those paths: npm ci installs from them again for as long as DIR is there.`;

const { values } = readFlags(name, usage, process.argv.slice(2), {
  out: { type: 'string', default: resolve(root, 'kit-packages') },
  help: { type: 'boolean', short: 'h' },
});
const out = resolve(values.out);
console.log(`[${name}] building and packing the kit's packages into ${out} ...`);
const { tarballs, failed } = packKit(out);
if (failed) {
  console.error(`[${name}] pnpm pack failed:\n${failed.out}`);
  process.exit(1);
}
console.log(`[${name}] ready: ${tarballs.size} packages in ${out}. In your project, the line for what you do:`);
for (const reader of readers) {
  const kit = closure(reader.kit, (pkg) => kitDependencies(tarballs.get(pkg)!));
  console.log(
    `\n  ${reader.who}:\n    npm i -D ${[...kit.map((pkg) => tarballs.get(pkg)!), ...reader.others].join(' ')}`,
  );
}
console.log(`\nKeep ${out} where it is: the project's package-lock.json points at it, and npm ci installs from it.
After the first release, install by name as the README says (npm i -D @investor-graph/...).`);
