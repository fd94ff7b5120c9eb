// @module-tag servers
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const guard = join(import.meta.dirname, 'unit-tier.ts');

/** Runs a module after the guard, in a Node of its own, with KIT_TIER as given. */
function after(tier: string | undefined, code: string) {
  const env = { ...process.env, KIT_TIER: tier };
  if (tier === undefined) delete env.KIT_TIER;
  const script = `import ${JSON.stringify(guard)};\n${code}`;
  // A bound, not a timed assertion: a guard that let the server listen would otherwise hang the file.
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env, timeout: 30_000 });
}

describe("the unit tier's guard", () => {
  test('a file that listens on a socket in the unit tier fails, saying to tag it servers', () => {
    const run = after('unit', "import net from 'node:net'; net.createServer().listen(0).unref();");
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('listening on a socket in the unit tier');
    expect(run.stderr).toContain('@module-tag servers');
  });

  test('a named import of spawn, taken before or after the guard, is refused too', () => {
    const run = after('unit', "import { spawnSync } from 'node:child_process'; spawnSync('true');");
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('child_process.spawnSync in the unit tier');
  });

  test('outside the unit tier it changes nothing: the same file listens and spawns', () => {
    const code =
      "import net from 'node:net'; import { spawnSync } from 'node:child_process';\n" +
      "const s = net.createServer().listen(0, '127.0.0.1', () => { s.close(); " +
      "process.stdout.write(String(spawnSync('true').status)); });";
    const run = after(undefined, code);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('0');
  });
});
