// @module-tag servers
/**
 * The contract tests' page (--html), from the reports of real runs against the mock with a fault
 * switched on and against a hostile server on loopback: the verdict, each failure with its call
 * and the lines that replay it, the matrix, the operations covered, a diff when the report has
 * one; a served `<script>` and the run's key never reach it. The CLI writes it, refuses a path it
 * cannot write before any call, and the page it wrote opens in headless Chromium.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { operations } from '@investor-graph/contract';
import { chromiumMissing, screenshotsDir, withPage } from '@investor-graph/test-support/chromium';
import { newKeyText } from '@investor-graph/mock';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { prepare } from '../core/context.ts';
import { renderHtmlReport } from './html-report.ts';
import { properties } from '../properties.ts';
import { buildReport, mergeReports, type Report } from './report.ts';
import { matrix } from '../rule-matrix/rule-matrix.ts';
import { runProperty } from '../core/run.ts';

const key = newKeyText('team');
const enterprise = newKeyText('enterprise');
/** A key of the service's own form: only the run's knowing it blanks it. */
const ownFormKey = 'sk_live_hostile_ABCdef0123456789';
/** Keys the hostile server mints for the run (a trial's, and one from its control API), of no form the kit knows. */
const mintedKey = 'sk_trial_minted_XYZ0123456789abcdef';
const controlKey = 'sk_control_minted_QRS9876543210fedcba';
const noBrowser = chromiumMissing('the contract tests\u2019 HTML report test');
let mock: RunningMock;
let hostile: Server;
let hostileUrl: string;
let dir: string;
let broken: Report;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ig-html-report-'));
  mock = await startMock({
    port: 0,
    keys: [
      { plan: 'team', key },
      { plan: 'enterprise', key: enterprise },
    ],
    faults: ['server-error-on-bad-input'],
  });
  // Every answer a valid envelope whose record, and a header, carry a script and the key it was sent.
  hostile = createServer((req, res) => {
    // Keys of the service's own form, minted for anyone who asks (a trial, a control API's key): no
    // look to find them by.
    const minted =
      req.method === 'POST' && req.url === '/api/v1/keys/trial'
        ? mintedKey
        : req.method === 'POST' && req.url === '/__control/keys'
          ? controlKey
          : null;
    if (minted || req.url === '/__control/state') {
      res
        .writeHead(minted ? 201 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(minted ? { key: minted, key_id: 'k1' } : {}));
      return;
    }
    const echo = req.headers.authorization ?? '';
    res.writeHead(200, {
      'content-type': 'application/json',
      'www-authenticate': `Bearer realm="<script>alert(1)</script>", echo="${echo}"`,
    });
    // The key it was sent, also bare: no Bearer before it to find it by.
    res.end(
      JSON.stringify({
        data: [
          {
            slug: 'a<script>alert(1)</script>',
            id: 'x',
            note: `you sent ${echo}`,
            token: echo.replace(/^Bearer /, ''),
          },
        ],
        as_of: '2026-01-01T00:00:00Z',
      }),
    );
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as { port: number }).port}`;
  broken = await reportOf(mock.url, key, 'team', ['conforms', 'bad-input']);
});
afterAll(async () => {
  await mock?.close();
  await new Promise((resolve) => hostile?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** A real run of a few properties, as the suite runs them, and its report. */
async function reportOf(baseUrl: string, runKey: string, plan: 'team' | 'enterprise', only: string[]): Promise<Report> {
  const ctx = await prepare({ baseUrl, key: runKey, plan, budget: { calls: 60, rows: 5_000 }, seed: 3, runs: 3, only });
  const results = [];
  for (const id of only)
    results.push(
      await runProperty(
        ctx,
        properties.find((p) => p.id === id)!,
      ),
    );
  return buildReport(ctx, results);
}

/** The text of the page's section `id` (markup and all). */
const section = (page: string, id: string): string =>
  [...page.matchAll(/<section id="([^"]+)">[^]*?<\/section>/g)].find((m) => m[1] === id)?.[0] ?? '';

test("a broken run's page shows each failure, its call and the curl and CLI lines replaying it, never the key", () => {
  const page = renderHtmlReport(broken);
  expect(broken.properties.find((p) => p.id === 'bad-input')!.status).toBe('failed');
  expect(page).toMatch(/<span class="verdict failed">FAILED: 1 property broke/);
  const failure =
    /<div class="failure" id="property-bad-input">[^]*?<\/div>\n?(?=<div class="failure"|<\/section>)/.exec(
      page,
    )?.[0] ?? '';
  expect(failure).toContain('expected');
  // Its call: the request line and the answer's status (the fault's 500), headers and body.
  const call = broken.properties.find((p) => p.id === 'bad-input')!.failure!.exchanges![0]!;
  expect(call.status).toBe(500);
  expect(failure).toContain(`<code>${call.method} ${call.path.replace(/&/g, '&amp;')}</code>`);
  expect(failure).toContain('content-type: application/problem+json');
  expect(failure).toContain('authorization: Bearer &lt;key&gt;');
  // The call exactly as made, its X-Request-Id too (the id to look for in the service's logs).
  expect(failure).toMatch(/-H &#39;x-request-id: igct-\d+&#39;/);
  expect(failure.replace(/ -H &#39;x-request-id: igct-\d+&#39;/, '')).toContain(
    `curl -i -H &#39;accept: application/json&#39; -H &quot;authorization: Bearer ` +
      `$INVESTOR_GRAPH_KEY&quot; &#39;${mock.url}${call.path.replace(/&/g, '&amp;')}&#39;`,
  );
  expect(failure).toMatch(
    new RegExp(
      `npx --no -- investor-graph-contract-tests --base-url ${mock.url} --plan team --only ` +
        `bad-input --seed 3( --path \\S+)?</pre>`,
    ),
  );
  expect(page).not.toContain(key);
});

test('the matrix shows every row with its outcome, by section, and why a row was not checked', () => {
  const rows = section(renderHtmlReport(broken), 'matrix');
  expect(rows.match(/<tr data-state=/g)).toHaveLength(matrix.length);
  expect(rows).toContain('<summary><b>spec §1</b>');
  expect(rows).toMatch(
    /<tr data-state="broken"><td><code class="wrap">[^<]+<\/code><\/td><td><span class="badge broken">broken/,
  );
  // A row no client can check says why; one this run did not reach says what it needs.
  const notCheckable = broken.matrix.find((r) => r.outcome === 'not checkable')!;
  expect(rows).toContain(
    notCheckable
      .reason!.replace(/&/g, '&amp;')
      .replace(/'/g, '&#39;')
      .replace(/"/g, '&quot;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;'),
  );
  expect(rows).toContain('needs a key of');
});

test("the operations covered are the contract's, each with the calls the run made of it", () => {
  const counted = Object.values(broken.operations).reduce((sum, n) => sum + n, 0);
  expect(Object.keys(broken.operations)).toEqual(operations.map((o) => o.operationId));
  expect(counted + broken.calls_without_operation).toBe(broken.calls_checked);
  expect(broken.operations.listFirms).toBeGreaterThan(0);
  const shown = section(renderHtmlReport(broken), 'operations');
  for (const o of operations) expect(shown).toContain(`<code>${o.operationId}</code>`);
  expect(shown).toContain(
    `<td><code>listFirms</code></td><td><code>GET /api/v1/firms</code></td><td>${broken.operations.listFirms}</td>`,
  );
  expect(shown).toMatch(/<span class="badge skipped">not called<\/span>/);
});

test('a script and the key a hostile server sends back are text on the page, the key blanked, anywhere', async () => {
  const report = await reportOf(hostileUrl, ownFormKey, 'team', ['conforms']);
  expect(JSON.stringify(report)).toContain('<script>');
  const page = renderHtmlReport(report);
  expect(page).not.toContain(ownFormKey);
  expect(page).not.toMatch(/<script/i);
  expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(page).toContain('you sent Bearer &lt;key&gt;');
  expect(page).toMatch(
    new RegExp(
      /www-authenticate: Bearer /.source +
        /&lt;key&gt;[^\n]*&lt;script&gt;alert\(1\)&lt;\/script&gt;[^\n]*echo=&quot;Bearer /.source +
        /&lt;key&gt;&quot;\n/.source,
    ),
  );
  expect(page).not.toMatch(/<[^>]*\s(?:src|href)\s*=\s*(?!["']?#)/i);
  // The page blanks the run's keys itself too: a report that held one (written by hand, or by an
  // older kit) does not pass it on.
  expect(renderHtmlReport({ ...report, setup_error: `the service said: ${ownFormKey}` })).toContain(
    'the service said: &lt;key&gt;',
  );
});

test('a run of several keys is one page: each key its run and failures, the matrix merged', async () => {
  const other = await reportOf(mock.url, enterprise, 'enterprise', ['conforms']);
  const page = renderHtmlReport(mergeReports([broken, other], ['team', 'enterprise']));
  expect(page).toContain('<title>Contract tests: team, enterprise at');
  expect(section(page, 'run')).toMatch(/<h3>The team key<\/h3>[^]*<h3>The enterprise key<\/h3>/);
  expect(section(page, 'failures')).toContain('<h3>The team key</h3>');
  expect(section(page, 'matrix').match(/<tr data-state=/g)).toHaveLength(matrix.length);
  expect(page).not.toContain(enterprise);
});

test("the served contract's diff, when the report has one, comes first with its breaking changes, escaped", () => {
  const diff = {
    status: 'failed' as const,
    against: 'kit',
    breaking: [
      { id: 'response-property-removed', operation: 'GET /api/v1/firms', text: 'removed the <b>slug</b> property' },
    ],
    non_breaking: [{ id: 'endpoint-added', text: 'added GET /api/v1/x' }],
  };
  const page = renderHtmlReport({ ...broken, diff });
  expect(page).toMatch(/FAILED: [^<]*1 breaking change in the served contract/);
  expect(section(page, 'diff')).toContain('<td>removed the &lt;b&gt;slug&lt;/b&gt; property</td>');
  expect(section(page, 'diff')).toContain('<h3>Not breaking (1)</h3>');
  const notRun = renderHtmlReport({
    ...broken,
    diff: { status: 'not-run', against: 'kit', reason: 'oasdiff is not installed', breaking: [], non_breaking: [] },
  });
  expect(section(notRun, 'diff')).toContain('not run</span> oasdiff is not installed');
  // A served contract that could not be read says so once, as the reason, not again as a change.
  const reason = 'the served contract answered 503';
  const unreadable = section(
    renderHtmlReport({
      ...broken,
      diff: {
        status: 'failed',
        against: 'kit',
        reason,
        breaking: [{ id: 'contract-unreadable', text: reason }],
        non_breaking: [],
      },
    }),
    'diff',
  );
  expect(unreadable).toContain('failed</span> no contract to compare: the served contract answered 503');
  expect(unreadable.split(reason)).toHaveLength(2);
});

/** The CLI as a CI job runs it. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '../cli/cli.ts'), ...args], {
      env: { ...process.env, CI: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

test('keys minted during a run (trial, control API) are blanked in report, JUnit and page, of any form', async () => {
  const out = join(dir, 'minted');
  const files = { junit: join(out, 'junit.xml'), report: join(out, 'report.json'), html: join(out, 'report.html') };
  // trial-call's cases get the 201 and its key where a refusal was due; key-states' control key is
  // echoed where a 402 was due: each failure shows the answer that holds the key.
  const run = await cli(
    [
      '--base-url',
      hostileUrl,
      '--plan',
      'team',
      '--use-control',
      '--only',
      'trial-call,key-states',
      '--no-diff',
      '--budget-calls',
      '40',
      '--seed',
      '1',
      '--runs',
      '1',
      '--junit',
      files.junit,
      '--report',
      files.report,
      '--html',
      files.html,
    ],
    { INVESTOR_GRAPH_KEY: ownFormKey },
  );
  expect(run.code, run.out).toBe(1);
  for (const file of Object.values(files)) {
    const text = await readFile(file, 'utf8');
    expect(text, file).not.toContain(mintedKey);
    expect(text, file).not.toContain(controlKey);
  }
  expect(run.out).not.toContain(mintedKey);
  expect(run.out).not.toContain(controlKey);
  // Both failures are there, their keys blanked: the trial's answer, and the control key echoed bare.
  const report = await readFile(files.report, 'utf8');
  expect(report).toContain('{\\"key\\":\\"<key>\\"');
  expect(report).toContain('\\"token\\":\\"<key>\\"');
});

test('an --html path that cannot be written is one line and exit 2, before any call', async () => {
  const file = join(dir, 'a-file');
  await writeFile(file, '');
  const { code, out } = await cli(
    ['--base-url', 'http://127.0.0.1:9', '--plan', 'team', '--html', join(file, 'report.html')],
    { INVESTOR_GRAPH_KEY: key },
  );
  expect(code).toBe(2);
  expect(out).toBe(
    `[investor-graph-contract-tests] --html ${join(file, 'report.html')}: cannot be written ` +
      `(${file} is a file, not a folder) (see investor-graph-contract-tests --help)\n`,
  );
});

test.skipIf(noBrowser)(
  "a broken run's page opens offline in headless Chromium: no console error or other request, failure, matrix in sight",
  async ({ annotate }) => {
    const html = join(dir, 'run', 'report.html');
    const { code, out } = await cli(
      [
        '--base-url',
        mock.url,
        '--plan',
        'team',
        '--only',
        'conforms,auth,bad-input',
        '--no-diff',
        '--budget-calls',
        '60',
        '--seed',
        '5',
        '--runs',
        '3',
        '--junit',
        join(dir, 'run', 'junit.xml'),
        '--report',
        join(dir, 'run', 'report.json'),
        '--html',
        html,
      ],
      { INVESTOR_GRAPH_KEY: key },
    );
    expect(code, out).toBe(1);
    expect(out).toContain(`page: ${html}`);
    expect(await readFile(html, 'utf8')).not.toContain(key);
    await withPage(html, async (page) => {
      expect(await page.text('.verdict')).toMatch(/^FAILED: 1 property broke/);
      expect(await page.visible('#property-bad-input')).toBe(true);
      expect(await page.text('#property-bad-input')).toMatch(/-> 500[^]*curl -i [^]*\$INVESTOR_GRAPH_KEY/);
      // A section holding a broken row is open.
      expect(await page.visible('#matrix details[open] tr[data-state="broken"]')).toBe(true);
      expect(await page.text('#matrix')).toContain('Rule matrix');
      // The filter, CSS alone: "broken" leaves only broken rows in sight.
      await page.evaluate(`document.getElementById('matrix-broken').click()`);
      expect(
        await page.evaluate(
          `[...document.querySelectorAll('#matrix tr[data-state]')].filter((r) => ` +
            `r.checkVisibility()).map((r) => r.dataset.state).filter((s, i, all) => all.indexOf(s) === i)`,
        ),
      ).toEqual(['broken']);
      // The screenshot as a reader would first look: the broken rows alone (the whole matrix is some 300 rows).
      const shot = join(screenshotsDir, 'contract-tests-html-report.png');
      await page.screenshot(shot);
      await annotate(
        `the HTML report of a run against the mock with server-error-on-bad-input, in headless ` +
          `Chromium, its matrix showing the broken rows (${relative(process.cwd(), shot)})`,
        { path: shot, contentType: 'image/png' },
      );
      expect(page.problems).toEqual([]);
      expect(page.requests).toEqual([`file://${html}`]);
    });
  },
);
