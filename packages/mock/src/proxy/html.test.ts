// @module-tag servers
/**
 * The validation proxy's page (--html), from the reports of real proxies on loopback: in front of
 * the mock with a fault, the violations by rule with their exchanges and a curl line each; in front
 * of a clean mock, a pass; in front of a hostile server, its script and the key it echoes never on
 * the page. The CLI refuses a page it cannot write before it listens, writes one on exit, and that
 * page opens in headless Chromium.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { chromiumMissing, screenshotsDir, withPage } from '@investor-graph/test-support/chromium';
import { createContractValidator } from '@investor-graph/contract';
import { newKeyText, type FaultName } from '@investor-graph/engine';
import { cli, killAll, start, stop } from '../cli/cli-process.test-support.ts';
import { createNodeServer, listen, startMock } from '../node.ts';
import { renderProxyHtml } from './html.ts';
import { createValidationProxy } from './proxy.ts';
import { ProxyReport } from './report.ts';

const validator = await createContractValidator();
const key = newKeyText('team');
const noBrowser = chromiumMissing('the validation proxy\u2019s HTML report test');
const closers: (() => Promise<unknown>)[] = [];
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ig-proxy-html-'));
});
afterAll(async () => {
  killAll();
  await Promise.all(closers.map((c) => c()));
  await rm(dir, { recursive: true, force: true });
});

/** A proxy on loopback in front of `upstream` (the mock with `faults` when none is given), and the report it fills. */
async function proxied(options: { faults?: FaultName[]; upstream?: string } = {}) {
  let upstream = options.upstream;
  if (!upstream) {
    const mock = await startMock({
      port: 0,
      keys: [{ plan: 'team', key }],
      ...(options.faults ? { faults: options.faults } : {}),
    });
    closers.push(() => mock.close());
    upstream = mock.url;
  }
  const report = new ProxyReport(upstream);
  const server = createNodeServer(
    createValidationProxy({ upstream, validator, timeoutMs: 5_000, onExchange: (r) => report.add(r) }),
  );
  const url = await listen(server, 0, '127.0.0.1');
  closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
  const get = async (path: string) =>
    (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer();
  return { upstream, report, get, url };
}

test(
  'in front of a broken service the page names each broken rule, ' +
    'and under it the exchanges that broke it with a curl line each',
  async () => {
    const { upstream, report, get } = await proxied({ faults: ['leak-email'] });
    for (const path of ['/api/v1/firms?limit=2', '/api/v1/companies?limit=1', '/api/v1/firms?limit=lots'])
      await get(path);
    const page = renderProxyHtml(report.toJSON());
    const leaks = report.toJSON().by_rule['no-people']!;
    expect(page).toMatch(
      new RegExp(`<span class="verdict failed">FAILED: ${leaks} violations of 1 rule in 3 exchanges</span>`),
    );
    // The table by rule: every rule, the broken one linked to its
    // section; the client's bad request listed, failing nothing.
    expect(page).toContain(`<a href="#rule-no-people"><code>no-people</code></a>`);
    expect(page).toContain('<td><code>upstream</code></td><td>the service was reachable and answered in time</td>');
    expect(page).toContain('<a href="#rule-request"><code>request</code></a>');
    const section =
      /<div class="failure" id="rule-no-people">[^]*?<\/div>(?=<div class="failure"|<\/section>)/.exec(page)?.[0] ?? '';
    expect(section).toContain('<code>GET /api/v1/firms?limit=2</code> -> <span class="badge passed">200</span>');
    expect(section).toContain('contact_email');
    expect(section).toContain(
      `curl -i -H &quot;Authorization: Bearer $INVESTOR_GRAPH_KEY&quot; ` +
        `&#39;${upstream}/api/v1/firms?limit=2&#39;</pre>`,
    );
    // Each violation kept: no note of others counted only.
    expect(section).not.toContain('counted, not kept');
    expect(page).not.toContain(key);
  },
);

test('in front of a clean service the page says so, every rule held', async () => {
  const { report, get } = await proxied();
  await get('/api/v1/firms?limit=2');
  const page = renderProxyHtml(report.toJSON());
  expect(page).toContain('<span class="verdict ok">PASSED: no rule broken in 1 exchange</span>');
  expect(page).not.toContain('id="violations"');
});

test('a script and the key a hostile service sends back are text on the page, the key blanked', async () => {
  const hostile: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        data: [{ slug: '<script>alert(1)</script>', note: `you sent ${req.headers.authorization}` }],
        as_of: 'now',
      }),
    );
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((r) => hostile.close(r)));
  const { report, get } = await proxied({
    upstream: `http://127.0.0.1:${(hostile.address() as { port: number }).port}`,
  });
  await get('/api/v1/firms?limit=2&x=<script>');
  const json = report.toJSON();
  expect(json.violations.length).toBeGreaterThan(0);
  const page = renderProxyHtml(json);
  expect(page).not.toMatch(/<script/i);
  expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(page).not.toContain(key);
  expect(page).not.toMatch(/<[^>]*\s(?:src|href)\s*=\s*(?!["']?#)/i);
});

test(
  'a call sent without a key is replayed without one: only a call ' +
    'that carried a key gets the Authorization header in its curl line',
  async () => {
    // Every answer an empty object: no list envelope, a contract violation on every call.
    const broken: Server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    );
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((r) => broken.close(r)));
    const { upstream, report, get, url } = await proxied({
      upstream: `http://127.0.0.1:${(broken.address() as { port: number }).port}`,
    });
    await (await fetch(`${url}/api/v1/firms?limit=1`)).arrayBuffer();
    await get('/api/v1/firms?limit=2');
    const page = renderProxyHtml(report.toJSON());
    expect(page).toContain(`<pre class="command">curl -i &#39;${upstream}/api/v1/firms?limit=1&#39;</pre>`);
    expect(page).toContain(
      `<pre class="command">curl -i -H &quot;Authorization: Bearer $INVESTOR_GRAPH_KEY&quot; ` +
        `&#39;${upstream}/api/v1/firms?limit=2&#39;</pre>`,
    );
    // The record says whether a key went, never which.
    expect(JSON.stringify(report.toJSON())).not.toContain(key);
  },
);

test('an --html path the proxy cannot write is one line and exit 2, before it listens', async () => {
  const file = join(dir, 'a-file');
  await writeFile(file, '');
  const run = spawnSync(process.execPath, [cli, 'proxy', 'http://127.0.0.1:9', '--html', join(file, 'proxy.html')], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toBe(
    `[investor-graph proxy] --html ${join(file, 'proxy.html')}: cannot be written ` +
      `(${file} is a file, not a folder) (see investor-graph-mock proxy --help)\n`,
  );
  expect(run.stdout).toBe('');
});

test('an --html naming the file of --report or --junit is refused in one line, exit 2, before it listens', () => {
  for (const flag of ['report', 'junit']) {
    const file = join(dir, `same.${flag}`);
    // The same file by another spelling: the paths are compared resolved.
    const spelt = join(dir, '.', '..', basename(dir), `same.${flag}`);
    const run = spawnSync(process.execPath, [cli, 'proxy', 'http://127.0.0.1:9', `--${flag}`, file, '--html', spelt], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toBe(
      `[investor-graph proxy] --html ${spelt} is the file of --${flag}: give the page a name of its own (see ` +
        `investor-graph-mock proxy --help)\n`,
    );
    expect(run.stdout).toBe('');
  }
});

test.skipIf(noBrowser)(
  'the page the proxy CLI writes on exit opens offline in headless Chromium: no console error, no request but ' +
    'itself, the violation in sight',
  async ({ annotate }) => {
    const leakyKey = 'igk_team_htmlhtmlhtmlhtmlhtmlhtml1234';
    const upstream = await start('--key', `team=${leakyKey}`, '--fault', 'leak-email');
    const html = join(dir, 'out', 'proxy.html');
    const proxy = await start(
      'proxy',
      upstream.url,
      '--report',
      join(dir, 'out', 'proxy.json'),
      '--junit',
      join(dir, 'out', 'proxy.xml'),
      '--html',
      html,
    );
    expect(
      (await fetch(`${proxy.url}/api/v1/firms?limit=2`, { headers: { authorization: `Bearer ${leakyKey}` } })).status,
    ).toBe(200);
    expect(await stop(proxy.child)).toBe(1);
    await stop(upstream.child);
    expect(await readFile(html, 'utf8')).not.toContain(leakyKey);
    await withPage(html, async (page) => {
      expect(await page.text('.verdict')).toMatch(/^FAILED: \d+ violations of 1 rule in 1 exchange$/);
      expect(await page.visible('#rule-no-people')).toBe(true);
      // The exchange, the field that broke the rule, then the curl line that replays it: in that order.
      const shown = await page.text('#rule-no-people');
      const exchange = shown.indexOf('GET /api/v1/firms?limit=2 -> 200');
      const field = shown.indexOf('contact_email', exchange);
      expect([exchange, field].every((at) => at >= 0)).toBe(true);
      expect(shown.slice(field)).toContain('curl -i -H "Authorization: Bearer $INVESTOR_GRAPH_KEY"');
      const shot = join(screenshotsDir, 'proxy-html-report.png');
      await page.screenshot(shot);
      await annotate(
        `the validation proxy's HTML report in front of the mock with leak-email, in headless Chromium ` +
          `(${relative(process.cwd(), shot)})`,
        { path: shot, contentType: 'image/png' },
      );
      expect(page.problems).toEqual([]);
      expect(page.requests).toEqual([`file://${html}`]);
    });
  },
);

test('an exchange the proxy stopped before the service answered shows "no answer", not a status', () => {
  const report = new ProxyReport('http://127.0.0.1:9');
  report.add({
    at: '2026-11-01T00:00:00.000Z',
    method: 'GET',
    path: '/api/v1/firms',
    status: 0,
    ms: 5,
    violations: [
      {
        side: 'response',
        rule: 'not_validated',
        message: 'the proxy was stopped (SIGTERM) before this exchange was through',
      },
    ],
  });
  const page = renderProxyHtml(report.toJSON());
  expect(page).toContain('<code>GET /api/v1/firms</code> -> <span class="badge failed">no answer</span>');
  expect(page).toContain('the proxy was stopped (SIGTERM) before this exchange was through');
});
