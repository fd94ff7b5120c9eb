// @module-tag servers
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { enginesNode, supportsNode, unsupportedNodeLine } from './node-version.ts';

const root = join(import.meta.dirname, '../../..');

test('the kit runs on 22 from 22.16 and on 24 and later, never on 23 or older lines', () => {
  for (const version of ['22.16.0', '22.16.1', '22.23.3', '24.0.0', '24.21.0', '26.1.0'])
    expect(supportsNode(version), version).toBe(true);
  for (const version of ['22.15.1', '22.13.0', '20.20.2', '18.20.8', '23.11.1', '16.0.0'])
    expect(supportsNode(version), version).toBe(false);
});

test("every public package's engines says the same Node as the commands check", () => {
  const dirs = ['dataset', 'load', ...readdirSync(join(root, 'packages')).map((p) => `packages/${p}`)];
  const manifests = dirs.map(
    (dir) =>
      JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        private?: boolean;
        engines?: { node?: string };
      },
  );
  const published = manifests.filter((m) => !m.private);
  expect(published.length).toBeGreaterThanOrEqual(9);
  for (const manifest of published) expect(manifest.engines?.node, manifest.name).toBe(enginesNode);
});

test('an older Node gets one line naming the Node it needs, and exit 2, from every command of the workspace', () => {
  const entries = [
    'packages/mock/src/cli/main.ts',
    'packages/contract-tests/src/bin.ts',
    'packages/contract-tests/src/check-api-bin.ts',
    'packages/dataset-tools/src/bin.ts',
    'load/src/bin.ts',
  ];
  for (const entry of entries) {
    const command = /investor-graph-[a-z-]+/.exec(readFileSync(join(root, entry), 'utf8'))![0];
    // The version check reads process.versions.node: a preload that says 20.20.2 stands in for an old Node.
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})',
        join(root, entry),
        '--help',
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(run.status, `${entry}\n${run.stderr}`).toBe(2);
    expect(run.stdout, entry).toBe('');
    expect(run.stderr.trim().split('\n'), entry).toEqual([unsupportedNodeLine(command, '20.20.2')]);
  }
});
