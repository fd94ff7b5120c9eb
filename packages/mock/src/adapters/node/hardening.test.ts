// @module-tag servers
/**
 * The second round of hostile probes (issue #37), kept as tests a reader can run: the validation
 * proxy in front of an upstream that floods it with violations, sends more than it can check, or a
 * status that is no status; and the mock's server given odd HTTP, keys where keys do not go, and
 * dot segments. Each test is the probe that found the fault, and fails without its fix.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock } from '../../node.ts';
import { createValidationProxy, violationsHeader, type ExchangeRecord } from '../../proxy/proxy.ts';
import { ProxyReport } from '../../proxy/report.ts';
import { escapeControl, redactPath } from '@investor-graph/cli/redact';

const validator = await createContractValidator();
const temp = mkdtempSync(join(tmpdir(), 'ig-hardening-'));
const closers: (() => Promise<unknown>)[] = [];
afterAll(() => Promise.all(closers.map((c) => c())));

const key = newKeyText('team');
/** Every character percent-encoded (encodeURIComponent leaves igk_ as it is). */
const everyChar = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

/** Writes `request` as it is and reads until the server closes (5 s at most). */
function raw(base: string, request: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let out = '';
    socket.on('data', (d) => (out += String(d)));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => (socket.destroy(), resolve(out)));
  });
}

/** An upstream that answers every request with `answer`'s status, headers and body. */
async function upstream(
  answer: () => { status: number; body: string; headers?: Record<string, string> },
): Promise<string> {
  const server: Server = createServer((_req, res) => {
    const a = answer();
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

function proxyTo(url: string, more: Partial<Parameters<typeof createValidationProxy>[0]> = {}) {
  const records: ExchangeRecord[] = [];
  const report = new ProxyReport(url);
  const proxy = createValidationProxy({
    upstream: url,
    validator,
    timeoutMs: 20_000,
    onExchange: (r) => (records.push(r), report.add(r)),
    ...more,
  });
  const get = (path: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
    proxy.fetch(new Request(`http://proxy${path}`, { headers }));
  return { records, report, get };
}

/** A page of `n` rows that are all the same row: every one after the first breaks a rule. */
function repeatedRows(n: number): string {
  const row = {
    slug: 'harbor-lane-capital',
    name: 'Harbor Lane Capital',
    service_url: 'https://api.example.com/api/v1/firms/harbor-lane-capital',
  };
  return JSON.stringify({
    data: Array.from({ length: n }, () => row),
    next_cursor: null,
    as_of: '2026-11-01T00:00:00Z',
    plan: { id: 'team' },
    usage: {},
  });
}

describe('the validation proxy under a hostile upstream', () => {
  test(
    'a page of 8,000 repeated rows: a bounded header and record ' +
      '("N more"), every violation counted, the next call answered',
    async () => {
      const big = repeatedRows(8_000);
      const url = await upstream(() => ({ status: 200, body: big }));
      const { records, report, get } = proxyTo(url);
      // The flood's check yields between rules: a call sent just after it is answered too.
      const flood = get('/api/v1/firms?limit=100');
      const other = get('/api/v1/firms?limit=1');
      const [a, b] = await Promise.all([flood, other]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const header = a.headers.get('sl-violations')!;
      expect(header.length).toBeLessThanOrEqual(8 * 1024);
      const items = JSON.parse(header) as { code: string; message: string }[];
      expect(items.at(-1)!.code).toBe('truncated');
      expect(items.at(-1)!.message).toMatch(/^and \d+ more$/);
      // Each record keeps the exchange's budget of violations and counts the rest by rule.
      for (const r of records) expect(r.violations.length).toBeLessThanOrEqual(100);
      const counted = [...report.byRule.values()].reduce((s, n) => s + n, 0);
      expect(counted).toBeGreaterThan(2 * 8_000);
      expect(JSON.stringify(report.toJSON()).length).toBeLessThan(2_000_000);
    },
  );

  test('the sl-violations header is built in one pass: 100,000 violations make the same bounded header', () => {
    const violations = Array.from({ length: 100_000 }, (_, i) => ({
      side: 'response' as const,
      rule: 'contract' as const,
      message: `row ${i} is wrong`,
    }));
    const header = violationsHeader(violations, 5);
    expect(header.length).toBeLessThanOrEqual(8 * 1024);
    const items = JSON.parse(header) as { message: string }[];
    expect(items.at(-1)!.message).toBe(`and ${100_000 - (items.length - 1) + 5} more`);
  });

  test(
    'an answer too large to check is a not_validated ' + 'violation, failing the run; allowed by flag, only noted',
    async () => {
      const body = repeatedRows(50);
      const url = await upstream(() => ({ status: 200, body }));
      const strict = proxyTo(url, { maxValidatedBytes: 1_024 });
      const response = await strict.get('/api/v1/firms?limit=100');
      expect(await response.text(), 'passed on whole').toBe(body);
      expect(strict.records[0]!.violations).toEqual([
        { side: 'response', rule: 'not_validated', message: 'the body is over 1024 bytes: passed on unchecked' },
      ]);
      expect(strict.report.responseViolations, 'the proxy exits 1').toBe(1);
      expect(strict.report.toJUnit()).toMatch(
        /name="every answer was checked \(none passed on unchecked\)">\s*<failure/,
      );
      const allowed = proxyTo(url, { maxValidatedBytes: 1_024, allowUnvalidated: true });
      await (await allowed.get('/api/v1/firms?limit=100')).text();
      expect(allowed.records[0]!.violations).toEqual([]);
      expect(allowed.records[0]!.notValidated).toMatch(/passed on unchecked/);
      expect(allowed.report.responseViolations).toBe(0);
    },
  );

  test(
    'an upstream status that is no HTTP status (999) ' + "is a 502 upstream_invalid, not the proxy's own 500",
    async () => {
      const url = await upstream(() => ({ status: 999, body: '{}' }));
      const { records, get } = proxyTo(url);
      const response = await get('/api/v1/firms?limit=1');
      expect(response.status).toBe(502);
      expect((await response.json()).code).toBe('upstream_invalid');
      expect(records[0]!.violations.map((v) => v.rule)).toEqual(['upstream']);
    },
  );

  test("a log line cannot be forged: the proxy CLI escapes the service's newline in a violation", async () => {
    const forged = 'GET /api/v1/account 200 1ms';
    // Not JSON, under a JSON type: the violation quotes the body, newline and all.
    const url = await upstream(() => ({ status: 200, body: `{"data":[1]\n${forged}` }));
    const cli = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));
    const proxy = spawn(
      process.execPath,
      [cli, 'proxy', url, '--port', '0', '--report', join(temp, 'r.json'), '--junit', join(temp, 'j.xml')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    closers.push(() => Promise.resolve(proxy.kill('SIGKILL')));
    let out = '';
    proxy.stdout.on('data', (d) => (out += d));
    const at = await new Promise<string>((resolve) =>
      proxy.stdout.on('data', () => {
        const m = /proxy on (http:\/\/[^ ]+) ->/.exec(out);
        if (m) resolve(m[1]!);
      }),
    );
    await (await fetch(`${at}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${key}` } })).text();
    proxy.kill('SIGTERM');
    await new Promise((r) => proxy.once('exit', r));
    expect(out).toContain('VIOLATIONS');
    // The service's text is on its exchange's line, escaped: no line of the log starts with it.
    expect(out.split('\n').filter((line) => line.startsWith(forged))).toEqual([]);
    expect(out).toContain(`\\n${forged}`);
    expect(escapeControl('a\nb\r\u001b[31mc\u2028')).toBe('a\\nb\\r\\u001b[31mc\\u2028');
    // A bidirectional override would reorder the line it is in: a path could pass for another.
    expect(escapeControl('/api/v1/firms/a\u202egpj\u2066')).toBe('/api/v1/firms/a\\u202egpj\\u2066');
  });

  test(
    'a body of megabytes with no digit in it is excerpted ' + 'at once, keys blanked (the secret pattern is linear)',
    async () => {
      const body = JSON.stringify({ data: 'a'.repeat(3_000_000), key: key });
      const url = await upstream(() => ({ status: 200, body }));
      const { records, get } = proxyTo(url);
      await (await get('/api/v1/firms?limit=1')).text();
      expect(records[0]!.excerpt!.length).toBeLessThanOrEqual(300);
      expect(redactPath(`/x/${'b'.repeat(1_000_000)}`)).toHaveLength(1_000_003);
    },
  );
});

describe('keys where keys do not go', () => {
  test.each([
    ['a preset key of any form, in the path', '/api/v1/firms/my-team-key-1234', ['my-team-key-1234']],
    ['a key sent as the cursor', `/api/v1/firms?cursor=${key}`, []],
    ['a key percent-encoded twice', `/api/v1/firms?q=${encodeURIComponent(everyChar(key))}`, []],
    ['a key percent-encoded twice, in the path', `/api/v1/firms/${encodeURIComponent(everyChar(key))}`, []],
    [
      'a key percent-encoded seven times',
      '/api/v1/firms/' +
        Array.from({ length: 6 }).reduce<string>((t) => encodeURIComponent(t), everyChar('my-team-key-1234')),
      [],
    ],
    ['a preset key under an unknown parameter', '/api/v1/firms?x=my-team-key-1234', ['my-team-key-1234']],
  ])('%s is blanked in what is logged', (_name, target, known) => {
    const shown = redactPath(target, known);
    expect(shown).toContain('***');
    for (const part of [key, key.slice(4, 24), 'my-team-key-1234', 'team-key-1234', everyChar(key).slice(0, 30)])
      expect(shown).not.toContain(part);
  });

  test(
    "a cursor of the kit's form still shows its start, to " + 'tell two apart; anything else sent as one is blanked',
    () => {
      expect(redactPath('/api/v1/firms?cursor=eyJrIjoiZmlybXMiLCJhIjoiaGFy.c2lnbmF0dXJlc2lnbmF0dXJl')).toBe(
        '/api/v1/firms?cursor=eyJrIjoiZm...',
      );
      // Issue #51: a secret of another service sent as a cursor showed its first 16 characters.
      expect(redactPath('/api/v1/firms?cursor=sk_live_4eC39HqLyjWDarjtT1zdp7dc')).toBe('/api/v1/firms?cursor=***');
    },
  );

  test(
    'a key sent as a path segment is not echoed in the ' + "problem's instance, in the kit's form or a preset one",
    async () => {
      const preset = 'my-team-key-1234';
      const mock = await startMock({ port: 0, keys: [{ plan: 'team', key: preset }] });
      closers.push(() => mock.close());
      for (const sent of [key, preset]) {
        const response = await fetch(`${mock.url}/api/v1/firms/${sent}`, {
          headers: { authorization: `Bearer ${preset}` },
        });
        const text = await response.text();
        expect([400, 404]).toContain(response.status);
        expect(text).not.toContain(sent);
        expect(JSON.parse(text).instance).toBe('/api/v1/firms/***');
      }
      // TRACE is refused before the engine; its instance is blanked too.
      const trace = await raw(
        mock.url,
        `TRACE /api/v1/firms/${preset} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`,
      );
      expect(trace).toMatch(/^HTTP\/1\.1 405/);
      expect(trace).not.toContain(preset);
    },
  );
});

describe('the server under odd HTTP', () => {
  let mock: RunningMock;
  const send = async (request: string): Promise<string> => {
    if (!mock) {
      mock = await startMock({ port: 0 });
      closers.push(() => mock.close());
    }
    return raw(mock.url, request);
  };
  const problemOf = (answer: string) => ({
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]),
    type: /content-type: ([^\r\n]+)/i.exec(answer)?.[1],
    body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4) || 'null'),
  });

  const odd: [string, string, number, string][] = [
    ['HTTP/1.1 without Host', 'GET /api/v1/firms HTTP/1.1\r\nconnection: close\r\n\r\n', 400, 'invalid_request'],
    [
      'an Expect it cannot meet',
      'GET /api/v1/firms HTTP/1.1\r\nhost: localhost\r\nexpect: 200-ok\r\nconnection: close\r\n\r\n',
      417,
      'expectation_failed',
    ],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n', 405, 'method_not_allowed'],
    [
      'a %2e%2e walk to the control plane',
      'POST /api/v1/%2e%2e/%2e%2e/__control/keys HTTP/1.1\r\nhost: localhost\r\n' +
        'content-type: application/json\r\ncontent-length: 15\r\nconnection: close\r\n\r\n{"plan":"team"}',
      400,
      'invalid_request',
    ],
    [
      'a plain .. walk',
      'GET /api/v1/firms/../account HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n',
      400,
      'invalid_request',
    ],
    [
      'a ..# walk',
      'GET /api/v1/firms/..#x HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n',
      400,
      'invalid_request',
    ],
    ['an empty Host', 'GET /api/v1/firms HTTP/1.1\r\nhost: \r\nconnection: close\r\n\r\n', 400, 'invalid_request'],
    [
      'two Hosts',
      'GET /api/v1/firms HTTP/1.1\r\nhost: localhost\r\nhost: example.com\r\nconnection: close\r\n\r\n',
      400,
      'invalid_request',
    ],
  ];
  test('a refused request closes its connection: a request pipelined after it is not served', async () => {
    const answer = await send(
      'GET /api/v1/%2e%2e/firms HTTP/1.1\r\nhost: localhost\r\n\r\nGET /api/v1/firms HTTP/1.1\r\n' +
        'host: localhost\r\n\r\n',
    );
    expect(answer.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
    expect(answer).toMatch(/connection: close/i);
  });

  for (const [name, request, status, code] of odd) {
    test(`${name} is answered ${status} ${code}, problem+json`, async () => {
      const answer = problemOf(await send(request));
      expect(answer.status).toBe(status);
      expect(answer.type).toBe('application/problem+json');
      expect(answer.body.code).toBe(code);
    });
  }

  test('the %2e%2e walk made no key: the control plane was never reached', async () => {
    await send(
      'POST /api/v1/%2e%2e/%2e%2e/__control/keys HTTP/1.1\r\nhost: localhost\r\n' +
        'content-type: application/json\r\ncontent-length: 15\r\nconnection: close\r\n\r\n{"plan":"team"}',
    );
    const state = (await (await fetch(`${mock.url}/__control/state`)).json()) as { keys: unknown[] };
    expect(state.keys).toHaveLength(0);
  });

  test('the request log blanks preset keys and a key made through control, sent in the query', async () => {
    const lines: string[] = [];
    const preset = 'my-team-key-1234';
    const logged = await startMock({ port: 0, keys: [{ plan: 'team', key: preset }], log: (line) => lines.push(line) });
    closers.push(() => logged.close());
    await (
      await fetch(`${logged.url}/api/v1/firms?note=${encodeURIComponent('a\nb')}&x=${preset}`, {
        headers: { authorization: `Bearer ${preset}` },
      })
    ).text();
    await new Promise((r) => setTimeout(r, 50));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(preset);
  });
});

describe('slow readers', () => {
  test(
    'a client that stops reading a large answer is cut after its ' +
      'window; one reading at 2 MiB/s, or at full speed, gets it whole',
    async () => {
      const { createNodeServer, listen } = await import('./server.ts');
      const body = new Uint8Array(12 * 1024 * 1024).fill(97);
      // The adapter is what is under test here: an engine that answers 12 MiB (one write) to anything.
      const server = createNodeServer(
        {
          fetch: () => Promise.resolve(new Response(body, { headers: { 'content-type': 'application/octet-stream' } })),
        },
        { limits: { writeWindowMs: 1_000, minWriteBytes: 128 * 1024 } },
      );
      const url = await listen(server, 0, '127.0.0.1');
      closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
      const { port } = new URL(url);
      /**
       * Reads at `bytesPerSecond` (0: the first chunk, then nothing
       * for 4 s); whether the server closed first, and how much came.
       */
      const reader = (bytesPerSecond: number) =>
        new Promise<{ closed: boolean; read: number }>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () =>
            socket.write('GET /x HTTP/1.1\r\nhost: localhost\r\n\r\n'),
          );
          let read = 0;
          let stalledOnce = false;
          socket.on('data', (d) => {
            read += d.length;
            if (read >= body.length) return (socket.destroy(), resolve({ closed: false, read }));
            // Stalled: one pause of 4 s (four windows), then it reads on, to see where the server ended it.
            if (!bytesPerSecond && stalledOnce) return;
            stalledOnce = true;
            socket.pause();
            setTimeout(() => socket.resume(), bytesPerSecond ? (d.length / bytesPerSecond) * 1000 : 4_000);
          });
          socket.on('close', () => resolve({ closed: true, read }));
          setTimeout(() => (socket.destroy(), resolve({ closed: false, read })), 15_000);
        });
      const stalled = await reader(0);
      expect(stalled.closed, 'the server ended the stalled connection').toBe(true);
      expect(stalled.read).toBeLessThan(body.length);
      const steady = await reader(2 * 1024 * 1024);
      expect(steady.closed, 'a reader at 2 MiB/s is never cut').toBe(false);
      expect(steady.read, 'the head and the whole body').toBeGreaterThan(body.length);
      const whole = await fetch(`${url}/x`);
      expect((await whole.arrayBuffer()).byteLength).toBe(body.length);
    },
  );
});
