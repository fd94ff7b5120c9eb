// @module-tag servers
/**
 * No key comes back (issue #51, third round): keys of every kind (the kit's form of each plan, a
 * preset of the user's own form, one made through the control API, a secret of another service),
 * sent in every place a request has (path segments, parameter names and values, headers, bodies)
 * and in every encoding (as is, percent-encoded one to six times, every character escaped), are
 * in no answer (status line, headers, body), no log line, no entry of the request journal (#54),
 * and no record or report of the validation proxy. What a key looks like after any decoding is what is looked for.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { createContractValidator } from '@investor-graph/contract';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock } from './node.ts';
import { createValidationProxy, type ExchangeRecord } from './proxy/proxy.ts';
import { ProxyReport } from './proxy/report.ts';
import { renderProxyHtml } from './proxy/html.ts';

const own = newKeyText('enterprise');
const preset = 'Preset.Key-of-the-users-0wn~form';
const lines: string[] = [];
let mock: RunningMock;
let madeThroughControl = '';

beforeAll(async () => {
  // No limit answers 429 here: every request goes all the way to where it could be echoed.
  mock = await startMock({
    port: 0,
    keys: [
      { plan: 'enterprise', key: own },
      { plan: 'team', key: preset },
    ],
    rateLimit: false,
    log: (line) => lines.push(line),
  });
  madeThroughControl = 'Ctl!made(key)*with_odd.chars-7Qx';
  const made = await fetch(`${mock.url}/__control/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'business', key: madeThroughControl }),
  });
  expect(made.status).toBe(201);
});
afterAll(() => mock.close());

/** The keys a probe hides: their text, and the part of it that must never be seen (its secret part). */
const kinds = (): { name: string; key: string }[] => [
  { name: "the kit's form, another plan", key: newKeyText('team') },
  { name: "the kit's form, a trial", key: newKeyText('trial') },
  { name: "the request's own key", key: own },
  { name: "a preset of the user's form", key: preset },
  { name: 'a custom key made through control', key: madeThroughControl },
  { name: "another service's secret", key: 'sk_live_4eC39HqLyjWDarjtT1zdp7dcQ9' },
];

/** Every character percent-escaped, then `times` more rounds of escaping the percent signs. */
const encodings: [string, (text: string) => string][] = [
  ['as is', (t) => t],
  ['percent-encoded', (t) => encodeURIComponent(t)],
  ['every character escaped', everyChar],
  ...[2, 3, 4, 5, 6].map((times): [string, (text: string) => string] => [
    `escaped ${times} times`,
    (t) => nest(everyChar(t), times - 1),
  ]),
  ['lower-case escapes', (t) => everyChar(t).toLowerCase()],
];
function everyChar(text: string): string {
  return [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
}
function nest(text: string, times: number): string {
  let out = text;
  for (let i = 0; i < times; i++) out = out.replace(/%/g, '%25');
  return out;
}

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Where a request carries text: each place a key can be put, given the key as it is to be sent. */
const placements: [string, (k: string) => Probe][] = [
  ['a firm slug', (k) => ({ method: 'GET', path: `/api/v1/firms/${k}` })],
  ["a nested list's slug", (k) => ({ method: 'GET', path: `/api/v1/companies/${k}/rounds` })],
  ['a fund id', (k) => ({ method: 'GET', path: `/api/v1/funds/${k}` })],
  ['a list slug', (k) => ({ method: 'GET', path: `/api/v1/lists/${k}` })],
  ["a statistic's name", (k) => ({ method: 'GET', path: `/api/v1/statistics/${k}` })],
  ['a dump date', (k) => ({ method: 'GET', path: `/api/v1/exports/${k}/firms.jsonl.gz` })],
  ['a dump file', (k) => ({ method: 'GET', path: `/api/v1/exports/2026-11-01/${k}` })],
  ['an unknown route', (k) => ({ method: 'GET', path: `/api/v1/${k}` })],
  ['a path off the API', (k) => ({ method: 'GET', path: `/${k}/x` })],
  ['a long unknown path', (k) => ({ method: 'GET', path: `/api/v1/${'segment/'.repeat(24)}${k}` })],
  ['a control path', (k) => ({ method: 'GET', path: `/__control/${k}` })],
  ['limit', (k) => ({ method: 'GET', path: `/api/v1/firms?limit=${k}` })],
  ['cursor', (k) => ({ method: 'GET', path: `/api/v1/firms?cursor=${k}` })],
  ['since', (k) => ({ method: 'GET', path: `/api/v1/changes?since=${k}` })],
  ['include', (k) => ({ method: 'GET', path: `/api/v1/changes?since=2026-10-01T00:00:00Z&include=${k}` })],
  ['announced_since', (k) => ({ method: 'GET', path: `/api/v1/rounds?announced_since=${k}` })],
  ["an unknown parameter's value", (k) => ({ method: 'GET', path: `/api/v1/firms?x=${k}` })],
  ["a parameter's name", (k) => ({ method: 'GET', path: `/api/v1/firms?${k}=1` })],
  ["a parameter's name without a value", (k) => ({ method: 'GET', path: `/api/v1/firms?${k}` })],
  ['a parameter named like a secret', (k) => ({ method: 'GET', path: `/api/v1/firms?api_key=${k}` })],
  ['a repeated parameter', (k) => ({ method: 'GET', path: `/api/v1/firms?limit=${k}&limit=${k}` })],
  [
    'a parameter of the trial call',
    (k) => ({
      method: 'POST',
      path: `/api/v1/keys/trial?${k}=1`,
      headers: { 'content-type': 'application/json' },
      body: '{"email":"a@example.com"}',
    }),
  ],
  ['X-Request-Id', (k) => ({ method: 'GET', path: '/api/v1/firms?limit=1', headers: { 'x-request-id': k } })],
  [
    'X-Request-Id on an error',
    (k) => ({ method: 'GET', path: '/api/v1/firms?limit=0', headers: { 'x-request-id': k } }),
  ],
  ['If-None-Match', (k) => ({ method: 'GET', path: '/api/v1/firms?limit=1', headers: { 'if-none-match': k } })],
  ['Prefer example', (k) => ({ method: 'GET', path: '/api/v1/firms', headers: { prefer: `example=${k}` } })],
  ['Prefer code', (k) => ({ method: 'GET', path: '/api/v1/firms', headers: { prefer: `code=${k}` } })],
  ['Origin', (k) => ({ method: 'GET', path: '/api/v1/firms?limit=1', headers: { origin: `http://${k}` } })],
  ['Origin on control', (k) => ({ method: 'GET', path: '/__control/state', headers: { origin: `http://${k}` } })],
  ['Host on control', (k) => ({ method: 'GET', path: '/__control/state', headers: { host: `${k}.example` } })],
  [
    "the trial's e-mail",
    (k) => ({
      method: 'POST',
      path: '/api/v1/keys/trial',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: k }),
    }),
  ],
  [
    "the trial's body, another member",
    (k) => ({
      method: 'POST',
      path: '/api/v1/keys/trial',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', [k]: 1 }),
    }),
  ],
  [
    'a control body',
    (k) => ({
      method: 'POST',
      path: '/__control/keys',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan: k }),
    }),
  ],
  ['a control key id', (k) => ({ method: 'POST', path: `/__control/keys/${k}/revoke` })],
  ['a method', (k) => ({ method: /^[A-Za-z0-9_]+$/.test(k) ? k : 'GET', path: '/api/v1/firms' })],
  [
    'an Authorization that is not Bearer',
    (k) => ({ method: 'GET', path: '/api/v1/firms', headers: { authorization: `Basic ${k}` } }),
  ],
  [
    'an Authorization with two keys',
    (k) => ({ method: 'GET', path: '/api/v1/firms', headers: { authorization: `Bearer ${own} ${k}` } }),
  ],
];

/** Sends a probe as its bytes are (node:http keeps the target as given), with the own key unless it has one. */
function send(base: string, probe: Probe): Promise<{ text: string }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${own}`,
      ...probe.headers,
      ...(probe.body !== undefined ? { 'content-length': String(Buffer.byteLength(probe.body)) } : {}),
    };
    const req = httpRequest(
      { host: '127.0.0.1', port: Number(port), method: probe.method, path: probe.path, headers, timeout: 10_000 },
      (res) => {
        let body = '';
        res.setEncoding('latin1');
        res.on('data', (d: string) => (body += d));
        res.on('end', () =>
          resolve({
            text: `${res.statusCode} ${res.statusMessage}\n${Object.entries(res.headers)
              .map(([k, v]) => `${k}: ${String(v)}`)
              .join('\n')}\n\n${body}`,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(probe.body);
  });
}

/** The seq of the request journal's newest entry, to read what a probe adds to it after. */
const journalMark = async (): Promise<number | undefined> =>
  (await mock.engine.journal.snapshot()).entries().at(-1)?.seq;
/** The journal's entries after `mark`, as a page of `GET /__control/journal` shows them. */
const journaledAfter = async (mark: number | undefined): Promise<string> =>
  JSON.stringify((await mock.engine.journal.page({}, 1_000, mark)).entries);

/** Text after every decoding a reader could apply: escapes of URLs and of JSON, to the bottom. */
function decodedAll(text: string): string {
  let out = text;
  for (let i = 0; i < 8; i++) {
    const next = out
      .replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * Whether `text`, or any decoding of it, shows 12 characters in a row of the key's secret part (a
 * part of a key is a leak too). A key of the kit's form starts with its plan's prefix, which the
 * account shows on purpose (DECISIONS.md#account): its secret is what follows.
 */
function shows(text: string, key: string): string | null {
  const decoded = decodedAll(text);
  key = key.replace(/^igk_[a-z]+_/, '');
  for (let at = 0; at + 12 <= key.length; at++) {
    const part = key.slice(at, at + 12);
    if (text.includes(part) || decoded.includes(part)) return part;
  }
  return null;
}

describe('no key is in any answer, log line, journal entry or report, wherever and however a request sends it', () => {
  const validator = createContractValidator();
  const records: ExchangeRecord[] = [];
  let proxyFetch: (request: Request) => Promise<Response>;
  beforeAll(async () => {
    const report = new ProxyReport(mock.url);
    const proxy = createValidationProxy({
      upstream: mock.url,
      validator: await validator,
      timeoutMs: 20_000,
      onExchange: (r) => (records.push(r), report.add(r)),
    });
    proxyFetch = (request) => proxy.fetch(request);
    reportOf = () => `${JSON.stringify(report.toJSON())}\n${report.toJUnit()}\n${renderProxyHtml(report.toJSON())}`;
  });
  let reportOf = (): string => '';

  test('every placement, encoding and kind of key, straight to the mock and through the validation proxy', async () => {
    const leaks: string[] = [];
    for (const [where, place] of placements) {
      for (const [how, encode] of encodings) {
        for (const { name, key } of kinds()) {
          // The own key is known wherever it is sent; a probe that
          // sends it as its Authorization too is the common case.
          const probe = place(encode(key));
          if (!probe.path.startsWith('/') || /[\s\u0000-\u001f]/.test(probe.path)) continue;
          const before = lines.length;
          const mark = await journalMark();
          const answer = await send(mock.url, probe).catch((error: Error) => ({
            text: `(no answer: ${error.message})`,
          }));
          await new Promise((r) => setImmediate(r));
          const logged = lines.slice(before).join('\n');
          for (const [what, text] of [
            ['answer', answer.text],
            ['log', logged],
            ['journal', await journaledAfter(mark)],
          ] as const) {
            const part = shows(text, key);
            if (part)
              leaks.push(`${name} in ${where}, ${how}: its part "${part}" is in the ${what}: ${text.slice(0, 300)}`);
          }
        }
      }
    }
    expect(leaks.slice(0, 20), `${leaks.length} leaks`).toEqual([]);
  });

  test('through the validation proxy: its records, report, JUnit and page hold no key either', async () => {
    const leaks: string[] = [];
    for (const [where, place] of placements) {
      for (const [how, encode] of encodings.slice(0, 4)) {
        for (const { name, key } of kinds().filter((k) => k.key === own || /^igk_|^sk_/.test(k.key))) {
          const probe = place(encode(key));
          if (probe.method !== 'GET' && probe.method !== 'POST') continue;
          let request: Request;
          try {
            request = new Request(`http://proxy${probe.path}`, {
              method: probe.method,
              headers: { authorization: `Bearer ${own}`, ...probe.headers },
              ...(probe.body !== undefined ? { body: probe.body } : {}),
            });
          } catch {
            continue; // a target or header no WHATWG Request carries
          }
          const before = records.length;
          const response = await proxyFetch(request);
          const text =
            `${response.status}\n${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n` +
            `${await response.text()}`;
          const part = shows(text, key) ?? shows(JSON.stringify(records.slice(before)), key);
          if (part)
            leaks.push(`${name} in ${where}, ${how}: "${part}" came back through the proxy or is in its record`);
        }
      }
    }
    const part = kinds()
      .map((k) => shows(reportOf(), k.key))
      .find(Boolean);
    if (part) leaks.push(`the report shows "${part}"`);
    expect(leaks.slice(0, 20), `${leaks.length} leaks`).toEqual([]);
  });

  test('keys of any text, in generated places and encodings, never come back', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Keys a person makes up (short runs between punctuation), which no secret's shape finds.
        fc
          .tuple(
            fc.array(fc.stringMatching(/^[A-Za-z0-9]{3,9}$/), { minLength: 2, maxLength: 5 }),
            fc.constantFrom('.', '-', '~', '!', '*', "'", '('),
          )
          .map(([parts, by]) => parts.join(by))
          .filter((k) => k.length >= 12),
        fc.integer({ min: 0, max: placements.length - 1 }),
        fc.integer({ min: 0, max: encodings.length - 1 }),
        async (custom, where, how) => {
          // Made through control first, so the mock knows it as a key.
          const made = await fetch(`${mock.url}/__control/keys`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ plan: 'team', key: custom }),
          });
          if (made.status !== 201)
            throw new Error(`the control API did not make the key: ${made.status} ${await made.text()}`);
          const before = lines.length;
          const mark = await journalMark();
          const answer = await send(mock.url, placements[where]![1](encodings[how]![1](custom)));
          await new Promise((r) => setImmediate(r));
          expect(shows(answer.text, custom), answer.text.slice(0, 300)).toBeNull();
          expect(shows(lines.slice(before).join('\n'), custom)).toBeNull();
          expect(shows(await journaledAfter(mark), custom)).toBeNull();
        },
      ),
      { numRuns: 150, seed: 51 },
    );
  });
});
