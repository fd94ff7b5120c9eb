// @module-tag servers
/**
 * The control page (`/__control/`, issue #54) on a mock on a real loopback port, opened in headless
 * Chromium (Debian's; skipped saying why without it): what a person watching the mock relies on.
 * Calls made outside the browser show in its journal, each once; its buttons move the clock and
 * start and end incidents, as the control API then says; a refused call shows its problem in the
 * page; nothing is logged, nothing is asked of another origin, and no key is on it in any form.
 * Every request the page makes is recorded through the DevTools protocol (CDP).
 */
import { join } from 'node:path';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { chromium, type Page } from 'playwright-core';
import { chromiumBin, chromiumMissing, screenshotsDir } from '@investor-graph/test-support/chromium';
import { controlDocument } from '@investor-graph/engine/adapter';
import { startMock, type RunningMock } from './cli/start-mock.ts';

const skipBrowser = chromiumMissing('the control page');
// Fixed texts with tails of their own: the last check looks for any piece of them on the page.
const team = 'igk_team_control_page_watch_Qz7X';
const payg = 'igk_payg_control_page_watch_Wv3J';
const keyPieces = [team, payg, 'igk_', 'Qz7X', 'Wv3J', 'page_watch'];

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({
    port: 0,
    frozen: true,
    keys: [
      { plan: 'team', key: team },
      { plan: 'payg', key: payg, prepaidRows: 500 },
    ],
  });
});
afterAll(() => mock.close());

const control = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const response = await fetch(`${mock.url}/__control${path}`, init);
  expect(response.ok, path).toBe(true);
  return (await response.json()) as T;
};
const data = (path: string, key = team) => fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

/** The documented control calls, as patterns of a path. */
const documented = Object.keys(controlDocument.paths).map((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}/?$`));

test(
  '/__control/ answers the page with its policy, and refuses it to another ' + 'origin or site, as every control call',
  async () => {
    const page = await fetch(`${mock.url}/__control/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "script-src 'sha256-",
    ])
      expect(policy).toContain(directive);
    expect((await fetch(`${mock.url}/__control`)).status).toBe(200);
    for (const headers of [{ origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<
      string,
      string
    >[]) {
      const refused = await fetch(`${mock.url}/__control/`, { headers });
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('control_forbidden');
    }
  },
);

const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

test.skipIf(!outside)(
  'a browser that reaches the mock from a non-loopback address is refused the page ' +
    `(${outside ? `on ${outside}` : 'skipped: this machine has no such address'})`,
  async () => {
    const elsewhere = await startMock({ port: 0, host: outside! });
    try {
      const refused = await fetch(`${elsewhere.url}/__control/`);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('control_forbidden');
    } finally {
      await elsewhere.close();
    }
  },
);

/** What the page did, as DevTools reports it: its requests, its console, its exceptions, the browser's log. */
interface Seen {
  requests: { method: string; url: string }[];
  console: string[];
  browserLog: string[];
}

async function watch(page: Page): Promise<Seen> {
  const seen: Seen = { requests: [], console: [], browserLog: [] };
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Network.requestWillBeSent', (e) => seen.requests.push({ method: e.request.method, url: e.request.url }));
  cdp.on('Runtime.consoleAPICalled', (e) => seen.console.push(`${e.type}: ${e.args.map((a) => a.value).join(' ')}`));
  cdp.on('Runtime.exceptionThrown', (e) => seen.console.push(`uncaught: ${e.exceptionDetails.text}`));
  cdp.on('Log.entryAdded', (e) => seen.browserLog.push(`${e.entry.source} ${e.entry.level}: ${e.entry.text}`));
  for (const domain of ['Network', 'Runtime', 'Log'] as const) await cdp.send(`${domain}.enable`);
  return seen;
}

/** What the page shows after its next reads of the mock (every second). */
const soon = { timeout: 15_000, interval: 100 };
const rows = (page: Page) => page.locator('#journal tbody tr');
const shownRows = (page: Page) => page.locator('#journal tbody tr:not([hidden])');
const journalReads = (seen: Seen) => seen.requests.filter((r) => r.url.includes('/__control/journal?')).length;

test.skipIf(skipBrowser !== null)(
  `in headless Chromium the page shows the calls, moves the clock, starts and ends an incident, shows a refusal, ` +
    `and logs nothing, asks no other origin and shows no key${skipBrowser ? ` (skipped: ${skipBrowser})` : ''}`,
  async ({ annotate }) => {
    const browser = await chromium.launch({
      executablePath: chromiumBin,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const seen = await watch(page);
      await page.goto(`${mock.url}/__control/`);
      await expect.poll(() => page.locator('#keys tbody tr[data-key-id]').count(), soon).toBe(2);

      // Calls of the data API made outside the browser appear in its journal, newest first.
      for (let n = 0; n < 3; n++) expect((await data('/api/v1/firms?limit=2')).status).toBe(200);
      expect((await data('/api/v1/companies?limit=1', payg)).status).toBe(200);
      expect((await fetch(`${mock.url}/api/v1/firms?limit=1&api_key=${team}`)).status).toBe(401);
      await expect.poll(() => rows(page).count(), soon).toBe(5);
      // A few more reads of the journal after: each entry was fetched once, never added twice.
      const reads = journalReads(seen);
      await expect.poll(() => journalReads(seen), soon).toBeGreaterThanOrEqual(reads + 3);
      const journal = (await control<{ entries: { seq: number }[] }>('/journal')).entries;
      const seqs = await rows(page).evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.seq)));
      expect(seqs).toEqual(journal.map((e) => e.seq).reverse());
      expect(await rows(page).first().innerText()).toMatch(/GET\s+\/api\/v1\/firms\?limit=1&api_key=\*\*\*\s+401/);
      // The keys by key_id with their usage, quota left and prepaid balance, as the state says them.
      type Usage = { calls_used: number; calls_limit: number | null; calls_remaining: number | null };
      type Key = { key_id: string; plan: string; usage: Usage & { balance_rows: number | null } };
      const keys = (await control<{ keys: Key[] }>('/state')).keys;
      const en = (n: number) => n.toLocaleString('en');
      const cells = (k: Key) => page.locator(`#keys tr[data-key-id="${k.key_id}"] td`).allInnerTexts();
      const [teamKey, paygKey] = [keys.find((k) => k.plan === 'team')!, keys.find((k) => k.plan === 'payg')!];
      expect([teamKey.usage.calls_used, paygKey.usage.calls_used]).toEqual([3, 1]);
      expect(paygKey.usage.balance_rows).toBeLessThan(500);
      const { calls_limit: limit, calls_remaining: left } = teamKey.usage;
      await expect
        .poll(() => cells(teamKey), soon)
        .toEqual([teamKey.key_id, 'team', 'active', `3 of ${en(limit!)}`, en(left!), '-', expect.any(String)]);
      const balance = en(paygKey.usage.balance_rows!);
      await expect
        .poll(() => cells(paygKey), soon)
        .toEqual([paygKey.key_id, 'payg', 'active', '1', 'no quota', balance, '']);
      await page.screenshot({ path: join(screenshotsDir, 'control-page.png'), fullPage: true });
      await annotate('the control page with five calls', { path: join(screenshotsDir, 'control-page.png') });

      // The filters hide what was fetched, by status class and by operation.
      await page.selectOption('#journal-status', '4xx');
      expect(await shownRows(page).count()).toBe(1);
      await page.selectOption('#journal-status', 'all');
      await page.selectOption('#journal-operation', 'listCompanies');
      expect(await shownRows(page).allInnerTexts()).toEqual([expect.stringContaining('/api/v1/companies?limit=1')]);
      await page.selectOption('#journal-operation', '*');
      expect(await shownRows(page).count()).toBe(5);

      // "+1 day" moves the simulated clock by a day, as the control API then says.
      const before = Date.parse((await control<{ now: string }>('/clock')).now);
      await page.getByRole('button', { name: '+1 day' }).click();
      const after = new Date(before + 86_400_000).toISOString();
      await expect.poll(() => page.locator('#clock-now').innerText(), soon).toBe(after);
      expect((await control<{ now: string }>('/clock')).now).toBe(after);

      // An outage started through the form: the next listFirms call is a 503, journaled with its incident.
      await page.selectOption('select[name=kind]', 'outage');
      await page.fill('input[name=operation]', 'listFirms');
      await page.getByRole('button', { name: 'Start the incident' }).click();
      const incidentRow = page.locator('#incidents tr[data-incident]');
      await expect.poll(() => incidentRow.count(), soon).toBe(1);
      const incident = (await incidentRow.getAttribute('data-incident'))!;
      expect((await control<{ incidents: { id: string }[] }>('/incidents')).incidents.map((i) => i.id)).toEqual([
        incident,
      ]);
      expect((await data('/api/v1/firms?limit=2')).status).toBe(503);
      await expect
        .poll(() => rows(page).first().innerText(), soon)
        .toMatch(new RegExp(`503\\s+service_unavailable.*${incident}`));
      await expect
        .poll(() => incidentRow.innerText(), soon)
        .toMatch(/outage\s+operation listFirms\s+retry_after 5\s+1\b/);
      await page.screenshot({ path: join(screenshotsDir, 'control-page-incident.png'), fullPage: true });
      await annotate('the control page during an outage', { path: join(screenshotsDir, 'control-page-incident.png') });
      await incidentRow.getByRole('button', { name: 'End' }).click();
      await expect.poll(() => incidentRow.count(), soon).toBe(0);
      expect((await control<{ incidents: unknown[] }>('/incidents')).incidents).toEqual([]);
      expect((await data('/api/v1/firms?limit=2')).status).toBe(200);

      // A refused call shows its problem in the page; the page itself writes nothing to the console.
      await page.selectOption('select[name=kind]', 'latency');
      await page.fill('input[name=latency_ms]', '999999');
      await page.getByRole('button', { name: 'Start the incident' }).click();
      await expect
        .poll(() => page.locator('#problem').innerText(), soon)
        .toMatch(/400 invalid_body\s+latency_ms: must be/);
      expect(await page.locator('#problem').isVisible()).toBe(true);

      // Clearing empties the journal and the table; later calls come in again.
      await page.getByRole('button', { name: 'Clear the journal' }).click();
      await expect.poll(() => rows(page).count(), soon).toBe(0);
      expect((await control<{ entries: unknown[] }>('/journal')).entries).toEqual([]);
      expect((await data('/api/v1/firms?limit=2')).status).toBe(200);
      await expect.poll(() => rows(page).count(), soon).toBe(1);

      expect(seen.console).toEqual([]);
      // The browser's own line for the one refused call is all its log holds.
      expect(seen.browserLog).toEqual([
        expect.stringMatching(/^network error: Failed to load resource: .* 400 \(Bad Request\)$/),
      ]);
      const paths = seen.requests.map((r) => ({ ...r, url: new URL(r.url) }));
      expect(paths.filter((r) => r.url.origin !== mock.url).map((r) => r.url.href)).toEqual([]);
      expect(
        paths
          .filter((r) => !documented.some((d) => d.test(r.url.pathname)))
          .map((r) => `${r.method} ${r.url.pathname}`),
      ).toEqual([]);
      // No key on the page, in any piece: not in what it shows, nor in its document as it stands.
      const shown = `${await page.locator('body').innerText()}\n${await page.content()}`;
      expect(keyPieces.filter((piece) => shown.includes(piece))).toEqual([]);
    } finally {
      await browser.close();
    }
  },
);
