// Builds `@investor-graph/msw/browser` as one ES module for browsers: the engine, the contract,
// prism-http's validator and the dataset loader inside, `msw` left to the app. prism-http's
// dependencies name Node built-ins where nothing they give back matters on the browser entry's
// path (its ref parser's file and URL bookkeeping, a user agent string); each gets a stand-in, and
// any built-in not on the list below fails the build, so a new one is looked at before it ships.
//   node build-browser.mjs [OUTFILE]     (dist/browser.js by default; run by `pnpm build`)
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The Node built-ins prism-http's dependencies import, with nothing they give back used on the
 * browser entry's path.
 */
const inert = new Set(['os', 'url', 'fs', 'path', 'stream', 'buffer', 'util', 'string_decoder']);

/**
 * The stand-in of one built-in: whatever is read of it or called on it gives the stand-in back
 * (never a thenable, so nothing awaits it forever). That is all prism-http's ref parser does with
 * `url` and `path` on a contract with no `$ref` left: it files the document under a base path it
 * never resolves against. What it may not do is change a verdict, and browser.test.ts holds every
 * verdict equal to prism-http's under Node.
 */
const standIn = `const inert = new Proxy(function () {}, {
  get: (_, key) => (key === Symbol.toPrimitive ? () => '' : key === '__esModule' || key === 'then' ? undefined : inert),
  apply: () => inert,
  construct: () => inert,
});
module.exports = inert;`;

/** prism-http writes a user agent for its HTTP ref resolver (never used here) from os.type(), arch() and release(). */
const osStandIn =
  "module.exports = { type: () => 'Browser', arch: () => '', release: () => '', " +
  "platform: () => 'browser', EOL: '\\n' };";

export async function buildBrowserBundle({ outfile = 'dist/browser.js', minify = true } = {}) {
  const refused = new Set();
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./src/browser.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify,
    metafile: true,
    logLevel: 'error',
    external: ['msw', 'msw/*'],
    // prism-http's ref parser reads process.platform as it loads and asks process.browser before
    // it reaches for the file system or Node's http: in a page it is a browser.
    define: {
      'process.env.NODE_ENV': '"production"',
      'process.platform': '"browser"',
      'process.browser': 'true',
      global: 'globalThis',
    },
    plugins: [
      {
        name: 'investor-graph-browser',
        setup(b) {
          // jsonc-parser's UMD build (what require() gets) loads its parts with a dynamic require.
          b.onResolve({ filter: /^jsonc-parser$/ }, async (args) => {
            const esm = await b.resolve('jsonc-parser/lib/esm/main.js', {
              resolveDir: args.resolveDir,
              kind: 'import-statement',
            });
            return { path: esm.path };
          });
          // The contract's own operations come from a file Node reads; the browser validator reads
          // its dereferenced copy instead and never asks for them.
          b.onResolve({ filter: /\/own-operations\.ts$/ }, () => ({ path: 'own-operations', namespace: 'absent' }));
          b.onLoad({ filter: /.*/, namespace: 'absent' }, () => ({
            contents: "export const read = () => { throw new Error('[investor-graph] not in a browser'); };",
            loader: 'js',
          }));
          b.onResolve({ filter: /^(node:)?[a-z_]+$/ }, (args) => {
            const name = args.path.replace(/^node:/, '');
            if (inert.has(name)) return { path: name, namespace: 'inert' };
            if (args.path.startsWith('node:')) refused.add(name);
            return undefined;
          });
          b.onLoad({ filter: /.*/, namespace: 'inert' }, (args) => ({
            contents: args.path === 'os' ? osStandIn : standIn,
            loader: 'js',
          }));
        },
      },
    ],
  });
  if (refused.size)
    throw new Error(
      `[investor-graph] the browser bundle reaches Node built-ins with no stand-in: ${[...refused].join(', ')}`,
    );
  // tsc's map of the module this bundle replaces would point a debugger at the wrong lines.
  rmSync(`${outfile}.map`, { force: true });
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outfile = process.argv[2] ?? 'dist/browser.js';
  const result = await buildBrowserBundle({ outfile });
  const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  console.log(`[investor-graph] ${outfile}: ${(bytes / 1024).toFixed(0)} KiB`);
}
