// @module-tag servers
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { builtPath, findGoTool, goCaches, goTool, goToolAsync, pinnedVersion, sizeOf, type GoTool } from './go-tool.ts';

/** A tool pinned in a wrapper module of its own, with a cache and a PATH of fake binaries the test writes. */
function setup() {
  const root = mkdtempSync(join(tmpdir(), 'ig-go-tool-'));
  const buildDir = join(root, 'demo-build');
  mkdirSync(buildDir);
  writeFileSync(join(buildDir, 'go.mod'), 'module kit/demo-build\n\ngo 1.26\n\nrequire example.com/demo/v2 v2.3.4\n');
  const tool: GoTool = {
    name: 'demo',
    env: 'DEMO_BIN',
    buildDir,
    module: 'example.com/demo/v2',
    firstBuild: '1 minute',
    versionArgs: ['--version'],
  };
  const bin = join(root, 'bin');
  mkdirSync(bin);
  /** A program on the test's PATH: a shell script. */
  const program = (name: string, script: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  const env = { HOME: root, KIT_CACHE: join(root, 'cache'), PATH: `${bin}:/usr/bin:/bin` } as NodeJS.ProcessEnv;
  return { root, tool, program, env };
}

/** A `go` that builds by writing the binary `go build -o` names, after printing what go prints. */
const fakeGo =
  `case "$1" in env) echo go1.26.8;; version) echo go version go1.26.8;; build) while [ "$1" != "-o" ]; do ` +
  `shift; done; echo "go: downloading example.com/demo/v2 v2.3.4" >&2; printf '#!/bin/sh\\necho demo' > ` +
  `"$2"; chmod +x "$2";; esac`;

test(`the pinned version comes from the wrapper module, and the build goes into the kit cache by name and \
version`, () => {
  const { tool, env } = setup();
  expect(pinnedVersion(tool)).toBe('v2.3.4');
  expect(builtPath(tool, env)).toBe(join(env.KIT_CACHE!, 'demo-v2.3.4', 'demo'));
});

test('a binary the user names wins; one named but missing is said so; a cached build is found without building', () => {
  const { root, tool, env } = setup();
  expect(findGoTool(tool, { ...env, DEMO_BIN: join(root, 'nowhere') })).toEqual({
    missing: expect.stringMatching(/^DEMO_BIN names .*nowhere, which is not there: set DEMO_BIN to a demo binary/),
  });
  writeFileSync(join(root, 'mine'), '');
  expect(findGoTool(tool, { ...env, DEMO_BIN: join(root, 'mine') })).toEqual({ bin: join(root, 'mine'), from: 'env' });
  expect(findGoTool(tool, { ...env, DEMO_BIN: '' })).toBeNull();
  mkdirSync(dirname(builtPath(tool, env)), { recursive: true });
  writeFileSync(builtPath(tool, env), '');
  expect(findGoTool(tool, env)).toEqual({ bin: builtPath(tool, env), from: 'cache' });
});

test('one on PATH is taken only when its version fits the pin: the same major, not older', () => {
  const { tool, program, env } = setup();
  for (const [version, fits] of [
    ['2.3.4', true],
    ['v2.3.9', true],
    ['2.10.0', true],
    ['2.3.3', false],
    ['2.2.9', false],
    ['3.0.0', false],
    ['1.9.0', false],
  ] as const) {
    program('demo', `echo "demo version ${version} (go1.26.8)"`);
    expect(findGoTool(tool, env), version).toEqual(fits ? { bin: 'demo', from: 'path' } : null);
  }
});

test("one on PATH of a fitting version is used before the kit's own build in its cache (issue #68)", () => {
  const { tool, program, env } = setup();
  mkdirSync(dirname(builtPath(tool, env)), { recursive: true });
  writeFileSync(builtPath(tool, env), '');
  program('demo', 'echo "demo version 2.4.0"');
  expect(findGoTool(tool, env)).toEqual({ bin: 'demo', from: 'path' });
});

test('without Go the tool is missing, saying how to get it; nothing is built or left behind', () => {
  const { tool, env } = setup();
  const found = goTool(tool, () => {}, { ...env, PATH: '/nonexistent' });
  expect(found).toEqual({
    missing:
      'demo is not installed, and there is no Go to build it: set DEMO_BIN to a demo binary, or install ' +
      'Go 1.26 or later and the kit builds it once from the Go module proxy',
  });
  expect(existsSync(env.KIT_CACHE!)).toBe(false);
});

test(`a first build says what it builds and about how long before it starts, and how long it took after; go's output \
goes to a log`, async () => {
  for (const build of [goTool, goToolAsync]) {
    const { tool, program, env } = setup();
    program('go', fakeGo);
    const notes: string[] = [];
    const found = await build(tool, (line) => notes.push(line), env);
    expect(found).toEqual({ bin: builtPath(tool, env), from: 'built' });
    expect(notes).toEqual([
      `[kit] building demo v2.3.4 with go1.26.8 from the Go module proxy, once, into ` +
        `${dirname(builtPath(tool, env))} (about 1 minute on two CPUs; DEMO_BIN names a binary of your own ` +
        `instead)`,
      expect.stringMatching(/^\[kit\] demo built in \d+ s: /),
      `[kit] the Go caches of the kit's builds: ${sizeOf(goCaches(env))} in ${goCaches(env)} ` +
        `(rm -rf ${goCaches(env)} removes them; the tools built stay)`,
    ]);
    expect(readFileSync(`${builtPath(tool, env)}.build.log`, 'utf8')).toContain(
      'go: downloading example.com/demo/v2 v2.3.4',
    );
    // Built once: the next call finds it without a word.
    expect(await build(tool, (line) => notes.push(line), env)).toEqual({ bin: builtPath(tool, env), from: 'cache' });
    expect(notes).toHaveLength(3);
  }
});

test(`a build that fails is missing, naming its log and what go said last, with no half-written binary \
left`, async () => {
  for (const build of [goTool, goToolAsync]) {
    const { tool, program, env } = setup();
    program(
      'go',
      'case "$1" in env) echo go1.26.8;; version) echo go version go1.26.8;; build) echo "verifying ' +
        'example.com/demo/v2@v2.3.4: checksum mismatch" >&2; exit 1;; esac',
    );
    const found = await build(tool, undefined, env);
    expect(found).toEqual({
      missing: expect.stringMatching(
        new RegExp(
          String.raw`^demo could not be built \(go build failed after \d+ s: ` +
            String.raw`verifying example\.com/demo/v2@v2\.3\.4: checksum mismatch; ` +
            String.raw`the whole output is in .*demo\.build\.log\)`,
        ),
      ),
    });
    expect(readdirSync(dirname(builtPath(tool, env)))).toEqual(['demo.build.log']);
  }
});

test(`a build's Go caches go into the kit's cache: GOPATH, its module cache and the build cache there, the module \
cache writable, the user's GOFLAGS kept`, async () => {
  for (const build of [goTool, goToolAsync]) {
    const { root, tool, program, env } = setup();
    // A go that notes the environment it builds in, then builds.
    program('go', fakeGo.replace('build) ', 'build) env | grep -E "^GO(PATH|MODCACHE|CACHE|FLAGS)=" >&2; '));
    await build(tool, undefined, { ...env, GOFLAGS: '-p=1', GOPATH: join(root, 'users-go') });
    const log = readFileSync(`${builtPath(tool, env)}.build.log`, 'utf8');
    expect(log).toContain(`GOPATH=${goCaches(env)}\n`);
    expect(log).toContain(`GOMODCACHE=${join(goCaches(env), 'pkg', 'mod')}\n`);
    expect(log).toContain(`GOCACHE=${join(goCaches(env), 'build')}\n`);
    expect(log).toContain('GOFLAGS=-p=1 -mod=readonly -modcacherw\n');
    expect(goCaches(env)).toBe(join(env.KIT_CACHE!, 'go'));
  }
});

const haveGo = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;

test.skipIf(!haveGo)(
  `a real go build in a fresh HOME leaves ~/go and ~/.cache/go-build untouched: its caches are in the kit's cache, \
whose size it says, and rm -rf removes them (issue #68: about 1 GB was left in ~/go and ~/.cache/go-build)`,
  () => {
    const root = mkdtempSync(join(tmpdir(), 'ig-go-tool-real-'));
    const home = join(root, 'home');
    mkdirSync(home);
    // A tool pinned in a wrapper module, its module beside it (replace): a real build with nothing to download.
    const buildDir = join(root, 'demo-build');
    mkdirSync(join(buildDir, 'demo'), { recursive: true });
    writeFileSync(
      join(buildDir, 'go.mod'),
      'module kit/demo-build\n\ngo 1.26\n\nrequire example.com/demo v1.2.3\n\nreplace example.com/demo => ./demo\n',
    );
    writeFileSync(join(buildDir, 'tools.go'), '//go:build tools\n\npackage tools\n\nimport _ "example.com/demo"\n');
    writeFileSync(join(buildDir, 'demo', 'go.mod'), 'module example.com/demo\n\ngo 1.26\n');
    writeFileSync(join(buildDir, 'demo', 'main.go'), 'package main\n\nfunc main() { println("demo 1.2.3") }\n');
    const tool: GoTool = {
      name: 'demo',
      env: 'DEMO_BIN',
      buildDir,
      module: 'example.com/demo',
      firstBuild: '1 minute',
      versionArgs: ['--version'],
    };
    // The user's environment as a fresh machine has it: HOME, PATH, no Go variable, no kit cache set.
    const env = { HOME: home, PATH: process.env.PATH, GOTOOLCHAIN: 'local', GOPROXY: 'off' } as NodeJS.ProcessEnv;
    const notes: string[] = [];
    const found = goTool(tool, (line) => notes.push(line), env);
    expect(found, notes.join('\n')).toEqual({ bin: builtPath(tool, env), from: 'built' });
    expect(existsSync(join(home, 'go')), '~/go').toBe(false);
    expect(existsSync(join(home, '.cache', 'go-build')), '~/.cache/go-build').toBe(false);
    const caches = join(home, '.cache', 'investor-graph-kit', 'go');
    expect(goCaches(env)).toBe(caches);
    expect(readdirSync(join(caches, 'build')).length).toBeGreaterThan(0);
    expect(notes.at(-1)).toMatch(
      new RegExp(
        `^\\[kit\\] the Go caches of the kit's builds: \\d+ (kB|MB|GB) in ${caches} \\(rm -rf ${caches} removes`,
      ),
    );
    // The one command the notes give removes the caches and leaves the tool built.
    expect(spawnSync('sh', ['-c', `rm -rf ${caches}`]).status).toBe(0);
    expect(existsSync(caches)).toBe(false);
    expect(existsSync(builtPath(tool, env))).toBe(true);
  },
  120_000,
);
