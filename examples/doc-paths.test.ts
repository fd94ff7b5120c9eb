/**
 * Issue #67: READMEs and file headers named files that no longer exist. Every path a document (each
 * *.md of the tree) or a source file's header comment names must exist. A path is looked for from
 * its file's folder, its package, the package's src/ and the root; a partial path (`journal/match.ts`)
 * counts when it ends a path of the tree. Paths the kit writes (test-results/, dist/) are not the tree's.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, test } from 'vitest';
import { root } from './readme.ts';

/** What a file of the tree is named by: a known extension (code, docs, config). */
const extension = /\.(ts|mts|cts|js|mjs|cjs|json|md|ya?ml|toml|py|sh|cfg|txt|html)$/;
/**
 * A bare name (no folder) is a path only when it is one of the kit's own source names: kebab-case
 * with one role suffix at most (`round-lag.test.ts`). `x.js` is left out: in a TypeScript tree it is
 * as often the build of `x.ts` as a file (`browser.js`), and `Node.js` or `scarf.sh` are no files.
 */
const sourceName = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z]+(?:-[a-z]+)*)?\.(ts|mts|cts|mjs|cjs)$/;
/** A run of path characters not glued to a URL, a glob, a placeholder, a package name or a call. */
const token = /(?<![\w.@/*<>{}$%:~\\-])(?:\.\.?\/)*[\w-][\w.-]*(?:\/[\w.-]+)*\/?(?![\w/*<>{}$%(-])/g;

/** The tree: every file and folder by its path from the root, without what .gitignore keeps out. */
export interface Tree {
  paths: Set<string>;
  /** Every path and each of its tails at a folder boundary (`src/journal/match.ts`, `journal/match.ts`). */
  tails: Set<string>;
  /** The names of its folders: a path's first folder must be one, or it is not the tree's. */
  folders: Set<string>;
}

/** The tree of a list of files (and folders): each file's folders are in it too. */
export function treeOf(files: string[]): Tree {
  const paths = new Set<string>();
  const tails = new Set<string>();
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let end = 1; end <= parts.length; end++) paths.add(parts.slice(0, end).join('/'));
    for (let start = 0; start < parts.length; start++) tails.add(parts.slice(start).join('/'));
    for (const folder of parts.slice(0, -1)) folders.add(folder);
  }
  return { paths, tails, folders };
}

/** The words of a text that name a path: a known extension or a trailing slash, under a folder of the tree. */
export function pathsIn(text: string, tree: Tree): string[] {
  const found = [...text.matchAll(token)].map((m) => m[0].replace(/\.+$/, ''));
  return [
    ...new Set(
      found.filter((word) => {
        const rest = word.replace(/^(?:\.\.?\/)+/, '');
        if (rest.includes('/'))
          return tree.folders.has(rest.split('/')[0]!) && (rest.endsWith('/') || extension.test(rest));
        return rest !== word ? extension.test(rest) : sourceName.test(rest);
      }),
    ),
  ];
}

/** The package a file is in (`packages/mock`, `load`), or '' for the root's own files. */
const packageOf = (file: string): string => {
  const parts = file.split('/');
  if (parts.length === 1) return '';
  return parts[0] === 'packages' ? parts.slice(0, 2).join('/') : parts[0]!;
};

/**
 * Whether a path named in `file` exists. `./x` and `../x` are read from the file's folder or its
 * package (a command's folder); one that leaves the repository from both is not the tree's to judge.
 * Any other path is read from the file's folder, its package, the package's src/ or the root, or ends a path.
 */
export function exists(path: string, file: string, tree: Tree): boolean {
  const target = path.replace(/\/$/, '');
  const pkg = packageOf(file);
  if (/^\.\.?\//.test(path)) {
    const tries = [posix.dirname(file), pkg].map((from) => posix.join(from, target));
    return tries.some((p) => tree.paths.has(p)) || tries.every((p) => p.startsWith('../'));
  }
  const anchors = [posix.dirname(file), pkg, pkg && `${pkg}/src`, ''];
  return anchors.some((anchor) => tree.paths.has(posix.join(anchor, target))) || tree.tails.has(target);
}

/** The paths a text of `file` names that do not exist, as `file: path`. */
export function stalePaths(file: string, text: string, tree: Tree): string[] {
  return pathsIn(text, tree)
    .filter((path) => !exists(path, file, tree))
    .map((path) => `${file}: ${path}`);
}

/** A document's stale paths: a README example (`<!-- example: PATH -->`) is read from PATH's folder. */
export function staleInDocument(file: string, markdown: string, tree: Tree): string[] {
  const example = /<!-- example: ([\w./-]+) -->\n```\w*\n([\s\S]*?)```/g;
  const inExamples = [...markdown.matchAll(example)].flatMap((m) =>
    stalePaths(m[1]!, m[2]!, tree).map((s) => `${file}: ${s.slice(m[1]!.length + 2)}`),
  );
  return [...inExamples, ...stalePaths(file, markdown.replace(example, ''), tree)];
}

/** A source file's header: the comment it opens with (a shebang and a `// @module-tag` line aside). */
export function headerOf(source: string): string {
  const text = source
    .replace(/^#!.*\n/, '')
    .replace(/^\/\/ @module-tag.*\n/, '')
    .trimStart();
  return /^\/\*[^]*?\*\//.exec(text)?.[0] ?? /^(?:\/\/.*\n)+/.exec(text)?.[0] ?? '';
}

/** The folders .gitignore keeps out by name (`node_modules/`, `dist/`, `test-results/`), and .git. */
const ignored = new Set([
  '.git',
  ...readFileSync(join(root, '.gitignore'), 'utf8')
    .split('\n')
    .filter((line) => /^[\w.-]+\/$/.test(line.trim()))
    .map((line) => line.trim().slice(0, -1)),
]);

function walk(dir = ''): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = dir ? `${dir}/${name}` : name;
    if (ignored.has(name)) return [];
    return statSync(join(root, path)).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

describe('every path the documents and file headers name exists', () => {
  const paths = walk();
  const tree = treeOf(paths);
  const documents = paths.filter((p) => p.endsWith('.md'));
  const sources = paths.filter(
    (p) => /\.(ts|mts|js|mjs|cjs)$/.test(p) && /^(packages\/[^/]+\/src|load|examples|scripts)\//.test(p),
  );
  const stale = [
    ...documents.flatMap((file) => staleInDocument(file, readFileSync(join(root, file), 'utf8'), tree)),
    ...sources.flatMap((file) => stalePaths(file, headerOf(readFileSync(join(root, file), 'utf8')), tree)),
  ];

  test('in every README, CONTRIBUTING, ARCHITECTURE and the other documents, and every file header', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md']));
    expect(sources.length).toBeGreaterThan(100);
    expect(stale).toEqual([]);
  });
});

describe('the path finder', () => {
  const tree = treeOf([
    'contracts/DECISIONS.md',
    'packages/mock/README.md',
    'packages/mock/src/node.ts',
    'packages/mock/src/sync/round-trip.test.ts',
    'packages/engine/src/journal/match.ts',
  ]);

  test('finds a missing file and a missing folder, from the file, its package, its src/ and the root', () => {
    const text =
      'See `src/node.ts`, `node.ts`, `./README.md`, `contracts/DECISIONS.md`, `sync/`, `journal/match.ts` ' +
      'and `packages/mock/src/sync/` (all there), but `src/gone.ts`, `packages/mock/src/engine/`, ' +
      '`request-path.ts` and `./gone.ts` are not.';
    expect(stalePaths('packages/mock/README.md', text, tree)).toEqual([
      'packages/mock/README.md: src/gone.ts',
      'packages/mock/README.md: packages/mock/src/engine/',
      'packages/mock/README.md: request-path.ts',
      'packages/mock/README.md: ./gone.ts',
    ]);
    // Out of the repository from the file and its package alike: a command's folder, not the tree's.
    expect(stalePaths('packages/mock/README.md', '`../../../packages/spec.md`, `../gone.md`', tree)).toEqual([
      'packages/mock/README.md: ../gone.md',
    ]);
  });

  test('leaves out URLs, globs, placeholders, package names, calls, outputs and names that are no files', () => {
    const text =
      'https://github.com/honojs/hono/blob/main/src/hono-base.ts, packages/*/src/x.ts, <date>/<name>.json, ' +
      '`@investor-graph/contract/DECISIONS.md`, `HttpResponse.json()`, `test-results/junit.xml`, `dist/`, ' +
      'Node.js, scarf.sh, the published `browser.js`, `W/"2e"`, `/api/v1/%2e%2e/`, hono\'s `common.case.test.ts`.';
    expect(pathsIn(text, tree)).toEqual([]);
  });

  test('reads a README example from the folder of the file it copies', () => {
    const markdown = "<!-- example: packages/mock/src/sync/x.ts -->\n```ts\nimport './round-trip.test.ts';\n```\n";
    expect(staleInDocument('README.md', markdown, tree)).toEqual([]);
    expect(staleInDocument('README.md', markdown.replace('round-trip', 'gone'), tree)).toEqual([
      'README.md: ./gone.test.ts',
    ]);
  });

  test("a header is the comment a file opens with, after its shebang and tag, not a function's", () => {
    expect(headerOf('#!/usr/bin/env node\n// @module-tag servers\n/** a `x.ts` */\n/** b */')).toBe('/** a `x.ts` */');
    expect(headerOf('// one\n// two\nconst a = 1;\n')).toBe('// one\n// two\n');
    expect(headerOf("import x from './x.ts';\n/** later */")).toBe('');
  });
});
