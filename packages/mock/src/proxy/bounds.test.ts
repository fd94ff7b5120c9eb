// @module-tag servers
/**
 * The third round of hostile probes (issue #51), on the validation proxy: its memory bounded
 * whatever the upstream sends (walks of new cursors, answers held at once, checks that run out of
 * heap), every give-up on the record, the reports written whatever ends the process (SIGINT,
 * SIGTERM, a failure of its own), and a page of 20,000 rows checked off its thread while other
 * clients are answered. Each test is a probe that found the fault, and fails without its fix.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { newKeyText } from '@investor-graph/engine';
import { createValidationProxy, type ExchangeRecord, type ProxyOptions } from './proxy.ts';
import { ProxyReport } from './report.ts';
import { cli } from '../cli/cli-process.test-support.ts';
import { checkProcess } from './checker/process.ts';

const validator = await createContractValidator();
const temp = mkdtempSync(join(tmpdir(), 'ig-proxy-bounds-'));
const closers: (() => Promise<unknown>)[] = [];
afterAll(() => Promise.all(closers.map((c) => c())));
const key = newKeyText('team');

/** An upstream on loopback that answers each request as `answer` does. */
async function upstream(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A proxy in front of `url`, its records and report. */
function proxyTo(url: string, more: Partial<ProxyOptions> = {}) {
  const records: ExchangeRecord[] = [];
  const report = new ProxyReport(url);
  const proxy = createValidationProxy({
    upstream: url,
    validator,
    timeoutMs: 20_000,
    onExchange: (r) => (records.push(r), report.add(r)),
    ...more,
  });
  const get = (path: string) =>
    proxy.fetch(new Request(`http://proxy${path}`, { headers: { authorization: `Bearer ${key}` } }));
  return { proxy, records, report, get };
}

let made = 0;
/** A firms page of `n` rows no page held before, handing out a cursor no page handed out before. */
function newPage(n: number): string {
  const data = Array.from({ length: n }, () => ({
    slug: `firm-${++made}`,
    service_url: `https://api.example.com/api/v1/firms/firm-${made}`,
  }));
  return JSON.stringify({
    data,
    next_cursor: `cursor-${++made}-${'c'.repeat(2_000)}`,
    as_of: '2026-11-01T00:00:00Z',
    plan: { id: 'team' },
    usage: {},
  });
}

const json = (res: ServerResponse, body: string) =>
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);

describe('memory bounded whatever the upstream sends', () => {
  test(
    'a new cursor on every page: the walks stay within their bounds, ' +
      'and a page of a walk they pushed out is not_validated in the report',
    async () => {
      const url = await upstream((_req, res) => json(res, newPage(40)));
      const { proxy, records, report, get } = proxyTo(url, { walks: { walks: 5, rows: 150 } });
      const firstCursor = ((await (await get('/api/v1/firms?limit=40')).json()) as { next_cursor: string }).next_cursor;
      for (let i = 0; i < 30; i++) {
        await (await get('/api/v1/firms?limit=40')).arrayBuffer();
        expect(proxy.walks.size.walks).toBeLessThanOrEqual(5);
        expect(proxy.walks.size.rows).toBeLessThanOrEqual(150);
      }
      // The first walk, continued after thirty others pushed it out: said, not passed.
      await (await get(`/api/v1/firms?limit=40&cursor=${encodeURIComponent(firstCursor)}`)).arrayBuffer();
      const given = records.at(-1)!.violations.filter((v) => v.rule === 'not_validated');
      expect(given).toEqual([
        {
          side: 'response',
          rule: 'not_validated',
          message: expect.stringContaining('the walk this cursor continues was forgotten'),
        },
      ]);
      expect(report.toJSON().by_rule.not_validated).toBe(1);
      expect(report.toJUnit()).toMatch(/name="every answer was checked \(none passed on unchecked\)">\s*<failure/);
    },
  );

  test(
    'answers held for checking at once stay within their budget: ' +
      'one past it streams on unchanged, not_validated, saying why',
    async () => {
      const body = JSON.stringify({ data: Array.from({ length: 30 }, (_, i) => ({ i })) }).padEnd(1_000);
      let finishSlow!: () => void;
      let slowStarted!: () => void;
      const started = new Promise<void>((r) => (slowStarted = r));
      const url = await upstream((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1_000 });
        if (!req.url!.includes('slow')) return void res.end(body);
        // Half the answer now, held by the proxy for checking; the rest once the other is through.
        res.write(body.slice(0, 600), () => setTimeout(slowStarted, 100));
        finishSlow = () => res.end(body.slice(600));
      });
      const { records, get } = proxyTo(url, { maxValidatedBytes: 1_000, maxHeldBytes: 1_000 });
      const slow = get('/api/v1/firms?slow=1');
      await started;
      const other = await get('/api/v1/firms?limit=1');
      expect(await other.text(), 'passed on unchanged').toBe(body);
      finishSlow();
      expect(await (await slow).text()).toBe(body);
      const [first, second] = [
        records.find((r) => r.path.includes('limit=1'))!,
        records.find((r) => r.path.includes('slow'))!,
      ];
      expect(first.violations.filter((v) => v.rule === 'not_validated')).toEqual([
        {
          side: 'response',
          rule: 'not_validated',
          message:
            'the proxy was already holding 600 bytes of other answers for checking (1000 at most): passed on unchecked',
        },
      ]);
      expect(
        second.violations.filter((v) => v.rule === 'not_validated'),
        'the held answer was checked, and its bytes given back',
      ).toEqual([]);
    },
  );

  test("a violation's message is kept to 500 characters, however long what it quotes", async () => {
    const url = await upstream((_req, res) =>
      json(
        res,
        JSON.stringify({ data: [{ service_url: 'https://x/a' }, { service_url: 'https://x/a' }], next_cursor: null }),
      ),
    );
    const { records, get } = proxyTo(url);
    await (await get(`/api/v1/firms/${'a'.repeat(3_000)}`)).arrayBuffer();
    const repeat = records[0]!.violations.find((v) => v.rule === 'cursor-continuity')!;
    expect(repeat.message).toMatch(/^\/api\/v1\/firms\/a+$/);
    expect(repeat.message).toHaveLength(500);
  });

  test(
    'a check that runs out of heap is not_validated, its answer passed ' +
      'on unchanged, and the next large answer is checked by a new process',
    async () => {
      const big = JSON.stringify({
        data: Array.from({ length: 400_000 }, (_, i) => ({ slug: `f-${i}`, n: [i, i, i] })),
        next_cursor: null,
      });
      const url = await upstream((req, res) => json(res, req.url!.includes('big') ? big : newPage(2_000)));
      const checks = checkProcess({ maxHeapMb: 64 });
      closers.push(() => checks.close());
      const { records, get } = proxyTo(url, { checker: checks.check, offloadBytes: 1_000 });
      expect(await (await get('/api/v1/firms?big=1')).text()).toBe(big);
      expect(records[0]!.violations.filter((v) => v.rule === 'not_validated')).toEqual([
        {
          side: 'response',
          rule: 'not_validated',
          message: expect.stringMatching(/^the checks failed, so this answer was not checked: .*memory/),
        },
      ]);
      await (await get('/api/v1/firms?limit=1')).arrayBuffer();
      // Checked: its rows lack what the contract asks of a firm.
      expect(records[1]!.violations.map((v) => v.rule)).not.toContain('not_validated');
      expect(records[1]!.violations.map((v) => v.rule)).toContain('contract');
    },
    60_000,
  );
});

describe('every give-up on the record', () => {
  test('an upstream that breaks off while its too-large answer is passed on: the record says both', async () => {
    const url = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 5_000 });
      res.write('x'.repeat(3_000));
      setTimeout(() => res.destroy(), 50);
    });
    const { records, get } = proxyTo(url, { maxValidatedBytes: 1_000 });
    const answer = await get('/api/v1/firms?limit=1');
    await expect(answer.text()).rejects.toThrow();
    expect(records).toHaveLength(1);
    expect(records[0]!.violations.map((v) => v.rule)).toEqual(['not_validated', 'upstream']);
    expect(records[0]!.violations[1]!.message).toMatch(/^the service's answer \(200\) broke off while passed on: /);
  });
});

describe('the reports written whatever ends the proxy', () => {
  /**
   * The proxy CLI in front of an upstream that sends half an answer and stalls, with one exchange in flight through it.
   */
  async function stalledRun(name: string, preload?: string) {
    let reached!: () => void;
    const stalled = new Promise<void>((r) => (reached = r));
    const url = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1_000 });
      res.write('{"data":[', () => reached());
    });
    const files = {
      report: join(temp, `${name}.json`),
      junit: join(temp, `${name}.xml`),
      html: join(temp, `${name}.html`),
    };
    const args = [
      ...(preload ? ['--import', preload] : []),
      cli,
      'proxy',
      url,
      '--port',
      '0',
      '--report',
      files.report,
      '--junit',
      files.junit,
      '--html',
      files.html,
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    closers.push(() => Promise.resolve(child.kill('SIGKILL')));
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    const at = await new Promise<string>((resolve) =>
      child.stdout.on('data', () => {
        const m = /proxy on (http:\/\/[^ ]+) ->/.exec(out);
        if (m) resolve(m[1]!);
      }),
    );
    void fetch(`${at}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${key}` } })
      .then((r) => r.text())
      .catch(() => undefined);
    await stalled;
    await new Promise((r) => setTimeout(r, 100));
    return { child, files, exited, output: () => out };
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(
      `${signal} mid-exchange: the report, JUnit and HTML are written, ` +
        `the exchange in flight in them as not_validated, exit 1`,
      async () => {
        const run = await stalledRun(signal);
        run.child.kill(signal);
        expect(await run.exited).toBe(1);
        const report = JSON.parse(readFileSync(run.files.report, 'utf8'));
        expect(report.exchanges).toBe(1);
        expect(report.by_rule).toEqual({ not_validated: 1 });
        expect(report.violations[0]).toMatchObject({
          method: 'GET',
          path: '/api/v1/firms?limit=1',
          status: 200,
          violations: [
            { rule: 'not_validated', message: `the proxy was stopped (${signal}) before this exchange was through` },
          ],
        });
        expect(readFileSync(run.files.junit, 'utf8')).toMatch(
          /name="every answer was checked \(none passed on unchecked\)">\s*<failure/,
        );
        expect(readFileSync(run.files.html, 'utf8')).toContain(`stopped (${signal})`);
        expect(run.output()).not.toContain(key);
      },
      30_000,
    );
  }

  test("a failure of the proxy's own: the reports are written, the exchange in flight in them, exit 70", async () => {
    // The failure is injected: a preload that throws on the proxy's thread when asked (SIGUSR2).
    const thrower = "process.on('SIGUSR2', () => setImmediate(() => { throw new Error('injected failure'); }));";
    const preload = `data:text/javascript,${encodeURIComponent(thrower)}`;
    const run = await stalledRun('failure', preload);
    run.child.kill('SIGUSR2');
    expect(await run.exited).toBe(70);
    expect(run.output()).toContain('[investor-graph proxy] internal error, stopping: Error: injected failure');
    const report = JSON.parse(readFileSync(run.files.report, 'utf8'));
    expect(report.violations[0].violations).toEqual([
      {
        side: 'response',
        rule: 'not_validated',
        message: 'the proxy failed before this exchange was through: injected failure',
      },
    ]);
    expect(existsSync(run.files.junit) && existsSync(run.files.html)).toBe(true);
  }, 30_000);
});

describe("large pages checked off the proxy's thread", () => {
  test('while a page of 20,000 rows is checked, twenty small exchanges from another client are answered', async () => {
    const row = (i: number) => ({
      slug: `firm-${i}`,
      name: `Firm ${i}`,
      kind: 'venture_capital',
      hq_city: 'Singapore',
      hq_country: 'SG',
      website: `https://firm-${i}.example`,
      service_url: `https://api.example.com/api/v1/firms/firm-${i}`,
    });
    const large = JSON.stringify({
      data: Array.from({ length: 20_000 }, (_, i) => row(i)),
      next_cursor: null,
      as_of: '2026-11-01T00:00:00Z',
      plan: { id: 'team' },
      usage: {},
    });
    const small = JSON.stringify({
      data: [row(0)],
      next_cursor: null,
      as_of: '2026-11-01T00:00:00Z',
      plan: { id: 'team' },
      usage: {},
    });
    const url = await upstream((req, res) => json(res, req.url!.includes('large') ? large : small));
    const checks = checkProcess();
    closers.push(() => checks.close());
    const order: string[] = [];
    let checking!: () => void;
    const { get } = proxyTo(url, {
      checker: (job) => {
        checking();
        return checks.check(job).finally(() => order.push('the large page checked'));
      },
    });
    // Once to start the checks' process, then the probe: the small exchanges sent once the large one's check has begun.
    await (await get('/api/v1/firms?large=1')).arrayBuffer();
    order.length = 0;
    const begun = new Promise<void>((r) => (checking = r));
    const answer = get('/api/v1/firms?large=1');
    await begun;
    for (let i = 0; i < 20; i++) expect((await get('/api/v1/firms?limit=1')).status).toBe(200);
    order.push('twenty small exchanges answered');
    expect((await (await answer).arrayBuffer()).byteLength).toBe(Buffer.byteLength(large));
    expect(order).toEqual(['twenty small exchanges answered', 'the large page checked']);
  }, 60_000);
});
