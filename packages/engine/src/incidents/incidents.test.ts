import { expect, test } from 'vitest';
import { Incidents, MAX_INCIDENTS, type CallFacts } from './incidents.ts';
import { parseIncident } from './parse.ts';

const firms: CallFacts = { operation: 'listFirms', method: 'GET', path: '/api/v1/firms', keyId: 'key_aaaaaaaaaaaa' };
const firm: CallFacts = { ...firms, operation: 'getFirm', path: '/api/v1/firms/harbor-lane' };
const now = Date.parse('2026-11-20T03:00:00Z');

function book(wall = { at: 1_000_000 }) {
  return { incidents: new Incidents(() => wall.at), wall };
}

test('an incident for the next two calls changes two matching calls and then ends', () => {
  const { incidents } = book();
  const outage = incidents.add({ kind: 'outage', match: { operation: 'listFirms' }, calls: 2, parameters: {} });
  expect(outage).toMatchObject({ kind: 'outage', calls_left: 2, hits: 0, ends_at: null, until: null });
  expect(outage.id).toMatch(/^inc_[0-9a-f]{12}$/);
  expect(incidents.take(firm, now)).toBeNull();
  expect(incidents.take(firms, now)).toMatchObject({ id: outage.id, calls_left: 1, hits: 1 });
  expect(incidents.take(firms, now)).toMatchObject({ calls_left: 0, hits: 2 });
  expect(incidents.take(firms, now)).toBeNull();
  expect(incidents.list(now)).toEqual([]);
});

test('an incident ends at its wall-clock duration or at its time on the simulated clock', () => {
  const { incidents, wall } = book();
  incidents.add({ kind: 'bad_gateway', match: {}, durationMs: 30_000, parameters: {} });
  incidents.add({ kind: 'gateway_timeout', match: { method: 'post' }, until: now + 60_000, parameters: {} });
  expect(incidents.list(now).map((i) => i.kind)).toEqual(['bad_gateway', 'gateway_timeout']);
  wall.at += 30_000;
  expect(incidents.list(now).map((i) => i.kind)).toEqual(['gateway_timeout']);
  expect(incidents.take({ ...firms, method: 'POST' }, now + 59_999)).toMatchObject({ kind: 'gateway_timeout' });
  expect(incidents.take({ ...firms, method: 'POST' }, now + 60_000)).toBeNull();
});

test('the newest matching incident is the one a call meets; others wait their turn', () => {
  const { incidents } = book();
  const broad = incidents.add({ kind: 'latency', match: {}, parameters: { latency_ms: 100 } });
  const narrow = incidents.add({ kind: 'reset', match: { path: '/api/v1/firms/*' }, calls: 1, parameters: {} });
  expect(incidents.take(firm, now)?.id).toBe(narrow.id);
  expect(incidents.take(firm, now)?.id).toBe(broad.id);
  expect(incidents.take(firms, now)?.id).toBe(broad.id);
});

test('an incident matches by operation, method, path pattern and key id, all that are given', () => {
  const { incidents } = book();
  incidents.add({ kind: 'outage', match: { key_id: 'key_bbbbbbbbbbbb', operation: 'listFirms' }, parameters: {} });
  expect(incidents.take(firms, now)).toBeNull();
  expect(incidents.take({ ...firms, keyId: 'key_bbbbbbbbbbbb' }, now)).not.toBeNull();
  expect(incidents.take({ ...firm, keyId: 'key_bbbbbbbbbbbb' }, now)).toBeNull();
});

test('ending one incident or clearing them all says what ended', () => {
  const { incidents } = book();
  const one = incidents.add({ kind: 'outage', match: {}, parameters: { retry_after: 5 } });
  incidents.add({ kind: 'outage', match: {}, parameters: { retry_after: 5 } });
  expect(incidents.end(one.id, now)).toMatchObject({ id: one.id, retry_after: 5 });
  expect(incidents.end(one.id, now)).toBeUndefined();
  expect(incidents.clear()).toBe(1);
  expect(incidents.any).toBe(false);
});

test("an incident's body takes each kind's defaults and bounds, and names every wrong member at once", () => {
  expect(parseIncident({ kind: 'outage' })).toEqual({
    ok: true,
    value: { kind: 'outage', match: {}, parameters: { retry_after: 5 } },
  });
  expect(parseIncident({ kind: 'slow_body', duration: 'PT30S', calls: 3, until: '2026-11-21T00:00:00Z' })).toEqual({
    ok: true,
    value: {
      kind: 'slow_body',
      match: {},
      calls: 3,
      durationMs: 30_000,
      until: Date.parse('2026-11-21T00:00:00Z'),
      parameters: { bytes_per_second: 1024 },
    },
  });
  const wrong = parseIncident({
    kind: 'latency',
    match: { operation: '', host: 'x' },
    calls: 0,
    duration: '30s',
    retry_after: 5,
    jitter_ms: 70_000,
    colour: 'red',
  });
  expect(wrong.ok).toBe(false);
  expect(!wrong.ok && wrong.errors.map((e) => e.pointer)).toEqual([
    '/colour',
    '/match/operation',
    '/match/host',
    '/calls',
    '/duration',
    '/retry_after',
    '/latency_ms',
    '/jitter_ms',
  ]);
  expect(parseIncident({ kind: 'flood' })).toMatchObject({ ok: false, errors: [{ pointer: '/kind' }] });
  // A Retry-After as the contract bounds it: an hour at most.
  expect(parseIncident({ kind: 'outage', retry_after: 3_601 })).toMatchObject({
    ok: false,
    errors: [{ pointer: '/retry_after' }],
  });
  expect(parseIncident([])).toMatchObject({ ok: false, errors: [{ pointer: '' }] });
});

test('at most MAX_INCIDENTS are in force: one more is a 409 too_many_incidents, and ending one makes room', () => {
  const incidents = new Incidents(() => 0);
  const ids = Array.from({ length: MAX_INCIDENTS }, (_, i) =>
    incidents.add({ kind: 'outage', match: { operation: `op${i}` }, parameters: {} }),
  );
  expect(() => incidents.add({ kind: 'outage', match: {}, parameters: {} })).toThrow(
    expect.objectContaining({ code: 'too_many_incidents', status: 409 }),
  );
  expect(incidents.list(0)).toHaveLength(MAX_INCIDENTS);
  incidents.end(ids[0]!.id, 0);
  expect(incidents.add({ kind: 'outage', match: {}, parameters: {} }).kind).toBe('outage');
});

test('incidents on other operations are not looked at, and the newest match wins across its operation and any', () => {
  const incidents = new Incidents(() => 0);
  const call = { operation: 'listFirms', method: 'GET', path: '/api/v1/firms', keyId: null };
  for (let i = 0; i < 500; i++) incidents.add({ kind: 'outage', match: { operation: `other${i}` }, parameters: {} });
  expect(incidents.take(call, 0)).toBeNull();
  const own = incidents.add({ kind: 'latency', match: { operation: 'listFirms' }, parameters: {} });
  const any = incidents.add({ kind: 'reset', match: {}, calls: 1, parameters: {} });
  expect(incidents.take(call, 0)?.id).toBe(any.id);
  expect(incidents.take(call, 0)?.id).toBe(own.id);
  const newer = incidents.add({ kind: 'outage', match: { operation: 'listFirms' }, calls: 1, parameters: {} });
  incidents.add({ kind: 'outage', match: { path: '/api/v1/companies*' }, parameters: {} });
  expect(incidents.take(call, 0)?.id).toBe(newer.id);
  expect(incidents.take(call, 0)?.id).toBe(own.id);
});
