// @module-tag servers
/**
 * What `npm i -D @investor-graph/msw msw` brings and loads: the engine and the data, none of the
 * Node server's parts (issue #56: it brought 422 MB, the server's HTTP adapter, Redis client and docs
 * page among them), and no node:sqlite, whose ExperimentalWarning Node 22 printed in tests that run
 * in memory. `pnpm install-size` measures the bytes (BENCHMARKS.md).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const packages = join(import.meta.dirname, '../..');
const root = join(packages, '..');

/** The workspace's packages by name: where each is and what it depends on when installed. */
function workspace(): Map<string, Record<string, string>> {
  const dirs = [
    'dataset',
    ...['cli', 'contract', 'dataset-tools', 'engine', 'mock', 'msw'].map((p) => `packages/${p}`),
  ];
  return new Map(
    dirs.map((dir) => {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      return [manifest.name, manifest.dependencies ?? {}];
    }),
  );
}

/** Every package an install of `name` brings by name: the kit's through their manifests, the others as named. */
export function installClosure(name: string, manifests: Map<string, Record<string, string>>): Set<string> {
  const all = new Set<string>();
  const visit = (next: string): void => {
    if (all.has(next)) return;
    all.add(next);
    for (const dependency of Object.keys(manifests.get(next) ?? {})) visit(dependency);
  };
  visit(name);
  return all;
}

const serverParts = ['@investor-graph/mock', '@hono/node-server', 'hono', 'ioredis', '@scalar/api-reference'];

test("the MSW package's install holds the engine and the data, and none of the Node server's parts", () => {
  const manifests = workspace();
  const brought = installClosure('@investor-graph/msw', manifests);
  expect([...brought].filter((name) => name.startsWith('@investor-graph/')).sort()).toEqual([
    '@investor-graph/cli',
    '@investor-graph/contract',
    '@investor-graph/dataset',
    '@investor-graph/dataset-tools',
    '@investor-graph/engine',
    '@investor-graph/msw',
  ]);
  expect(serverParts.filter((part) => brought.has(part))).toEqual([]);
  // The check sees the server's parts where they are: the mock's own install brings them.
  expect(serverParts.filter((part) => installClosure('@investor-graph/mock', manifests).has(part))).toEqual(
    serverParts.filter((part) => part !== '@scalar/api-reference'),
  );
});

test('creating the MSW API and answering a call through it loads no node:sqlite', () => {
  // A process of its own: a test worker may have loaded SQLite for another file.
  const script = `
    import { setupServer } from 'msw/node';
    import { createInvestorGraphApi } from '@investor-graph/msw';
    const api = await createInvestorGraphApi({ baseUrl: 'https://api.investorgraph.test' });
    const server = setupServer(...api.handlers);
    server.listen({ onUnhandledFrame: 'error' });
    const response = await fetch('https://api.investorgraph.test/api/v1/firms?limit=1', {
      headers: { authorization: 'Bearer ' + api.keys.team },
    });
    server.close();
    const sqlite = process.moduleLoadList.filter((m) => /sqlite/.test(m));
    console.log(JSON.stringify({ status: response.status, sqlite }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(packages, 'msw'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.status, child.stderr).toBe(0);
  expect(JSON.parse(child.stdout.trim().split('\n').at(-1)!)).toEqual({ status: 200, sqlite: [] });
  expect(child.stderr).not.toMatch(/ExperimentalWarning/);
});
