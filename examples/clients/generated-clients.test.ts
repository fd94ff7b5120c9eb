// @module-tag servers
/**
 * Clients generated from the contract a running mock serves (GET /api/v1/openapi.json), used as an
 * integrator would: a TypeScript one (openapi-typescript's types, openapi-fetch's calls:
 * typescript/client.ts) and a Python one (openapi-python-client, pinned from PyPI into a virtual
 * environment by python/install.sh, which `pnpm test` runs before the tests: python/use_client.py).
 * Each pages a list by its cursor to the end, meets a trial key's 402 and a 429 with Retry-After,
 * and reads the changes feed with a paid key from a `since` written with `+00:00`, the form
 * Python's isoformat() writes, which the contract once refused (issue 38). Without Python 3.11+
 * or the venv, the Python tests are skipped, saying why.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canRun } from '@investor-graph/cli';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { allFirms, burst, feed, trialFeed } from './typescript/client.ts';

const here = import.meta.dirname;
const require = createRequire(import.meta.url);
const havePython = canRun(process.env.PYTHON ?? 'python3', [
  '-c',
  'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))',
]);
const newKey = (plan: string) => `igk_${plan}_${randomBytes(16).toString('hex')}`;
/**
 * A key each for paging (Enterprise: 50 calls a second, so paging never meets the rate) and for the burst (Team: 5).
 */
const keys = {
  tsPaid: newKey('enterprise'),
  tsBurst: newKey('team'),
  pyPaid: newKey('enterprise'),
  pyBurst: newKey('team'),
};
/** The instant both clients read the feed from, as Python's isoformat() writes it. */
const since = '2026-11-01T00:00:00+00:00';
const sinceOnTheWire = `since=${encodeURIComponent(since)}`;

let mock: RunningMock;
let work: string;
let contractUrl: string;

/** Runs a command to its end without blocking the mock in this process; resolves with its exit code and output. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** What the mock holds: the clients are held to it. */
const firmsHeld = () => mock.engine.store.count('firm');
const feedHeld = () => mock.engine.store.changePage('2026-11-01T00:00:00Z', 0, 1_000_000).items.map((c) => c.sequence);

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    host: '127.0.0.1',
    keys: Object.values(keys).map((key) => ({ plan: key.split('_')[1] as 'team', key })),
  });
  contractUrl = `${mock.url}/api/v1/openapi.json`;
  work = mkdtempSync(join(tmpdir(), 'ig-generated-clients-'));
});
afterAll(async () => {
  await mock?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a TypeScript client generated with openapi-typescript and called with openapi-fetch', () => {
  const folder = () => join(work, 'typescript');
  const tsc = (project: string) =>
    run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', project], { cwd: folder() });

  beforeAll(async () => {
    mkdirSync(folder());
    // The types from the served contract, by the CLI a reader runs, in place of the workspace's api.ts.
    const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin/cli.js');
    const made = await run(process.execPath, [cli, contractUrl, '--output', join(folder(), 'api.ts')], {
      cwd: folder(),
    });
    expect(made.code, made.out + made.err).toBe(0);
    copyFileSync(join(here, 'typescript/client.ts'), join(folder(), 'client.ts'));
    // openapi-fetch from the examples' own dependencies; the kit's strict settings, no Node
    // types (a client runs anywhere).
    symlinkSync(join(here, '../node_modules'), join(folder(), 'node_modules'), 'dir');
    const options = {
      extends: join(here, '../../tsconfig.base.json'),
      compilerOptions: { types: [] },
      include: ['*.ts'],
    };
    writeFileSync(join(folder(), 'tsconfig.json'), JSON.stringify(options));
    writeFileSync(join(folder(), 'package.json'), JSON.stringify({ type: 'module', private: true }));
  }, 120_000);

  test(`its code type-checks against the types generated from the served contract, and a parameter the contract does \
not have does not`, async () => {
    expect(readFileSync(join(folder(), 'api.ts'), 'utf8')).toContain('"/api/v1/changes"');
    const clean = await tsc('tsconfig.json');
    expect(clean.code, clean.out + clean.err).toBe(0);
    // The check is no formality: the same code asking for a misspelt parameter fails it.
    writeFileSync(
      join(folder(), 'client.ts'),
      readFileSync(join(folder(), 'client.ts'), 'utf8').replace(
        'query: { since, limit: 40',
        'query: { sinse: since, limit: 40',
      ),
    );
    const broken = await tsc('tsconfig.json');
    expect(broken.code).not.toBe(0);
    expect(broken.out).toMatch(/client\.ts\(\d+,\d+\): error TS\d+: .*sinse/);
    copyFileSync(join(here, 'typescript/client.ts'), join(folder(), 'client.ts'));
  }, 120_000);

  test('pages the firms by the cursor to the end: every firm once, as many as the mock holds', async () => {
    const { pages, slugs } = await allFirms(mock.url, keys.tsPaid, 30);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs).toHaveLength(firmsHeld());
    expect(pages).toBe(Math.ceil(firmsHeld() / 30));
  });

  test("meets a trial key's 402 on the changes feed, with the actions to take", async () => {
    expect(await trialFeed(mock.url, `ts-client-${randomBytes(6).toString('hex')}@example.com`)).toEqual({
      plan: 'trial',
      status: 402,
      code: 'plan_feature_unavailable',
      actions: expect.arrayContaining(['subscribe']),
    });
  });

  test(`reads the changes feed with a paid key from since=${since}: the whole feed the mock holds from that \
instant`, async () => {
    const read = await feed(mock.url, keys.tsPaid, since);
    expect(
      read.urls.every((url) => url.includes(sinceOnTheWire)),
      read.urls.join('\n'),
    ).toBe(true);
    expect(read.sequences).toEqual(feedHeld());
    expect(read.sequences.length).toBeGreaterThan(40);
  });

  test('meets a 429 when it bursts above the Team rate, and reads its Retry-After', async () => {
    const seen = await burst(mock.url, keys.tsBurst);
    expect(seen).toEqual({
      calls: expect.any(Number),
      retryAfter: expect.stringMatching(/^[1-9][0-9]*$/),
      code: 'rate_limited',
    });
    expect(seen.calls).toBeGreaterThan(1);
  });
});

describe.skipIf(!havePython)(
  'a Python client generated with openapi-python-client (from PyPI into a virtual environment; it needs Python 3.11+)',
  () => {
    /** What use_client.py saw, step by step, or why the client could not be made (the tests are skipped with it). */
    let seen: Record<'trial' | 'firms' | 'feed' | 'burst', Record<string, unknown>>;
    let unavailable = '';

    beforeAll(async () => {
      // `pnpm test` installed it first (OPENAPI_PYTHON_CLIENT_BIN), or said why not (an empty one).
      let bin = process.env.OPENAPI_PYTHON_CLIENT_BIN;
      if (bin === '') unavailable = 'pnpm test could not install openapi-python-client (its line above says why)';
      if (bin === undefined) {
        try {
          bin = execFileSync('bash', [join(here, 'python/install.sh')], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
          }).trim();
        } catch (error) {
          // Exit 3: no Python 3.11+ with venv here, a skip; any other failure is the kit's, a failure.
          const said = String((error as { stderr?: unknown }).stderr ?? error).trim();
          if ((error as { status?: number }).status !== 3)
            throw new Error(`examples/clients/python/install.sh failed:\n${said}`);
          unavailable = `examples/clients/python/install.sh: ${said.split('\n').at(-1)}`;
        }
      }
      if (unavailable || !bin) return;
      const folder = join(work, 'python');
      mkdirSync(folder);
      // The venv's bin first on PATH: the generator formats what it writes with the ruff it brought.
      // Nothing read from the user's Python set-up, no bytecode written beside the scripts.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${dirname(bin)}:${process.env.PATH}`,
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONNOUSERSITE: '1',
        NO_COLOR: '1',
      };
      const made = await run(
        bin,
        [
          'generate',
          '--url',
          contractUrl,
          '--config',
          join(here, 'python/config.yaml'),
          '--output-path',
          join(folder, 'client'),
        ],
        { cwd: folder, env },
      );
      expect(made.code, made.out + made.err).toBe(0);
      const used = await run(join(dirname(bin), 'python'), [join(here, 'python/use_client.py')], {
        cwd: folder,
        env: {
          ...env,
          PYTHONPATH: join(folder, 'client'),
          INVESTOR_GRAPH_URL: mock.url,
          PAID_KEY: keys.pyPaid,
          BURST_KEY: keys.pyBurst,
        },
      });
      expect(used.code, used.out + used.err).toBe(0);
      seen = JSON.parse(used.out);
    }, 600_000);

    test("meets a trial key's 402 on the changes feed, with the actions to take", (ctx) => {
      if (unavailable) return ctx.skip(unavailable);
      expect(seen.trial).toEqual({
        plan: 'trial',
        status: 402,
        code: 'plan_feature_unavailable',
        actions: expect.arrayContaining(['subscribe']),
      });
    });

    test('pages the firms by the cursor to the end: every firm once, as many as the mock holds', (ctx) => {
      if (unavailable) return ctx.skip(unavailable);
      const { pages, slugs } = seen.firms as { pages: number; slugs: string[] };
      expect(seen.firms).not.toHaveProperty('error');
      expect(new Set(slugs).size).toBe(slugs.length);
      expect(slugs).toHaveLength(firmsHeld());
      expect(pages).toBe(Math.ceil(firmsHeld() / 30));
    });

    test(`reads the changes feed with a paid key from a timezone-aware since, which it sends with +00:00: the whole \
feed the mock holds from that instant`, (ctx) => {
      if (unavailable) return ctx.skip(unavailable);
      expect(seen.feed).not.toHaveProperty('error');
      const { sequences, urls } = seen.feed as { sequences: number[]; urls: string[] };
      expect(urls.length).toBeGreaterThan(1);
      expect(
        urls.every((url) => url.includes(sinceOnTheWire)),
        urls.join('\n'),
      ).toBe(true);
      expect(sequences).toEqual(feedHeld());
    });

    test('meets a 429 when it bursts above the Team rate, and reads its Retry-After', (ctx) => {
      if (unavailable) return ctx.skip(unavailable);
      expect(seen.burst).toEqual({
        calls: expect.any(Number),
        retry_after: expect.stringMatching(/^[1-9][0-9]*$/),
        code: 'rate_limited',
      });
      expect(seen.burst.calls).toBeGreaterThan(1);
    });
  },
);
