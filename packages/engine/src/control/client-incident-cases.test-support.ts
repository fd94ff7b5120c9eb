/**
 * The incident cases of the control client's suite (client-case-list.test-support.ts runs them
 * with the rest): an outage as the client starts it and the data API answers it, the incidents in
 * force, ending them, and the refusals of a wrong member.
 */
import { expect } from 'vitest';
import type { ControlCaseContext } from './client-case-context.test-support.ts';
import { ControlError } from './control-error.ts';

interface Cases {
  it: (title: string, body: () => Promise<void>) => void;
  newKey: (plan: 'team') => Promise<{ key: string; key_id: string }>;
  refusal: (promise: Promise<unknown>) => Promise<Error>;
}

export function incidentCases(c: ControlCaseContext, { it, newKey, refusal }: Cases): void {
  const status = async (path: string, key: string): Promise<number> => (await c.target.data(path, key)).status;

  it('an outage answers its calls 503 service_unavailable with Retry-After, uncounted, in the journal', async () => {
    const { key, key_id } = await newKey('team');
    const match = { operation: 'listFirms', key_id };
    const outage = await c.control.createIncident({ kind: 'outage', match, calls: 2, retry_after: 7 });
    expect(outage).toMatchObject({ kind: 'outage', match, calls_left: 2, retry_after: 7, hits: 0 });
    expect(outage.id).toMatch(/^inc_[0-9a-f]{12}$/);
    const first = await c.target.data('/api/v1/firms?limit=1', key);
    const problem = (await first.json()) as { code: string };
    expect([first.status, first.headers.get('retry-after'), problem.code]).toEqual([503, '7', 'service_unavailable']);
    expect(await status('/api/v1/companies?limit=1', key)).toBe(200);
    expect(await status('/api/v1/firms?limit=1', key)).toBe(503);
    // Its two calls are over: the service answers again, and the incident is no longer in force.
    expect(await status('/api/v1/firms?limit=1', key)).toBe(200);
    expect((await c.control.incidents()).map((i) => i.id)).not.toContain(outage.id);
    const entries = await c.control.journal({ key_id });
    expect(entries.map((e) => [e.operation, e.status, e.incident, e.calls_counted])).toEqual([
      ['listFirms', 503, outage.id, 0],
      ['listCompanies', 200, null, 1],
      ['listFirms', 503, outage.id, 0],
      ['listFirms', 200, null, 1],
    ]);
    expect((await c.control.state()).keys?.find((k) => k.key_id === key_id)?.usage.calls_used).toBe(2);
  });

  it('incidents() lists those in force oldest first; endIncident ends one (then 404), clearIncidents all', async () => {
    const match = { path: '/api/v1/no-such-path*' };
    const slow = await c.control.createIncident({ kind: 'latency', latency_ms: 0, match });
    const storm = await c.control.createIncident({ kind: 'rate_limited', match, duration: 'PT1H' });
    expect(storm).toMatchObject({ retry_after: 1, calls_left: null, until: null, ends_at: expect.any(String) });
    expect((await c.control.incidents()).map((i) => i.id)).toEqual([slow.id, storm.id]);
    expect(await c.control.endIncident(slow.id)).toMatchObject({ id: slow.id, kind: 'latency', hits: 0 });
    const ended = await refusal(c.control.endIncident(slow.id));
    expect(ended).toBeInstanceOf(ControlError);
    expect(ended).toMatchObject({ status: 404, code: 'not_found' });
    expect(await c.control.clearIncidents()).toEqual({ cleared: 1 });
    expect(await c.control.incidents()).toEqual([]);
  });

  it('a wrong member of an incident is a ControlError 400 invalid_body naming it, as the document does', async () => {
    const noLatency = await refusal(c.control.createIncident({ kind: 'latency' }));
    expect(noLatency).toMatchObject({ status: 400, code: 'invalid_body', errors: [{ pointer: '/latency_ms' }] });
    const unknown = await refusal(c.control.createIncident({ kind: 'meltdown' as 'outage' }));
    expect(unknown).toMatchObject({ status: 400, code: 'invalid_body', errors: [{ pointer: '/kind' }] });
    expect(c.sentOffDocument()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^POST \/__control\/incidents request body: .*latency_ms/),
        expect.stringMatching(/^POST \/__control\/incidents request body\.kind: /),
      ]),
    );
  });
}
