// @module-tag servers
/**
 * `--log json` (#69): one JSON object per call, with the members a log pipeline reads, and no key
 * in it in any encoding (the kit's scan, `holdsAnyKey`, after every decoding it knows); the scan
 * shown failing on lines that do hold one.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { holdsAnyKey } from '@investor-graph/cli/redact';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock } from '../../cli/start-mock.ts';
import { cli, killAll, start, stop } from '../../cli/cli-process.test-support.ts';
import { traceIdOf, type JsonLogLine } from './request-log.ts';

const team = newKeyText('team');
const preset = 'Preset.Key-of-the-users-0wn~form';
/** A preset key of 32 hex digits: sent as a traceparent's trace id too, it is no trace id to write. */
const hexKey = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const members = [
  'time',
  'level',
  'request_id',
  'trace_id',
  'operation',
  'method',
  'path',
  'status',
  'duration_ms',
  'key_id',
  'plan',
];
const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
const lines: string[] = [];
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    keys: [
      { plan: 'team', key: team },
      { plan: 'business', key: preset },
      { plan: 'enterprise', key: hexKey },
    ],
    rateLimit: false,
    log: (line) => lines.push(line),
    logFormat: 'json',
  });
});
afterAll(async () => {
  killAll();
  await mock.close();
});

/**
 * Each line one JSON object with every member, and no key of `keys` in it in any form: the kit's
 * scan on every member but the trace id (32 hex digits, a secret by its look to the scan), which
 * holds no 12 characters of a key.
 */
function readLines(text: readonly string[], keys: readonly string[]): JsonLogLine[] {
  return text.map((line) => {
    expect(line).not.toContain('\n');
    const parsed = JSON.parse(line) as JsonLogLine;
    expect(Object.keys(parsed)).toEqual(members);
    expect(new Date(parsed.time).toISOString()).toBe(parsed.time);
    const scanned = JSON.stringify({ ...parsed, trace_id: null });
    for (const key of keys) {
      expect(line).not.toContain(key);
      expect(holdsAnyKey(scanned, keys), `a key in ${line}`).toBe(false);
      for (let at = 0; parsed.trace_id && at + 12 <= parsed.trace_id.length; at++)
        expect(key, `a key in ${line}`).not.toContain(parsed.trace_id.slice(at, at + 12));
    }
    return parsed;
  });
}

/** Every character percent-escaped, `times` times over. */
const escaped = (text: string, times: number): string => {
  let out = [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
  for (let i = 1; i < times; i++) out = out.replace(/%/g, '%25');
  return out;
};

const until = async (done: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
};

test('--log json writes one object per call: request and trace ids, operation, status, key id and plan', async () => {
  const twice = escaped(team, 2);
  const calls: [string, RequestInit][] = [
    [
      '/api/v1/firms?limit=2',
      { headers: { authorization: `Bearer ${team}`, traceparent: `00-${trace}-00f067aa0ba902b7-01` } },
    ],
    [`/api/v1/firms?limit=1&api_key=${team}`, { headers: { authorization: `Bearer ${team}` } }],
    [`/api/v1/firms/${twice}`, { headers: { authorization: `Bearer ${preset}`, 'x-request-id': 'req_client-own-1' } }],
    [`/api/v1/firms?q=${encodeURIComponent(preset)}`, { headers: { traceparent: `ff-${trace}-00f067aa0ba902b7-01` } }],
    ['/__control/clock', {}],
    [
      '/api/v1/companies?limit=1',
      { headers: { authorization: `Bearer ${hexKey}`, traceparent: `00-${hexKey}-00f067aa0ba902b7-01` } },
    ],
  ];
  lines.length = 0;
  const answers = [];
  for (const [path, init] of calls) {
    const answer = await fetch(`${mock.url}${path}`, init);
    await answer.arrayBuffer();
    answers.push(answer);
  }
  await until(() => lines.length >= calls.length);
  const logged = readLines(lines, [team, preset, hexKey]);
  expect(logged).toHaveLength(calls.length);
  expect(logged.map((l) => l.request_id)).toEqual(answers.map((a) => a.headers.get('x-request-id')));
  expect(logged[2]!.request_id).toBe('req_client-own-1');
  expect(logged.map((l) => l.trace_id)).toEqual([trace, null, null, null, null, null]);
  expect(logged.map((l) => [l.operation, l.status, l.plan])).toEqual([
    ['listFirms', 200, 'team'],
    ['listFirms', answers[1]!.status, 'team'],
    ['getFirm', answers[2]!.status, 'business'],
    ['listFirms', 401, null],
    [null, 200, null],
    ['listCompanies', 200, 'enterprise'],
  ]);
  const teamId = (await mock.engine.accounts.list()).find((k) => k.plan === 'team')!.keyId;
  expect(logged[0]).toMatchObject({ level: 'info', method: 'GET', key_id: teamId, path: '/api/v1/firms?limit=2' });
  expect(logged[1]!.path).toBe('/api/v1/firms?limit=1&api_key=***');
  expect(logged.every((l) => l.duration_ms >= 0 && l.duration_ms < 5_000)).toBe(true);
});

test('the scan fails on lines that hold a key, are not JSON, or lack a member', () => {
  const line = (path: string) =>
    JSON.stringify({ ...Object.fromEntries(members.map((m) => [m, null])), time: new Date().toISOString(), path });
  expect(() => readLines([line(`/api/v1/firms/${escaped(team, 2)}`)], [team])).toThrow(/a key in/);
  expect(() =>
    readLines(
      [JSON.stringify({ ...JSON.parse(line('/')), trace_id: `${hexKey.slice(0, 16)}${'1'.repeat(16)}` })],
      [hexKey],
    ),
  ).toThrow(/a key in/);
  expect(() => readLines([line(`/api/v1/firms?q=${Buffer.from(preset).toString('base64')}`)], [preset])).toThrow();
  expect(() => readLines(['GET /api/v1/firms 200 0.4ms'], [team])).toThrow(SyntaxError);
  expect(() => readLines([JSON.stringify({ time: new Date().toISOString() })], [team])).toThrow();
});

test("a traceparent's trace id only when well-formed (W3C Trace Context)", () => {
  expect(traceIdOf(`00-${trace}-00f067aa0ba902b7-01`)).toBe(trace);
  expect(traceIdOf(`01-${trace}-00f067aa0ba902b7-01-more`)).toBe(trace);
  for (const bad of [
    undefined,
    `ff-${trace}-00f067aa0ba902b7-01`,
    `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
    `00-${trace}-${'0'.repeat(16)}-01`,
    `00-${trace.toUpperCase()}-00f067aa0ba902b7-01`,
    `00-${trace}-00f067aa0ba902b7-01-more`,
    `00-${trace}-00f067aa0ba902b7`,
  ])
    expect(traceIdOf(bad), bad).toBeNull();
});

test('the CLI takes --log json (and --log alone as text), and refuses another form', async () => {
  const { url, output, child } = await start('--key', `team=${team}`, '--log', 'json', '--frozen');
  await (await fetch(`${url}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${team}` } })).arrayBuffer();
  await until(() => output().includes('"operation":"listFirms"'));
  const line = output()
    .split('\n')
    .find((l) => l.includes('"operation":"listFirms"'))!;
  expect(readLines([line], [team])[0]).toMatchObject({ status: 200, plan: 'team', method: 'GET' });
  expect(await stop(child)).toBe(0);
  const run = spawnSync(process.execPath, [cli, '--log', 'xml'], { encoding: 'utf8', timeout: 20_000 });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('--log takes text or json, got xml');
});
