// @module-tag servers
import { build } from 'esbuild';
import { expect, test } from 'vitest';

// The handlers are meant to run under msw/browser too. What a browser bundle may not hold is any
// Node built-in. The lazy imports (the on-disk default dataset and prism-http's validator) are
// only reached when the caller gives no dataset and no validator, so they stay out of the bundle.
test('the MSW handlers and the engine bundle for a browser without any Node built-in', async () => {
  const result = await build({
    entryPoints: [new URL('./index.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['msw', '@investor-graph/dataset', '@investor-graph/dataset-tools/node', '@investor-graph/contract'],
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((i) => i.endsWith('engine/src/engine.ts'))).toBe(true);
  expect(inputs.filter((i) => /prism|node:/.test(i))).toEqual([]);
  const code = result.outputFiles[0]!.text;
  expect(code).not.toMatch(/from ["']node:/);
});

test(`prism-http itself does not bundle for a browser as it is: the reason the browser entry ships pre-built \
(build-browser.mjs)`, async () => {
  const attempt = build({
    stdin: {
      contents: "import p from '@stoplight/prism-http'; console.log(p);",
      resolveDir: new URL('../../contract', import.meta.url).pathname,
    },
    bundle: true,
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  await expect(attempt).rejects.toThrow(/Could not resolve "(net|tls|path|os|events)"/);
});
