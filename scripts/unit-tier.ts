// The inner loop's guard (`pnpm test:unit`, CONTRIBUTING "The inner loop"): in that tier a test file
// may not start a process or listen on a socket. A file that does is a `servers` file and must say
// so in its first lines (`// @module-tag servers`), so the fast tier stays fast and nothing in it
// waits on a server. Loaded as a setup file of every vitest project; it acts only when KIT_TIER=unit.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

if (process.env.KIT_TIER === 'unit') {
  const refuse = (what: string) => () => {
    throw new Error(
      `${what} in the unit tier: this test file starts a process or a server, so it belongs to the ` +
        "servers tier: put `// @module-tag servers` at its top (CONTRIBUTING.md, 'The inner loop')",
    );
  };
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
    Object.defineProperty(childProcess, name, { value: refuse(`child_process.${name}`), configurable: true });
  }
  net.Server.prototype.listen = refuse('listening on a socket') as typeof net.Server.prototype.listen;
  // ESM named imports of node:child_process see the replaced functions too.
  syncBuiltinESMExports();
}
