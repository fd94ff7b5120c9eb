/**
 * `pnpm registry`: the kit installable from a clone before its first release. Starts a real npm
 * registry (verdaccio) on loopback, publishes every public package to it exactly as the release
 * does (`pnpm publish -r`, each prepack building), prints the one line a project needs, and serves
 * until Ctrl-C. With that line in a project's .npmrc, the README's install table works as it will
 * from npm: the `@investor-graph` scope from here, everything else from the registry npm already
 * uses. The kit's install test (installed.test.ts) runs this same command.
 *
 *   pnpm registry [--port 4873] [--from DIR]
 *
 * With `--from DIR` it publishes the tarballs `pnpm kit-pack` wrote into DIR instead of building
 * and packing them again (the install test packs once and installs both ways).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFlags } from '@investor-graph/cli';
import { startRegistry } from './registry.ts';
import { publicPackages, publishKit, publishTarballs, tarballName } from './kit-release.ts';

const name = 'investor-graph-registry';
const usage = `usage: pnpm registry [--port N] [--from DIR]
  --port N    the loopback port to serve on (4873, verdaccio's own; 0 picks a free one)
  --from DIR  publish the tarballs pnpm kit-pack wrote into DIR, as they are
  -h, --help  this text
Publishes the clone's public packages (built as the release builds them) to a registry on
127.0.0.1 that lives until Ctrl-C, and prints the line your project's .npmrc needs to install them.`;

const { values, fail } = readFlags(name, usage, process.argv.slice(2), {
  port: { type: 'string', default: '4873' },
  from: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port takes a port number, got '${values.port}'`);
if (port && !(await isFree(port)))
  fail(`port ${port} is in use on 127.0.0.1: stop what holds it, or pick another with --port`);

// Its storage is this run's alone: a version published by an earlier run never answers for this one.
const dir = mkdtempSync(join(tmpdir(), 'ig-kit-registry-'));
const registry = await startRegistry(dir, { port });
// One stop, whichever asks first: a Ctrl-C during the publish reaches pnpm and then this process.
let stopping: Promise<never> | undefined;
const stop = (code: number): Promise<never> =>
  (stopping ??= (async () => {
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  })());
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

const kit = publicPackages();
console.log(`[${name}] building and publishing ${kit.length} packages (${kit[0]!.version}) to ${registry.url}/ ...`);
const published = values.from
  ? publishTarballs(
      registry,
      kit.map((p) => join(values.from!, tarballName(p.name, p.version))),
    )
  : publishKit(registry);
// Interrupted (pnpm stopped by the signal): no failure to report, only the stop.
if (published.status === null && !published.out.includes('ETIMEDOUT')) await stop(130);
if (published.status !== 0) {
  console.error(`[${name}] pnpm publish -r failed:\n${published.out}`);
  await stop(1);
}
console.log(`[${name}] ready: ${registry.url}/ serves ${kit.map((p) => p.name).join(', ')} until Ctrl-C.
In your project, once:
  npm config set @investor-graph:registry ${registry.url}/ --location project
then any line of the README's install table, e.g.
  npm i -D @investor-graph/mock`);

/** Whether nothing listens on 127.0.0.1:port (verdaccio would otherwise fail after its start-up). */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
