// @module-tag servers
// One verdict for a split load run, with real k6 against the real mock: investor-graph-load run (whole
// and in parts) and merge, the merged figures against an unsplit run's, a rate limit held per
// replica caught only once the parts are merged, parts that are not one run refused, and the HTML
// report in headless Chromium.
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { k6Binary, runCli as cli, type Ran } from './src/k6.test-support.ts';
import { plans } from '@investor-graph/contract';
import { servedBound } from './lib/plan-options.js';
import { canRun } from '@investor-graph/cli';
import { startMock, type RunningMock } from '@investor-graph/mock/node';

const haveGo = canRun('go', ['version']);
const chromiumBin = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromiumBin);
if (!haveChromium && process.env.CI)
  throw new Error(
    `CI needs Chromium for the load report test, and ${chromiumBin} is missing (.ci/run installs Debian's chromium)`,
  );
const screenshots = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
const plan = 'business';
const rate = plans[plan].rate_per_second;
const seconds = 6;

const keyOf = () => `igk_${plan}_${randomBytes(16).toString('hex')}`;

/** Every key-shaped string in any file of a results folder (samples read unzipped). */
function keysIn(dir: string): string[] {
  return readdirSync(dir).flatMap((file) => {
    const bytes = readFileSync(join(dir, file));
    const text = file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
    return [...text.matchAll(/igk_[a-z]+_[A-Za-z0-9_-]{8,}/g)].map((m) => `${file}: ${m[0].slice(0, 12)}...`);
  });
}
const read = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));

/**
 * k6's percentile of `values` (sorted, linear between the two nearest ranks), to hold the merge's
 * histogram to the exact figure over every part's samples.
 */
function k6Percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(i);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (i - lo);
}

/** Every at-rate request's duration in a samples file, read without the package's reader. */
function atRateDurations(file: string): number[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.includes('"metric":"http_req_duration","type":"Point"') && l.includes('"scenario":"at_rate"'))
    .map((l) => JSON.parse(l).data.value as number);
}

/**
 * In front of the mock, a fixed spread of delays (40 to 116 ms, one after another for each URL), so
 * that the at-rate requests meet the same delays in any run and an unsplit run's p95 can be compared
 * with a split one's.
 */
function delaying(target: string): Promise<{ url: string; server: Server }> {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const n = seen.get(req.url!) ?? 0;
    seen.set(req.url!, n + 1);
    const delay = 40 + (n % 20) * 4;
    setTimeout(() => {
      const upstream = request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    }, delay);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server }),
    ),
  );
}

describe.skipIf(!haveGo)(
  'investor-graph-load run and merge, with real k6 (built from the Go module proxy) against the mock',
  () => {
    let k6: string;
    let mock: RunningMock;
    let front: { url: string; server: Server };
    const root = mkdtempSync(join(tmpdir(), 'ig-merge-'));
    const whole = join(root, 'whole');
    const split = join(root, 'split');
    const keys = { API_KEY: keyOf(), API_KEY_BURST: keyOf(), API_KEY_WALK: keyOf() };
    const wholeKeys = { API_KEY: keyOf(), API_KEY_BURST: keyOf(), API_KEY_WALK: keyOf() };
    let wholeRun: Ran;
    let parts: Ran[];
    let merged: Ran;

    beforeAll(async () => {
      k6 = k6Binary();
      mock = await startMock({
        port: 0,
        host: '127.0.0.1',
        keys: [...Object.values(keys), ...Object.values(wholeKeys)].map((key) => ({ plan, key })),
      });
      front = await delaying(mock.url);
      const env = { BASE_URL: front.url, DURATION: `${seconds}s`, WALK_RESOURCE: 'firms' };
      // The unsplit run first, then the same run as two parts at once (each part on its own keys'
      // buckets, as the unsplit run was), so neither run's 429s come from the other.
      wholeRun = await cli(['run', plan, '--results', whole, '--k6', k6], { ...env, ...wholeKeys });
      parts = await Promise.all(
        [1, 2].map((i) => cli(['run', plan, '--part', `${i}/2`, '--results', split, '--k6', k6], { ...env, ...keys })),
      );
      merged = await cli(['merge', split]);
    }, 600_000);
    afterAll(async () => {
      front?.server.close();
      await mock?.close();
    });

    test(`run writes every file of a run into its results folder, named by plan and segment, and a whole run gets its \
report`, () => {
      expect(wholeRun.code, wholeRun.out).toBe(0);
      expect(readdirSync(whole).sort()).toEqual([
        `${plan}.junit.xml`,
        `${plan}.report.html`,
        `${plan}.samples.json.gz`,
        `${plan}.summary.json`,
      ]);
      for (const part of parts) expect(part.code, part.out).toBe(0);
      expect(
        readdirSync(split)
          .filter((f) => !f.includes('.verdict.') && !f.endsWith('.html'))
          .sort(),
      ).toEqual(
        ['0-1of2', '1of2-1']
          .flatMap((s) => [`${plan}.${s}.junit.xml`, `${plan}.${s}.samples.json.gz`, `${plan}.${s}.summary.json`])
          .sort(),
      );
      for (const dir of [whole, split]) expect(keysIn(dir)).toEqual([]);
    });

    test(`two parts merged give the parts' counts added exactly, the unsplit run's counts (to k6's own last iteration) \
and its median within 15%; the merged p95 is the one of all samples together`, () => {
      expect(merged.code, merged.out).toBe(0);
      expect(merged.out).toMatch(
        new RegExp(`k6 ${plan} \\(2 parts merged\\): \\d+ requests from 2 parts \\(segments \
0:1/2 and 1/2:1\\)`),
      );
      const m = read(split, `${plan}.verdict.json`).metrics;
      const w = read(whole, `${plan}.summary.json`).metrics;
      // Constant arrival at the plan's rate for a fixed time: the same number of requests however it
      // is split, but for the iteration k6 may or may not start at the very end (an unsplit run of
      // 20/s for 6 s makes 120 or 121, run to run; k6's own scheduling, the same with no merge).
      // What the merge itself adds up is exact: the parts' counts below, and a whole run's counts
      // against k6's own in the next test. The feed's poll, once a second, is not compared: k6
      // spreads so slow a scenario over segments with its own rounding.
      expect(
        Math.abs(m['http_reqs{scenario:at_rate}'].values.count - w['http_reqs{scenario:at_rate}'].values.count),
      ).toBeLessThanOrEqual(1);
      expect(m['http_reqs{scenario:at_rate}'].values.count).toBeGreaterThanOrEqual(rate * seconds);
      expect(m['http_reqs{scenario:at_rate}'].values.count).toBeLessThanOrEqual(rate * seconds + 1);
      // The walk runs in one part, the same walk as the unsplit run's.
      expect(m.walk_rows.values.count).toBe(w.walk_rows.values.count);
      expect(m.walk_pages.values.count).toBe(w.walk_pages.values.count);

      // Every count is the parts' counts added.
      const p = ['0-1of2', '1of2-1'].map((s) => read(split, `${plan}.${s}.summary.json`).metrics);
      for (const name of [
        'http_reqs',
        'http_reqs{scenario:at_rate}',
        'iterations',
        'data_received',
        'data_sent',
        'rate_limited',
        'burst_served',
      ]) {
        expect(m[name].values.count, name).toBe(p[0][name].values.count + p[1][name].values.count);
      }
      expect(m.checks.values.passes).toBe(p[0].checks.values.passes + p[1].checks.values.passes);
      // Each process's VUs are its own: the run's are the parts' added.
      expect(m.vus_max.values.max).toBe(p[0].vus_max.values.max + p[1].vus_max.values.max);
      expect(m.http_req_duration.values.count).toBe(
        p[0].http_req_duration.values.count + p[1].http_req_duration.values.count,
      );

      // The merged p95 and median are those of both parts' samples together, by k6's formula (to the
      // histogram's 0.1%), not an average of the parts' figures.
      const all = readdirSync(split)
        .filter((f) => f.endsWith('.samples.json.gz'))
        .flatMap((f) => atRateDurations(join(split, f)));
      expect(all).toHaveLength(m['http_reqs{scenario:at_rate}'].values.count);
      const p95 = m['http_req_duration{scenario:at_rate}'].values['p(95)'];
      expect(Math.abs(p95 - k6Percentile(all, 95)) / k6Percentile(all, 95)).toBeLessThan(0.002);
      const med = m['http_req_duration{scenario:at_rate}'].values.med;
      expect(Math.abs(med - k6Percentile(all, 50)) / k6Percentile(all, 50)).toBeLessThan(0.002);
      // Against the unsplit run behind the same fixed spread of delays, the median: the two runs are
      // seconds apart beside other tests, and what a busy machine adds lands in the tail, where the
      // p95 of 120 calls is their sixth slowest (16.5% apart once, with four test files at a time).
      const unsplit = w['http_req_duration{scenario:at_rate}'].values.med;
      expect(Math.abs(med - unsplit) / unsplit).toBeLessThan(0.15);
    });

    test(`merged alone, a whole run has k6's own figures: counts exactly, percentiles to the histogram's \
0.1%`, async () => {
      const alone = join(root, 'alone');
      const verdict = await cli(['merge', whole, '--out', alone]);
      expect(verdict.code, verdict.out).toBe(0);
      // Not "N requests from 0:1" (#68): one part is the whole run.
      expect(verdict.out).toMatch(new RegExp(`k6 ${plan}: \\d+ requests of the whole run, in one part\\n`));
      const mine = read(alone, `${plan}.verdict.json`).metrics;
      const k6s = read(whole, `${plan}.summary.json`).metrics;
      for (const [name, theirs] of Object.entries<{
        type: string;
        values: Record<string, number>;
        thresholds?: Record<string, { ok: boolean }>;
      }>(k6s)) {
        const ours = mine[name];
        expect(ours, name).toBeDefined();
        expect(ours.type, name).toBe(theirs.type);
        for (const [stat, value] of Object.entries(theirs.values)) {
          const got = ours.values[stat];
          if (['count', 'passes', 'fails', 'value', 'min', 'max'].includes(stat) && theirs.type !== 'trend')
            expect(got, `${name} ${stat}`).toBe(value);
          else if (stat === 'count' || stat === 'min' || stat === 'max') expect(got, `${name} ${stat}`).toBe(value);
          else if (theirs.type === 'trend')
            expect(Math.abs(got - value), `${name} ${stat}: ${got} against k6's ${value}`).toBeLessThanOrEqual(
              Math.max(value * 0.002, 1e-6),
            );
          else expect(got, `${name} ${stat}`).toBeCloseTo(value, 9);
        }
        // And k6's verdicts, threshold by threshold.
        for (const [expression, verdict] of Object.entries(theirs.thresholds ?? {}))
          expect(ours.thresholds[expression].ok, `${name} ${expression}`).toBe(verdict.ok);
      }
    });

    test("the over-rate key's 429s are expected answers: none counts into http_req_failed", () => {
      const w = read(whole, `${plan}.summary.json`).metrics;
      expect(w.rate_limited.values.count).toBeGreaterThan(0);
      expect(w.http_req_failed.values.passes, 'failed requests').toBe(0);
      expect(w.http_req_failed.thresholds['rate==0'].ok).toBe(true);
    });

    test(`a rate limit held per replica passes each part and fails the merged verdict (exit 1, k6's 99 in the \
kit's table, JUnit failure)`, async ({ annotate }) => {
      // Two mocks, each with its own state: one key's rate is held per replica, so the service as a
      // whole serves it twice over. Each part, on its own replica, sees the plan's rate.
      const replica = await startMock({
        port: 0,
        host: '127.0.0.1',
        keys: Object.values(keys).map((key) => ({ plan, key })),
      });
      const dir = join(root, 'replicas');
      try {
        const env = { DURATION: `${seconds}s`, WALK_RESOURCE: 'firms', ...keys };
        const runs = await Promise.all(
          [mock.url, replica.url].map((url, i) =>
            cli(['run', plan, '--part', `${i + 1}/2`, '--results', dir, '--k6', k6], { ...env, BASE_URL: url }),
          ),
        );
        for (const run of runs) expect(run.code, `each part passes on its own: ${run.out}`).toBe(0);
        const verdict = await cli(['merge', dir]);
        expect(verdict.code, verdict.out).toBe(1);
        const bound = servedBound(rate, `${seconds}s`);
        expect(verdict.out).toContain(`FAIL burst_served{scenario:above_rate} count<=${bound}`);
        expect(
          read(dir, `${plan}.verdict.json`).metrics['burst_served{scenario:above_rate}'].values.count,
        ).toBeGreaterThan(bound);
        expect(readFileSync(join(dir, `${plan}.verdict.junit.xml`), 'utf8')).toMatch(
          /burst_served\{scenario:above_rate\} count&lt;=\d+"><failure/,
        );
        if (haveChromium)
          await screenshot(join(dir, `${plan}.report.html`), 'load-report-failed.png', 'FAILED', annotate);
      } finally {
        await replica.close();
      }
    });

    test(`a part of a split run without API_KEY is refused before k6 starts (exit 2): the parts must share their \
keys`, async () => {
      const dir = join(root, 'no-keys');
      const run = await cli(['run', plan, '--part', '1/2', '--results', dir, '--k6', k6], { BASE_URL: mock.url });
      expect(run.code, run.out).toBe(2);
      expect(run.out.trim().split('\n')).toEqual([
        expect.stringContaining("a split run's parts must share their keys: set API_KEY"),
      ]);
      expect(existsSync(dir)).toBe(false);
    });

    test(`a part that could not start (a refused key) writes its reports saying so, and merge refuses it with exit 3, \
naming why`, async () => {
      const dir = join(root, 'not-started');
      const refused = { API_KEY: keyOf() };
      const run = await cli(['run', plan, '--part', '1/2', '--results', dir, '--k6', k6], {
        BASE_URL: mock.url,
        ...refused,
      });
      expect(run.code, run.out).toBe(3);
      expect(readFileSync(join(dir, `${plan}.0-1of2.junit.xml`), 'utf8')).toContain('the service refused API_KEY');
      const verdict = await cli(['merge', dir]);
      expect(verdict.code, verdict.out).toBe(3);
      expect(verdict.out.trim().split('\n')).toEqual([
        expect.stringMatching(/that part did not start \(the service refused API_KEY \(401/),
      ]);
      expect(run.out + verdict.out).not.toContain(refused.API_KEY);
    });

    test(`parts that are not one whole run are refused with exit 2, saying which: one missing, two overlapping, \
another setting or plan, a cut samples file`, async () => {
      const only = join(root, 'missing');
      mkdirSync(only);
      for (const f of readdirSync(split).filter((f) => f.startsWith(`${plan}.0-1of2.`)))
        copyFileSync(join(split, f), join(only, f));
      const missing = await cli(['merge', only]);
      expect(missing.code).toBe(2);
      expect(missing.out).toContain('part missing: segment 1/2:1 of the business run');

      const overlap = await cli(['merge', split, whole]);
      expect(overlap.code).toBe(2);
      // The two files may be named in either order.
      expect(overlap.out).toMatch(
        new RegExp(
          String.raw`parts overlap: .* \(segment 0:1\) and .* \(segment 1/2:1\)|` +
            String.raw`parts overlap: .* \(segment 0:1/2\) and .* \(segment 0:1\)`,
        ),
      );

      const other = join(root, 'other');
      const shorter = await cli(['run', plan, '--part', '2/2', '--results', other, '--k6', k6], {
        BASE_URL: mock.url,
        DURATION: '1s',
        SCENARIOS: 'at_rate',
        API_KEY: keys.API_KEY,
      });
      expect(shorter.code, shorter.out).toBe(0);
      for (const f of readdirSync(split).filter((f) => f.startsWith(`${plan}.0-1of2.`)))
        copyFileSync(join(split, f), join(other, f));
      const settings = await cli(['merge', other]);
      expect(settings.code).toBe(2);
      expect(settings.out).toContain('come from different scripts or settings');

      const trial = join(root, 'trial');
      // A part shares its keys with the other parts: here a trial key the mock's control API made.
      const made = await fetch(`${mock.url}/__control/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'trial' }),
      });
      const trialKey = ((await made.json()) as { key: string }).key;
      const trialRun = await cli(['run', 'trial', '--part', '2/2', '--results', trial, '--k6', k6], {
        BASE_URL: mock.url,
        DURATION: '1s',
        SCENARIOS: 'at_rate',
        API_KEY: trialKey,
      });
      expect(trialRun.code, trialRun.out).toBe(0);
      // Its key reaches no file.
      expect(readdirSync(trial).filter((f) => readFileSync(join(trial, f)).includes(trialKey))).toEqual([]);
      const plans2 = await cli(['merge', only, trial]);
      expect(plans2.code).toBe(2);
      expect(plans2.out).toMatch(
        /is a (trial|business) run and .* a (business|trial) run: merge one plan's parts at a time/,
      );

      const cut = join(root, 'cut');
      mkdirSync(cut);
      for (const f of readdirSync(split).filter((f) => !f.includes('.verdict.') && !f.endsWith('.html')))
        copyFileSync(join(split, f), join(cut, f));
      const samples = join(cut, `${plan}.1of2-1.samples.json.gz`);
      const bytes = readFileSync(samples);
      writeFileSync(samples, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      const short = await cli(['merge', cut]);
      expect(short.code).toBe(2);
      expect(short.out).toMatch(/the gzip stream ends early|holds \d+ requests and \d+ iterations where its summary/);

      // And the whole set of parts, as a control, merges.
      expect(merged.code).toBe(0);
    });

    test.skipIf(!haveChromium)(
      `the HTML report opens offline in headless Chromium: no console error, no request, the verdict, thresholds and \
charts`,
      async ({ annotate }) => {
        await screenshot(join(split, `${plan}.report.html`), 'load-report-merged.png', 'PASSED', annotate);
      },
    );

    type Annotate = (message: string, attachment: { path: string; contentType: string }) => Promise<unknown>;

    async function screenshot(file: string, name: string, verdict: string, annotate: Annotate): Promise<void> {
      let browser: Browser | undefined;
      try {
        browser = await chromium.launch({
          executablePath: chromiumBin,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        });
        const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
        });
        page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
        page.on('request', (r) => {
          if (r.url() !== `file://${file}`) problems.push(`requested ${r.url()}`);
        });
        await page.goto(`file://${file}`, { waitUntil: 'load' });
        expect(await page.locator('.verdict').innerText()).toContain(verdict);
        expect(await page.locator('svg').count()).toBe(4);
        expect(await page.locator('svg path').count()).toBeGreaterThan(8);
        expect(await page.getByText('burst_served{scenario:above_rate}').first().isVisible()).toBe(true);
        mkdirSync(screenshots, { recursive: true });
        await page.screenshot({ path: join(screenshots, name), fullPage: true });
        await annotate(`the ${verdict.toLowerCase()} load report in headless Chromium`, {
          path: join(screenshots, name),
          contentType: 'image/png',
        });
        expect(problems).toEqual([]);
      } finally {
        await browser?.close();
      }
    }
  },
);
