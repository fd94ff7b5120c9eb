// @module-tag servers
/**
 * The README's baseline example (diff-baseline.sh) as a CI job runs it, night after night, from a
 * project that has the kit's packages (this clone's, linked): real mocks on loopback serving their
 * contract, real oasdiff, the kept contract a file in the project's folder.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { root } from '../readme.ts';
import { haveGo, runBash } from '../support.ts';

/**
 * Why the example cannot run here (skipped, saying so), or null; in CI it must run: a skipped
 * drift gate hides a broken one.
 */
function oasdiffMissing(): string | null {
  if (process.env.OASDIFF_BIN || haveGo) return null;
  if (process.env.CI)
    throw new Error(
      'CI needs oasdiff for the baseline example: OASDIFF_BIN is not set and there is no go on PATH to build it',
    );
  return 'no oasdiff (OASDIFF_BIN) and no go on PATH to build it';
}
const missing = oasdiffMissing();

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

/** A project of its own with the kit's packages (the clone's, linked), as the example's folder. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ig-diff-baseline-'));
  projects.push(dir);
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}
const clean = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('INVESTOR_GRAPH_') && k !== 'NODE_PATH' && !k.startsWith('npm_'),
    ),
  );
const example = (dir: string, baseUrl: string) =>
  runBash(join(import.meta.dirname, 'diff-baseline.sh'), [], { cwd: dir, env: { ...clean(), BASE_URL: baseUrl } });
const kept = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'last-contract.json'), 'utf8')) as { paths: Record<string, unknown> };

describe.skipIf(missing !== null)(`the README's baseline example${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let mock: RunningMock;
  let stale: RunningMock;
  beforeAll(async () => {
    [mock, stale] = await Promise.all([startMock({ port: 0 }), startMock({ port: 0, faults: ['stale-openapi'] })]);
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), stale?.close()]);
  });

  test('the first night keeps the served contract; the next, unchanged, compares with it and passes', async () => {
    const dir = project();
    const first = await example(dir, mock.url);
    expect(first.code, first.out).toBe(0);
    expect(first.out).not.toContain('--baseline');
    expect(kept(dir)).toEqual(await (await fetch(`${mock.url}/api/v1/openapi.json`)).json());
    const next = await example(dir, mock.url);
    expect(next.code, next.out).toBe(0);
    expect(next.out.match(/held: no change that breaks clients/g)).toHaveLength(2);
  }, 120_000);

  test(`a service that dropped what the kept contract had fails against it, though the kit's contract never had it, \
and the kept one stays`, async () => {
    const dir = project();
    // Kept last time from a service that also had a widgets list: not in the kit's contract.
    const before = await (await fetch(`${mock.url}/api/v1/openapi.json`)).json();
    before.paths['/api/v1/widgets'] = { get: { responses: { '200': { description: 'The widgets.' } } } };
    writeFileSync(join(dir, 'last-contract.json'), JSON.stringify(before));
    const run = await example(dir, mock.url);
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain(
      `contract diff: ${mock.url}/api/v1/openapi.json against the baseline last-contract.json (oasdiff)`,
    );
    expect(run.out).toContain('GET /api/v1/widgets: api path removed without deprecation');
    // The baseline that caught it is still there for the next run, not overwritten by what broke it.
    expect(kept(dir).paths).toHaveProperty(['/api/v1/widgets']);
  }, 120_000);

  test("a service that broke the kit's contract fails the first diff, and nothing is kept", async () => {
    const dir = project();
    const run = await example(dir, stale.url);
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain('FAILED: 1 change that breaks clients');
    expect(existsSync(join(dir, 'last-contract.json'))).toBe(false);
  }, 120_000);
});
