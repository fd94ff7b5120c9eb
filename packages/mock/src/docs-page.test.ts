// @module-tag servers
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openapiDocument } from '@investor-graph/contract/document';
import { chromium, type Browser } from 'playwright-core';
import { startMock, type RunningMock } from './cli/start-mock.ts';

// Debian's chromium; CI installs it (.ci/run), elsewhere the browser test is skipped unless it is there.
const chromiumBin = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromiumBin);
if (!haveChromium && process.env.CI)
  throw new Error(
    `CI needs Chromium for the /docs test, and ${chromiumBin} is missing (.ci/run installs Debian's chromium)`,
  );
const screenshots = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));

const summaries = Object.values(openapiDocument.paths as Record<string, Record<string, { summary?: string }>>)
  .flatMap((item) => Object.values(item).map((op) => op.summary))
  .filter((s): s is string => typeof s === 'string');

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock.close());

test(
  '/docs is an HTML page whose scripts all come from the ' + 'mock, under a policy that forbids any other origin',
  async () => {
    const page = await fetch(`${mock.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const html = await page.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(['/docs/scalar.js', '/docs/init.js']);
    for (const src of scripts) {
      const res = await fetch(`${mock.url}${src}`);
      expect(res.status, src).toBe(200);
      expect(res.headers.get('content-type'), src).toMatch(/^text\/javascript/);
      expect((await res.arrayBuffer()).byteLength, src).toBeGreaterThan(100);
    }
    const head = await fetch(`${mock.url}/docs`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  },
);

test("anything under /docs that is not the page or its scripts is the API's own problem+json 404", async () => {
  const res = await fetch(`${mock.url}/docs/../api/v1/nope`);
  expect(res.status).toBe(404);
  const other = await fetch(`${mock.url}/docs/secret.js`);
  expect(other.status).toBe(404);
  expect(other.headers.get('content-type')).toBe('application/problem+json');
  const posted = await fetch(`${mock.url}/docs`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  expect(posted.headers.get('content-type')).toBe('application/problem+json');
});

test.skipIf(!haveChromium)(
  'in headless Chromium the reference lists every operation, logs no error and calls nothing but the mock',
  async ({ annotate }) => {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: chromiumBin,
        // Chromium's own background calls would be refused by a closed network, noisily.
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
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      const elsewhere: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
      page.on('request', (r) => {
        if (!r.url().startsWith(`${mock.url}/`) && !r.url().startsWith('data:')) elsewhere.push(r.url());
      });
      page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
      await page.goto(`${mock.url}/docs`, { waitUntil: 'load' });
      await page.getByText(summaries.at(-1)!, { exact: true }).first().waitFor({ timeout: 30_000 });
      const text = await page.locator('body').innerText();

      mkdirSync(screenshots, { recursive: true });
      const shot = `${screenshots}docs.png`;
      await page.screenshot({ path: shot });
      await annotate('the /docs page in headless Chromium', { path: shot, contentType: 'image/png' });

      expect(summaries.length).toBeGreaterThan(20);
      expect(
        summaries.filter((s) => !text.includes(s)),
        'operations missing from the page',
      ).toEqual([]);
      expect(text).toContain(mock.url); // try-it calls go to this mock, not the contract's default server
      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await browser?.close();
    }
  },
);
