// @module-tag servers
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { builtPath, findGoTool, goTool, goToolAsync, pinnedVersion, type GoTool } from './go-tool.ts';

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

test('one on PATH is taken only when it reports the pinned version', () => {
  const { tool, program, env } = setup();
  program('demo', 'echo "demo version 2.3.4"');
  expect(findGoTool(tool, env)).toEqual({ bin: 'demo', from: 'path' });
  program('demo', 'echo "demo version 1.9.0"');
  expect(findGoTool(tool, env)).toBeNull();
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
    ]);
    expect(readFileSync(`${builtPath(tool, env)}.build.log`, 'utf8')).toContain(
      'go: downloading example.com/demo/v2 v2.3.4',
    );
    // Built once: the next call finds it without a word.
    expect(await build(tool, (line) => notes.push(line), env)).toEqual({ bin: builtPath(tool, env), from: 'cache' });
    expect(notes).toHaveLength(2);
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
