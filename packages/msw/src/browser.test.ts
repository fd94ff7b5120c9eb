// @module-tag servers
/**
 * @investor-graph/msw/browser in a real browser: the published bundle (built as `pnpm build`
 * builds it), a page bundled from it with esbuild as an app's bundler would, the worker script
 * from `msw init`, served on loopback and opened in headless Debian Chromium.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createContractValidator, operations, plans, type HttpRequestLike } from '@investor-graph/contract';
import { datasetDir } from '@investor-graph/dataset';
// @ts-expect-error: a plain .mjs script (the package's build step), no declarations.
import { buildBrowserBundle } from '../build-browser.mjs';

const chromiumBin = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromiumBin);
if (!haveChromium && process.env.CI)
  throw new Error(
    `CI needs Chromium for the browser test, and ${chromiumBin} is missing (.ci/run installs Debian's chromium)`,
  );
const screenshots = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));
const here = dirname(fileURLToPath(import.meta.url));

const site = mkdtempSync(join(tmpdir(), 'ig-msw-browser-'));
let server: Server;
let origin = '';
let bundleBytes = 0;

beforeAll(async () => {
  // The package's own bundle, then the app around it, as a user's bundler sees them.
  const bundle = await buildBrowserBundle({ outfile: join(site, 'investor-graph-msw.js') });
  bundleBytes = Object.values(bundle.metafile.outputs as Record<string, { bytes: number }>).reduce(
    (sum, o) => sum + o.bytes,
    0,
  );
  const alias = { '@investor-graph/msw/browser': join(site, 'investor-graph-msw.js') };
  await build({
    entryPoints: [join(here, 'browser-page/app.ts')],
    outfile: join(site, 'app.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    logLevel: 'error',
    alias,
    nodePaths: [join(here, '../node_modules')],
  });
  // The worker script, as `npx msw init <public dir>` writes it.
  const msw = dirname(createRequire(import.meta.url).resolve('msw/package.json'));
  const init = spawnSync(process.execPath, [join(msw, 'cli/index.js'), 'init', site, '--no-save'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(init.status, init.stdout + init.stderr).toBe(0);

  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const file =
      path === '/'
        ? null
        : path.startsWith('/dataset/')
          ? join(datasetDir, normalize(path.slice('/dataset/'.length)))
          : join(site, normalize(path));
    if (file === null) {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>app</title><script type="module" src="/app.js"></script>');
    } else if (existsSync(file) && statSync(file).isFile()) {
      res
        .writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream' })
        .end(readFileSync(file));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(site, { recursive: true, force: true });
});

/** Requests the contract's validation must judge: each query parameter given values of every kind. */
function requestCases(): { operationId: string; request: HttpRequestLike }[] {
  const values = [
    '',
    'abc',
    '0',
    '-1',
    '25',
    '1001',
    '2.5',
    '2026-11-01',
    '2026-13-45T00:00:00Z',
    '2026-11-01T00:00:00Z',
    'seed',
    'series_z',
  ];
  const cases: { operationId: string; request: HttpRequestLike }[] = [];
  for (const op of operations.filter((o) => o.method === 'GET')) {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'date'
        ? '2026-11-20'
        : name === 'file'
          ? 'firms.jsonl.gz'
          : name === 'name'
            ? 'rounds-by-year'
            : 'harbor-lane-capital',
    );
    const headers = { authorization: 'Bearer igk_test' };
    cases.push({ operationId: op.operationId, request: { method: 'GET', path, headers } });
    cases.push({
      operationId: op.operationId,
      request: { method: 'GET', path: path.replace('harbor-lane-capital', 'Not A Slug!'), headers },
    });
    for (const name of op.query)
      for (const value of values)
        cases.push({
          operationId: op.operationId,
          request: { method: 'GET', path, query: { [name]: value }, headers },
        });
  }
  // The one call with a body: the trial key's request, well-formed and not.
  const trial = operations.find((o) => o.method === 'POST')!;
  for (const body of [
    { email: 'dev@example.com' },
    { email: 'not an address' },
    {},
    { email: 5 },
    { email: 'dev@example.com', extra: true },
    'text',
    null,
  ]) {
    cases.push({
      operationId: trial.operationId,
      request: { method: 'POST', path: trial.path, headers: { 'content-type': 'application/json' }, body },
    });
  }
  return cases;
}

test.skipIf(!haveChromium)(
  `in headless Chromium, setupWorker serves the API to fetch and XHR: cursor pages, a 402 with actions, 429 after a \
burst, calls counted, the test clock and reset`,
  async ({ annotate }) => {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: chromiumBin,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      const problems: string[] = [];
      const elsewhere: string[] = [];
      page.on('console', (m) => {
        // Chromium logs every 4xx it loads; the API's deliberate ones (402, 429) are asserted below.
        if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) return;
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
      // A request the handlers let by would go out to the network, which the API's origin is not on.
      page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
      // Requests the worker answers never reach the network; anything else must stay on loopback,
      // and the app's own files all load.
      page.on('response', (r) => {
        if (r.fromServiceWorker()) return;
        if (!r.url().startsWith(`${origin}/`)) elsewhere.push(r.url());
        else if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} for ${r.url()}`);
      });
      await page.goto(origin, { waitUntil: 'load' });
      await page.waitForFunction(() => (window as any).seen, null, { timeout: 60_000 });
      const seen = await page.evaluate(() => (window as any).seen);
      expect(seen.error, seen.error).toBeUndefined();

      mkdirSync(screenshots, { recursive: true });
      const shot = `${screenshots}msw-browser.png`;
      await page.screenshot({ path: shot });
      await annotate('the MSW browser page in headless Chromium', { path: shot, contentType: 'image/png' });

      // Four pages of 20 firms, each after the last: no firm twice, in key order.
      expect(seen.pages).toBe(4);
      expect(seen.slugs).toHaveLength(80);
      expect(new Set(seen.slugs).size).toBe(80);
      expect([...seen.slugs].sort()).toEqual(seen.slugs);
      expect(seen.feed).toMatchObject({ status: 402, code: 'plan_feature_unavailable' });
      expect(seen.feed.actions).toContain('subscribe');
      // The trial's bucket lets a few through (how many depends on how fast the page
      // sends); most of the burst is refused.
      expect(seen.burst.filter((s: number) => s === 200).length).toBeGreaterThan(0);
      expect(seen.burst.filter((s: number) => s === 429).length).toBeGreaterThan(30 - 10 * plans.trial.rate_per_second);
      expect(Number(seen.limited.retryAfter)).toBeGreaterThan(0);
      expect(seen.limited.body.actions.length).toBeGreaterThan(0);
      expect(seen.callsUsed).toBe(4);
      expect(Date.parse(seen.clock.advanced) - Date.parse(seen.clock.before)).toBe(86_400_000);
      expect(seen.clock.applied).toBeGreaterThan(0);
      expect(seen.clock.afterReset).toBe(seen.clock.before);
      expect(seen.callsUsedAfterReset).toBe(0);
      expect(seen.generated).toMatchObject({ sameRows: true, rows: 100 });

      // The browser's validator gives prism-http's verdicts under Node, case by case.
      const cases = requestCases();
      const node = await createContractValidator();
      const inBrowser = await page.evaluate((c) => (window as any).verdicts(c), cases);
      const differ = cases
        .map((c, i) => ({ c, node: node.validateRequest(c.operationId, c.request), browser: inBrowser[i] }))
        .filter((d) => JSON.stringify(d.node) !== JSON.stringify(d.browser));
      expect(cases.length).toBeGreaterThan(300);
      expect(inBrowser.filter((v: unknown[]) => v.length > 0).length, 'some cases are refused').toBeGreaterThan(100);
      expect(differ.slice(0, 3)).toEqual([]);

      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
      console.log(
        `[investor-graph] @investor-graph/msw/browser adds ${(bundleBytes / 1024).toFixed(0)} KiB to a ` +
          `dev build (${(gzipSync(readFileSync(join(site, 'investor-graph-msw.js'))).length / 1024).toFixed(0)} ` +
          `KiB gzipped), msw itself aside; the default dataset generated in the page took ` +
          `${seen.generated.ms} ms`,
      );
    } finally {
      await browser?.close();
    }
  },
  120_000,
);
