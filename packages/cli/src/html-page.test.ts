// @module-tag servers
/**
 * The frame of the kit's report pages: whatever a value holds, it is text on the page, never
 * markup; the page loads nothing and runs nothing; its state filter works without a script, as
 * headless Chromium shows (and the Chromium helper itself is shown to catch a page that breaks
 * those rules).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { chromiumMissing, withPage } from '@investor-graph/test-support/chromium';
import { badge, curlLine, escapeHtml, html, page, shellWord, stateFilter, table } from './html-page.ts';

const hostile = `<script>alert(1)</script><img src=x onerror="alert(2)">' & \u0007`;
const dir = mkdtempSync(join(tmpdir(), 'ig-html-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const noBrowser = chromiumMissing('the report frame test');

test(`a value in a template is text: a script, a tag, quotes, an ampersand and control characters are escaped or \
dropped`, () => {
  const out = html`<td title="${hostile}">${hostile}</td>`.text;
  expect(out).not.toMatch(/<script|<img|"alert|\u0007/);
  expect(out).toBe(`<td title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</td>`);
  expect(escapeHtml(hostile)).toBe(
    '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;&#39; &amp; ',
  );
});

test(`a bidirectional control in a value is shown as its escape: it cannot reorder what the page shows around \
it`, () => {
  expect(html`<td>${'report\u202etxt.exe'}</td>`.text).toBe('<td>report\\u202etxt.exe</td>');
  expect(escapeHtml('\u2066a\u2069')).toBe('\\u2066a\\u2069');
});

test('markup made by the frame is kept, arrays are joined and null, undefined and false leave nothing', () => {
  expect(html`<p>${[html`<b>${'a<b'}</b>`, 'c&d', null, undefined, false, 0]}</p>`.text).toBe(
    '<p><b>a&lt;b</b>c&amp;d0</p>',
  );
  expect(table(['h<1>'], [{ cells: [hostile], state: 'not checked yet' }]).text).toContain(
    '<tr data-state="not-checked-yet"><td>&lt;script&gt;',
  );
  expect(badge('broken', '<b>').text).toBe('<span class="badge broken">&lt;b&gt;</span>');
});

test('the page forbids every fetch and script in its policy, and names nothing to load', () => {
  const text = page({ title: hostile, verdict: { ok: false, text: hostile }, body: html`<p>${hostile}</p>` });
  expect(text).toContain(
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
  );
  expect(text).not.toMatch(/<script|<img|<link|@import|url\(/i);
  // No tag names a URL (an escaped `src=` in the text is no attribute); a link within the page may.
  const urlInTag = /<[^>]*\s(?:src|href)\s*=\s*(?!["']?#)/i;
  expect(text).not.toMatch(urlInTag);
  expect(
    ['<a href="https://x.test/">', '<img src=x>', '<a href="#failures">'].map((tag) => urlInTag.test(tag)),
  ).toEqual([true, true, false]);
});

test(`a page may have a heading of its own beside its tab's title, a note by its verdict, and rules of its own after \
the frame's`, () => {
  const text = page({
    title: 'k6 team: <ok>',
    heading: html`Team plan (<code>${'team'}</code>)`,
    verdict: { ok: true, text: 'PASSED' },
    note: html`<span class="muted">${'1 < 2'}</span>`,
    body: html``,
    css: 'svg{fill:red}',
  });
  expect(text).toContain('<title>k6 team: &lt;ok&gt;</title>');
  expect(text).toContain(
    '<h1>Team plan (<code>team</code>)</h1><p><span class="verdict ok">PASSED</span>\n<span ' +
      'class="muted">1 &lt; 2</span></p>',
  );
  expect(text).toMatch(/svg\{fill:red\}<\/style>/);
});

test('a shell word is quoted unless plain, a quote in it kept', () => {
  expect(shellWord('http://127.0.0.1:4010/api/v1/firms')).toBe('http://127.0.0.1:4010/api/v1/firms');
  expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
});

test(`a curl line sends the key from $INVESTOR_GRAPH_KEY only for a call that carried one, a HEAD with -I and a body \
as it went`, () => {
  const url = 'http://127.0.0.1:4010/api/v1/firms?limit=1&q=a b';
  expect(curlLine({ method: 'GET', url })).toBe(`curl -i 'http://127.0.0.1:4010/api/v1/firms?limit=1&q=a b'`);
  expect(curlLine({ method: 'HEAD', url: 'http://x.test/a', keyFromEnv: true })).toBe(
    'curl -i -I -H "Authorization: Bearer $INVESTOR_GRAPH_KEY" http://x.test/a',
  );
  // In its header's place, under its name; a key a check chose (not the run's) stays as given, blanked by the caller.
  expect(
    curlLine({
      method: 'POST',
      url: 'http://x.test/a',
      headers: { accept: 'application/json', authorization: 'Bearer <key>' },
      body: `{"a":"it's"}`,
      keyFromEnv: true,
    }),
  ).toBe(
    `curl -i -X POST -H 'accept: application/json' -H "authorization: Bearer $INVESTOR_GRAPH_KEY" ` +
      `--data-binary '{"a":"it'\\''s"}' http://x.test/a`,
  );
  expect(curlLine({ method: 'GET', url: 'http://x.test/a', headers: { authorization: 'Bearer <key>' } })).toBe(
    `curl -i -H 'authorization: Bearer <key>' http://x.test/a`,
  );
});

test('a browser that cannot start is an error of the helper, not a wait without end', async () => {
  const missing = join(dir, 'no-such-chromium');
  await expect(withPage(join(dir, 'none.html'), () => Promise.resolve(null), { bin: missing })).rejects.toThrow(
    `[chromium] ${missing} could not start: spawn ${missing} ENOENT`,
  );
});

test('a browser that ignores SIGTERM is killed, and the helper returns', async () => {
  // It says it listens, on a port where nothing does, and ignores SIGTERM (as does the sleep it becomes).
  const stubborn = join(dir, 'stubborn-chromium');
  writeFileSync(
    stubborn,
    `#!/bin/sh\ntrap '' TERM\necho 'DevTools listening on ws://127.0.0.1:9/devtools/browser/x' >&2\nexec sleep 600\n`,
    { mode: 0o755 },
  );
  await expect(withPage(join(dir, 'none.html'), () => Promise.resolve(null), { bin: stubborn })).rejects.toThrow(
    '[chromium] the DevTools socket did not open',
  );
  // Its SIGKILL comes 5 s after the SIGTERM it ignored.
}, 30_000);

test.skipIf(noBrowser)(
  'in headless Chromium the page logs nothing, asks for nothing but itself, and its filter shows one state alone',
  async () => {
    const file = join(dir, 'frame.html');
    const rows = [
      { cells: ['a'], state: 'held' },
      { cells: ['b'], state: 'broken' },
      { cells: ['c'], state: 'held' },
    ];
    writeFileSync(
      file,
      page({
        title: 'frame',
        verdict: { ok: true, text: 'PASSED' },
        body: html`<section>${stateFilter('f', [
          { state: 'held', count: 2 },
          { state: 'broken', count: 1 },
        ])}<details open><summary>one</summary>${table(['x'], rows)}</details><details open><summary>none \
broken</summary>${table(['x'], [rows[0]!])}</details></section>`,
      }),
    );
    await withPage(file, async (p) => {
      const shown = () =>
        p.evaluate<string[]>(
          `[...document.querySelectorAll('tbody tr')].filter((r) => r.checkVisibility()).map((r) => r.innerText)`,
        );
      expect(await shown()).toEqual(['a', 'b', 'c', 'a']);
      await p.evaluate(`document.getElementById('f-broken').click()`);
      expect(await shown()).toEqual(['b']);
      await p.evaluate(`document.getElementById('f-all').click()`);
      expect(await shown()).toHaveLength(4);
      expect(await p.text('.verdict')).toBe('PASSED');
      expect(p.problems).toEqual([]);
      expect(p.requests).toEqual([`file://${file}`]);
    });
  },
);

test.skipIf(noBrowser)(
  'the Chromium helper catches what a page must not do: fetch from elsewhere, run a script, log an error',
  async () => {
    const file = join(dir, 'broken.html');
    writeFileSync(
      file,
      `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head>` +
        `<body><img src="http://127.0.0.1:9/x.png"><script>console.error('boom')</script></body></html>`,
    );
    const problems = await withPage(file, (p) => Promise.resolve(p.problems));
    expect(problems.some((line) => line.startsWith('requested http://127.0.0.1:9/x.png'))).toBe(true);
    expect(problems.some((line) => /inline script/.test(line))).toBe(true);
    // Without the policy the script runs, and its console error is caught.
    writeFileSync(file, `<!doctype html><html><body><script>console.error('boom')</script></body></html>`);
    expect(await withPage(file, (p) => Promise.resolve(p.problems))).toEqual(['error: boom']);
  },
);
